package dedupgen

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/internal/shareddata"
)

var (
	poolOnce sync.Once
	testPool *Pool
	poolErr  error
)

// pool loads the shared data's pool once for all tests.
func pool(t testing.TB) *Pool {
	t.Helper()
	dir := shareddata.Require(t)
	poolOnce.Do(func() { testPool, poolErr = LoadPool(dir) })
	if poolErr != nil {
		t.Fatal(poolErr)
	}
	return testPool
}

// collection is a written collection held in memory for the tests.
type collection struct {
	docs, gold, unrelated []byte
	gs                    GoldStats
}

func generate(t *testing.T, p *Pool, opts Options, unrelated, workers int) collection {
	t.Helper()
	g, err := New(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	var c collection
	var d, gb, u bytes.Buffer
	if _, err := g.WriteDocs(&d, workers); err != nil {
		t.Fatal(err)
	}
	if c.gs, err = g.WriteGold(&gb, workers); err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteUnrelated(&u, unrelated, workers); err != nil {
		t.Fatal(err)
	}
	c.docs, c.gold, c.unrelated = d.Bytes(), gb.Bytes(), u.Bytes()
	return c
}

type line struct {
	URL  string `json:"url"`
	Text string `json:"text"`
}

func parseDocs(t *testing.T, b []byte) []line {
	t.Helper()
	var out []line
	err := jsonl.Scan(bytes.NewReader(b), "docs", func(_ int, l []byte) error {
		var d line
		if err := json.Unmarshal(l, &d); err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func parseGold(t *testing.T, b []byte) []Pair {
	t.Helper()
	var out []Pair
	err := jsonl.Scan(bytes.NewReader(b), "gold", func(_ int, l []byte) error {
		var p Pair
		if err := json.Unmarshal(l, &p); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeterministic: the same options give the same bytes, whatever the
// number of goroutines, and another seed gives other bytes.
func TestDeterministic(t *testing.T) {
	p := pool(t)
	opts := Options{Docs: 2000, Seed: 7, CopyRate: 0.05}
	a := generate(t, p, opts, 300, 1)
	b := generate(t, p, opts, 300, 3)
	if !bytes.Equal(a.docs, b.docs) || !bytes.Equal(a.gold, b.gold) || !bytes.Equal(a.unrelated, b.unrelated) {
		t.Fatal("1 and 3 workers wrote different bytes")
	}
	// A pool built again from the files gives the same collection.
	p2, err := LoadPool(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	c := generate(t, p2, opts, 300, 2)
	if !bytes.Equal(a.docs, c.docs) || !bytes.Equal(a.gold, c.gold) || !bytes.Equal(a.unrelated, c.unrelated) {
		t.Fatal("a second pool wrote different bytes")
	}
	opts.Seed = 8
	if d := generate(t, p, opts, 0, 2); bytes.Equal(a.docs, d.docs) {
		t.Fatal("seeds 7 and 8 wrote the same documents")
	}
}

// TestGold: every gold pair states the exact overlap of the two lines it
// names, recomputed here from the written file; every copy keeps a
// Jaccard of at least MinCopyJaccard with its original; families have 1-3
// copies and all their pairs; URLs are unique.
func TestGold(t *testing.T) {
	p := pool(t)
	c := generate(t, p, Options{Docs: 3000, Seed: 3}, 0, 0)
	docs := parseDocs(t, c.docs)
	gold := parseGold(t, c.gold)
	if len(docs) != 3000 {
		t.Fatalf("%d documents, want 3000", len(docs))
	}
	urls := map[string]bool{}
	for _, d := range docs {
		if urls[d.URL] {
			t.Fatalf("URL %s twice", d.URL)
		}
		urls[d.URL] = true
	}
	if c.gs.Families != 60 {
		t.Errorf("%d families, want 2%% of 3000", c.gs.Families)
	}
	members := map[int]int{}
	for _, g := range gold {
		a, b := docs[g.LineA-1], docs[g.LineB-1]
		if a.URL != g.A || b.URL != g.B {
			t.Fatalf("family %d: lines %d, %d hold %s, %s, not %s, %s", g.Family, g.LineA, g.LineB, a.URL, b.URL, g.A, g.B)
		}
		o := Compare(a.Text, b.Text)
		if o.SizeA != g.SizeA || o.SizeB != g.SizeB || o.Inter != g.Inter || o.Union() != g.Union ||
			o.Jaccard() != g.Jaccard || o.Containment() != g.Containment {
			t.Errorf("family %d lines %d-%d: gold %+v, recomputed %+v", g.Family, g.LineA, g.LineB, g, o)
		}
		if len(g.EditsA) == 0 {
			members[g.Family]++
			if g.Jaccard < MinCopyJaccard || g.Jaccard == 1 {
				t.Errorf("family %d copy %s: Jaccard %v with its original", g.Family, g.B, g.Jaccard)
			}
			if len(g.EditsB) == 0 || !slices.IsSortedFunc(g.EditsB, func(x, y string) int {
				return slices.Index(EditKinds, x) - slices.Index(EditKinds, y)
			}) {
				t.Errorf("family %d copy %s: edits %v", g.Family, g.B, g.EditsB)
			}
		}
	}
	pairs := 0
	for f, n := range members {
		if n < 1 || n > 3 {
			t.Errorf("family %d has %d copies", f, n)
		}
		pairs += (n + 1) * n / 2
	}
	if len(members) != c.gs.Families || pairs != len(gold) {
		t.Errorf("%d families with copies, %d pairs in gold, want %d and %d", len(members), len(gold), c.gs.Families, pairs)
	}
}

// TestUnplantedFarApart compares ALL pairs of a 3,000-document collection
// and 500 unrelated documents: no pair outside a planted family reaches a
// Jaccard of 0.5. Pairs that share no shingle have a Jaccard of 0, so an
// inverted index of the shingles finds every other pair; the Jaccard of
// each pair it finds over 0.3 is then computed exactly.
func TestUnplantedFarApart(t *testing.T) {
	p := pool(t)
	c := generate(t, p, Options{Docs: 3000, Seed: 11}, 500, 0)
	docs := append(parseDocs(t, c.docs), parseDocs(t, c.unrelated)...)
	family := map[int]int{} // line index -> family
	for _, g := range parseGold(t, c.gold) {
		family[g.LineA-1], family[g.LineB-1] = g.Family, g.Family
	}
	sets := make([][]uint64, len(docs))
	post := map[uint64][]int32{}
	for i, d := range docs {
		sets[i] = shingleHashes(d.Text)
		for _, h := range sets[i] {
			post[h] = append(post[h], int32(i))
		}
	}
	shared := map[[2]int32]int32{}
	for _, ids := range post {
		for x := range ids {
			for y := x + 1; y < len(ids); y++ {
				shared[[2]int32{ids[x], ids[y]}]++
			}
		}
	}
	worst, worstC, planted := 0.0, 0.0, 0
	for pr, n := range shared {
		a, b := int(pr[0]), int(pr[1])
		j := float64(n) / float64(len(sets[a])+len(sets[b])-int(n))
		c := float64(n) / float64(min(len(sets[a]), len(sets[b])))
		fa, oka := family[a]
		fb, okb := family[b]
		if oka && okb && fa == fb {
			planted++
			continue
		}
		if j > 0.3 {
			j = Jaccard(docs[a].Text, docs[b].Text)
		}
		worst, worstC = max(worst, j), max(worstC, c)
		if j >= 0.5 {
			t.Errorf("unplanted pair %s and %s: Jaccard %.3f", docs[a].URL, docs[b].URL, j)
		}
	}
	t.Logf("%d pairs share a shingle, %d of them planted; the closest unplanted pair has Jaccard %.3f, the highest containment is %.3f",
		len(shared), planted, worst, worstC)
}

// TestLanguages: the pool keeps English, Chinese, Russian and German, and
// the documents follow the pool sizes.
func TestLanguages(t *testing.T) {
	p := pool(t)
	var codes []string
	for _, l := range p.Languages() {
		codes = append(codes, l.Code)
	}
	if !slices.Equal(codes, []string{"en", "zh", "ru", "de"}) {
		t.Fatalf("pool languages %v", codes)
	}
	g, err := New(p, Options{Docs: 2000})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for i := range 2000 {
		n[g.Doc(i).Lang]++
	}
	for _, l := range p.Languages() {
		want := float64(l.Sentences) / float64(p.cumSents[len(p.cumSents)-1])
		if got := float64(n[l.Code]) / 2000; got < want-0.04 || got > want+0.04 {
			t.Errorf("%s: %.3f of documents, pool %.3f", l.Code, got, want)
		}
	}
}

// TestPerm: the permutation is a bijection of [0, n) and invert undoes it.
func TestPerm(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17, 1000, 4097} {
		p := newPerm(n, uint64(n))
		seen := make([]bool, n)
		for x := range n {
			y := p.apply(x)
			if y < 0 || y >= n || seen[y] {
				t.Fatalf("n=%d: apply(%d) = %d, out of range or twice", n, x, y)
			}
			seen[y] = true
			if p.invert(y) != x {
				t.Fatalf("n=%d: invert(apply(%d)) = %d", n, x, p.invert(y))
			}
		}
	}
}

// TestValidate reports every broken option at once.
func TestValidate(t *testing.T) {
	o := Options{Docs: 0, CopyRate: 0.5, MinSentences: 10, MaxSentences: 5}
	o.EnsureDefaults()
	err := o.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"Docs 0", "CopyRate 0.5", "sentences 10-5"} {
		if !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("%v lacks %q", err, want)
		}
	}
}

// TestAppendJSONString: the hand-written escaping reads back as the
// same string.
func TestAppendJSONString(t *testing.T) {
	s := "quote \" backslash \\ tab \t newline \n cr \r bell \a nul \x00 кириллица 中文 \u2028 end"
	var back string
	if err := json.Unmarshal(appendJSONString(nil, s), &back); err != nil || back != s {
		t.Fatalf("read back %q, %v", back, err)
	}
}
