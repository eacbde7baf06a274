package dedup

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// reuseTexts are short answers each wholly inside a ten times longer
// source (containment 1, Jaccard about 0.1), and answers written apart
// from their source.
func reuseTexts(pairs int) (texts []string, reused map[[2]int]bool) {
	r := rand.New(rand.NewPCG(3, 9))
	word := func() string { return fmt.Sprintf("w%d", r.IntN(50000)) }
	words := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = word()
		}
		return out
	}
	reused = map[[2]int]bool{}
	for p := range pairs {
		answer := words(60)
		src := append(words(300), answer...)
		src = append(src, words(300)...)
		texts = append(texts, strings.Join(src, " "))
		if p%2 == 0 {
			reused[[2]int{len(texts) - 1, len(texts)}] = true
			texts = append(texts, strings.Join(answer, " "))
		} else {
			texts = append(texts, strings.Join(words(60), " "))
		}
	}
	return texts, reused
}

// TestContainmentCandidates: with MeasureContainment a short text
// reused whole inside a long one is found, in Cluster and in the
// Streamer, although their Jaccard (about 0.1) is far below what the
// bands of the threshold catch; the sampled shingles are its candidates.
func TestContainmentCandidates(t *testing.T) {
	texts, reused := reuseTexts(40)
	norm, _ := NewNormalizer(Options{})
	docs := make([]Doc, len(texts))
	for i, text := range texts {
		docs[i] = Doc{URL: fmt.Sprintf("u%03d", i), TextLen: len(text), Score: float64(len(texts) - i), Features: norm.Features(text)}
	}
	cfg := Config{Method: MethodMinHash, Threshold: 0.8, Measure: MeasureContainment}
	pairs, _, err := FindPairs(docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	found := map[[2]int]bool{}
	for _, p := range pairs {
		found[[2]int{p.I, p.J}] = true
		if !reused[[2]int{p.I, p.J}] {
			t.Errorf("pair %d-%d is no reuse", p.I, p.J)
		}
	}
	for p := range reused {
		if !found[p] {
			t.Errorf("FindPairs missed the reuse %d-%d (Jaccard %.2f)", p[0], p[1], MeasureJaccard.Similarity(docs[p[0]].Features, docs[p[1]].Features))
		}
	}
	res := streamCluster(t, texts, cfg, 64<<20, false)
	for i := range texts {
		o, ok, err := res.Next()
		if err != nil || !ok {
			t.Fatalf("Next: %v %v", ok, err)
		}
		if want := i; i%2 == 1 && reused[[2]int{i - 1, i}] {
			want = i - 1
			if o.Centre != want {
				t.Errorf("streamed: answer %d has centre %d, want its source %d", i, o.Centre, want)
			}
		}
	}
}
