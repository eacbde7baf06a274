package dedup_test

import (
	"slices"
	"testing"

	. "github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// genTexts are n generated documents of real sentences (internal/dedupgen,
// every language of the shared data) with planted near-copies.
func genTexts(t *testing.T, n int) []string {
	t.Helper()
	pool, err := dedupgen.LoadPool(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	g, err := dedupgen.New(pool, dedupgen.Options{Docs: n, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, n)
	for i := range texts {
		texts[i] = g.Doc(i).Text
	}
	return append(texts, "", "ok") // no term; one term
}

// countDocFreq counts keys of texts within budget bytes.
func countDocFreq(t *testing.T, keys [][]uint64, budget int64) (*DocFreq, int) {
	t.Helper()
	c, err := NewDocFreqCounter(budget, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, ks := range keys {
		if err := c.Add(ks); err != nil {
			t.Fatal(err)
		}
	}
	f, err := c.Freeze(64 << 20)
	if err != nil {
		t.Fatal(err)
	}
	return f, c.Runs()
}

// TestDocFreq: on 3,000 generated documents the frozen counts equal a
// map's, whether the counts stay in memory or spill to a dozen runs;
// only keys of two or more documents are held; a table over its budget
// is an error.
func TestDocFreq(t *testing.T) {
	n, err := NewNormalizer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := genTexts(t, 3000)
	keys := make([][]uint64, len(texts))
	want := map[uint64]int{}
	for i, text := range texts {
		keys[i] = TermKeys(n.Tokens(text))
		for _, k := range keys[i] {
			want[k]++
		}
	}
	shared := 0
	for _, c := range want {
		if c > 1 {
			shared++
		}
	}
	for _, budget := range []int64{64 << 20, 1024 * DocFreqMapBytes} {
		f, runs := countDocFreq(t, keys, budget)
		t.Logf("budget %d: %d runs, %d of %d terms held", budget, runs, f.Len(), len(want))
		if budget < 1<<20 && runs < 10 {
			t.Errorf("budget %d: %d runs, want the counts spilled", budget, runs)
		}
		if f.Docs() != len(texts) || f.Len() != shared {
			t.Errorf("budget %d: %d documents, %d keys held; want %d, %d", budget, f.Docs(), f.Len(), len(texts), shared)
		}
		for k, c := range want {
			if got := f.Count(k); got != c {
				t.Fatalf("budget %d: key %x counted %d, want %d", budget, k, got, c)
			}
		}
	}
	c, err := NewDocFreqCounter(1<<20, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, ks := range keys {
		c.Add(ks)
	}
	if _, err := c.Freeze(int64(shared-1) * DocFreqBytes); err == nil {
		t.Errorf("%d shared keys fit in the bytes of %d", shared, shared-1)
	}
}

// TestStatsFromDocFreq: the signatures of TF*IDF, Heavy Sent and Lex
// Rand and the IDF weights from counts spilled to runs equal those of the
// in-memory statistics (SignCollection, NewIDF) on 1,000 generated
// documents.
func TestStatsFromDocFreq(t *testing.T) {
	n, err := NewNormalizer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := genTexts(t, 1000)
	terms := make([][]uint64, len(texts))
	feats := make([][]Feature, len(texts))
	fkeys := make([][]uint64, len(texts))
	for i, text := range texts {
		terms[i] = TermKeys(n.Tokens(text))
		feats[i] = n.Features(text)
		for _, f := range feats[i] {
			fkeys[i] = append(fkeys[i], f.Hash)
		}
	}
	tf, truns := countDocFreq(t, terms, 4096*DocFreqMapBytes)
	ff, fruns := countDocFreq(t, fkeys, 4096*DocFreqMapBytes)
	if truns < 2 || fruns < 2 {
		t.Fatalf("%d and %d runs: the counts did not spill", truns, fruns)
	}
	st := TermStatsFromDocFreq(tf)
	for _, m := range []Method{MethodTFIDF, MethodHeavySent, MethodLexRand} {
		want := SignCollection(m, texts, n)
		s := NewSigner(m, n, st)
		signed := 0
		for i, text := range texts {
			got := s.Sign(text)
			if !slices.Equal(got, want[i]) {
				t.Fatalf("%v: text %d: signatures %x, in memory %x", m, i, got, want[i])
			}
			if len(got) > 0 {
				signed++
			}
		}
		if signed < len(texts)-2 {
			t.Errorf("%v: %d of %d texts signed", m, signed, len(texts))
		}
	}
	mem, streamed := NewIDF(feats), IDFFromDocFreq(ff)
	for i := range feats {
		a, b := mem.Apply(feats[i]), streamed.Apply(feats[i])
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("text %d feature %d: weight %v, in memory %v", i, k, b[k].Weight, a[k].Weight)
			}
		}
	}
}
