package dedup

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func TestBandsFigures(t *testing.T) {
	b := Bands{B: 20, R: 5}
	if miss := 1 - b.Probability(0.8); math.Abs(miss-0.00035) > 0.00001 {
		t.Errorf("missed at 0.8: %.6f, want 0.00035 (seed figure)", miss)
	}
	got := ChooseBands(0.8, 128, 0.01, 0.99)
	if got.B*got.R > 128 || got.Probability(0.8) < 0.98 || got.Probability(0.3) > 0.01 {
		t.Errorf("ChooseBands(0.8,128) = %v", got)
	}
}

func TestMinHashEstimates(t *testing.T) {
	n := mustNormalizer(t, Options{})
	var a, b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&a, "word%d ", i)
		if i%10 == 0 {
			fmt.Fprintf(&b, "other%d ", i)
		} else {
			fmt.Fprintf(&b, "word%d ", i)
		}
	}
	fa, fb := n.Features(a.String()), n.Features(b.String())
	mh := NewMinHasher(256, 7)
	est := EstimateJaccard(mh.Signature(fa), mh.Signature(fb))
	if exact := Jaccard(fa, fb); math.Abs(est-exact) > 0.08 {
		t.Errorf("estimate %.3f, exact %.3f", est, exact)
	}
}

func docOf(n *Normalizer, url, text string) Doc {
	return Doc{URL: url, TextLen: len(text), Features: n.Features(text)}
}

// TestNoChaining builds A, B = A edited, C = B edited further, such that
// A~B and B~C pass the threshold but A~C does not: C must not join A.
func TestNoChaining(t *testing.T) {
	n := mustNormalizer(t, Options{Shingles: []int{1}})
	words := make([]string, 100)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	edit := func(from []string, start, count int) []string {
		out := append([]string(nil), from...)
		for i := start; i < start+count; i++ {
			out[i] = "x" + out[i]
		}
		return out
	}
	a := words
	b := edit(a, 0, 12)
	c := edit(b, 50, 12)
	docs := []Doc{docOf(n, "a", strings.Join(a, " ")), docOf(n, "b", strings.Join(b, " ")), docOf(n, "c", strings.Join(c, " "))}
	docs[0].Score, docs[1].Score, docs[2].Score = 3, 2, 1
	for _, m := range []Method{MethodSimHash, MethodMinHash} {
		t.Run(m.String(), func(t *testing.T) {
			res, err := Cluster(docs, Config{Method: m, K: 8, Threshold: 0.75})
			if err != nil {
				t.Fatal(err)
			}
			jab, jac := Jaccard(docs[0].Features, docs[1].Features), Jaccard(docs[0].Features, docs[2].Features)
			if jab < 0.75 || jac >= 0.75 {
				t.Fatalf("bad fixture: J(a,b)=%.2f J(a,c)=%.2f", jab, jac)
			}
			if res.Centre[2] == 0 {
				t.Errorf("method %d: c joined a's cluster through b", m)
			}
			for i, c := range res.Centre {
				if c != i && Jaccard(docs[i].Features, docs[c].Features) < 0.75 {
					t.Errorf("member %d is not within the threshold of its centre %d", i, c)
				}
			}
		})
	}
}

func TestCanonicalOrder(t *testing.T) {
	t0 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := []Doc{
		{URL: "z", TextLen: 10},                  // no date: last
		{URL: "y", FetchedAt: t0.Add(time.Hour)}, // later
		{URL: "x", FetchedAt: t0, Score: 1},
		{URL: "w", FetchedAt: t0, Score: 5, BoilerplateRatio: 0.5},
		{URL: "v", FetchedAt: t0, Score: 5, BoilerplateRatio: 0.1, TextLen: 5},
		{URL: "u", FetchedAt: t0, Score: 5, BoilerplateRatio: 0.1, TextLen: 9},
		{URL: "t", FetchedAt: t0, Score: 5, BoilerplateRatio: 0.1, TextLen: 9},
	}
	want := []string{"t", "u", "v", "w", "x", "y", "z"}
	for i := range want {
		for j := range want {
			a, b := &docs[6-i], &docs[6-j]
			if got := canonicalBefore(a, b); got != (i < j) && i != j {
				t.Fatalf("canonicalBefore(%s, %s) = %v", a.URL, b.URL, got)
			}
		}
	}
}

// readCS reads a Clough-Stevenson text: UTF-8, or cp1252 when it is not.
func readCS(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if utf8.Valid(b) {
		return string(b)
	}
	s, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(s)
}

// TestCloughStevenson: at one measure and one threshold, at least 17 of
// the 19 cut answers are found as reuse of their source and no non answer
// is (data README: two cut answers are label noise).
func TestCloughStevenson(t *testing.T) {
	dir := filepath.Join(shareddata.Require(t), "dedup", "clough-stevenson")
	f, err := os.Open(filepath.Join(dir, "pairs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := mustNormalizer(t, Options{})
	const threshold = 0.15
	found := map[string]int{}
	total := map[string]int{}
	for _, row := range rows[1:] {
		ans := n.Features(readCS(t, filepath.Join(dir, "texts", row[0])))
		src := n.Features(readCS(t, filepath.Join(dir, "texts", row[1])))
		cls := row[3]
		total[cls]++
		if Containment(ans, src) >= threshold {
			found[cls]++
		}
	}
	t.Logf("containment of 3-word shingles >= %.2f: cut %d/%d, light %d/%d, heavy %d/%d, non %d/%d",
		threshold, found["cut"], total["cut"], found["light"], total["light"], found["heavy"], total["heavy"], found["non"], total["non"])
	if total["cut"] != 19 || found["cut"] < 17 || found["non"] != 0 {
		t.Errorf("cut %d/%d found, non %d found", found["cut"], total["cut"], found["non"])
	}
}

func TestPruningAndIDF(t *testing.T) {
	n := mustNormalizer(t, Options{Shingles: []int{1}})
	long := strings.Repeat("tide moon sea harbour town ", 20)
	docs := []Doc{
		{URL: "a", TextLen: 100, Lang: "latin", Features: n.Features(long)},
		{URL: "b", TextLen: 300, Lang: "latin", Features: n.Features(long)},
		{URL: "c", TextLen: 100, Lang: "cjk", Features: n.Features(long)},
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		want int
	}{
		{"no-pruning", Config{Method: MethodMinHash}, 3},
		{"length-ratio", Config{Method: MethodMinHash, LengthRatio: 1.25}, 1},
		{"same-lang", Config{Method: MethodMinHash, SameLang: true}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pairs, st, err := FindPairs(docs, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(pairs) != tc.want || st.Pruned != 3-tc.want {
				t.Errorf("%+v: %d pairs, %d pruned", tc.cfg, len(pairs), st.Pruned)
			}
		})
	}
	idf := NewIDF([][]Feature{docs[0].Features, n.Features("tide only here")})
	w := idf.Apply(docs[0].Features)
	for i, f := range w {
		if f.Weight >= docs[0].Features[i].Weight*math.Log(3) || f.Weight < 0 {
			t.Errorf("IDF weight %v for a feature of weight %v", f.Weight, docs[0].Features[i].Weight)
		}
	}
	if _, ok := SimHash(w); !ok {
		t.Error("no fingerprint from IDF weights")
	}
	if got := Script("本周六，海滨小城"); got != "cjk" {
		t.Errorf("Script = %q", got)
	}
}
