package dedup

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// streamTexts is a collection of families of near-copies (one to eight
// words changed, a sentence added) spread over the threshold, and
// unrelated texts.
func streamTexts(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	words := strings.Fields("harbour town tidal power station decade planning protests hearings council ferry bridge winter squash shelf bedroom April market tower river mill school garden orchard lantern")
	var texts []string
	var base []string
	for len(texts) < n {
		if len(texts)%4 == 0 {
			base = make([]string, 60+r.IntN(60))
			for i := range base {
				base[i] = words[r.IntN(len(words))] + fmt.Sprint(r.IntN(40))
			}
			texts = append(texts, strings.Join(base, " "))
			continue
		}
		cp := append([]string(nil), base...)
		for range r.IntN(9) {
			cp[r.IntN(len(cp))] = words[r.IntN(len(words))]
		}
		if r.IntN(3) == 0 {
			cp = append(cp, "a trailer line added by the reprinting site")
		}
		texts = append(texts, strings.Join(cp, " "))
	}
	texts = append(texts, "", "short text") // no shingle, one shingle
	return texts
}

// streamCluster runs a Streamer over texts.
// With small set, the sort spills after 1,000 keys and no feature is
// held: every pair goes through the sketches.
func streamCluster(t *testing.T, texts []string, cfg Config, mem int64, small bool) *StreamResult {
	t.Helper()
	norm, err := NewNormalizer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStreamer(cfg, norm, StreamOptions{MaxMemory: mem, TempDir: t.TempDir(), Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if small {
		s.sorter.limit, s.noFeatures = 1000, true
	}
	for i, text := range texts {
		d := StreamDoc{Offset: int64(i), Length: len(text)}
		var hashes []uint64
		hashes, d.Fingerprint, d.HasFingerprint = norm.HashesAndFingerprint(text, norm)
		s.Sign(&d, hashes)
		if err := s.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Finish(func(id int, off int64, n int) (Doc, string, error) {
		if int(off) != id || n != len(texts[id]) {
			return Doc{}, "", fmt.Errorf("document %d read back at %d+%d", id, off, n)
		}
		// Earlier documents are canonical.
		return Doc{URL: fmt.Sprintf("u%03d", id), TextLen: n, Score: float64(len(texts) - id)}, texts[id], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestStreamerMatchesCluster: whatever the memory (all in memory; keys
// spilled to sorted runs and every pair decided on sketches, the
// borderline ones re-read), the Streamer's clusters are Cluster's.
func TestStreamerMatchesCluster(t *testing.T) {
	texts := streamTexts(400, 1)
	norm, _ := NewNormalizer(Options{})
	docs := make([]Doc, len(texts))
	for i, text := range texts {
		docs[i] = Doc{URL: fmt.Sprintf("u%03d", i), TextLen: len(text), Score: float64(len(texts) - i), Features: norm.Features(text)}
	}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"minhash", Config{Method: MethodMinHash}},
		{"minhash-0.6", Config{Method: MethodMinHash, Threshold: 0.6}},
		{"minhash-containment", Config{Method: MethodMinHash, Measure: MeasureContainment}},
		{"simhash-k6", Config{Method: MethodSimHash, K: 6}},
	} {
		want, err := Cluster(docs, tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, small := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/small=%v", tc.name, small), func(t *testing.T) {
				res := streamCluster(t, texts, tc.cfg, 64<<20, small)
				if res.Clusters != want.Clusters || res.Duplicates != want.Duplicates || res.LargestSize != want.LargestSize ||
					res.Candidates != want.Candidates || res.Verified != want.Verified {
					t.Errorf("got %d clusters, %d duplicates, largest %d, %d candidates, %d verified; Cluster: %d, %d, %d, %d, %d",
						res.Clusters, res.Duplicates, res.LargestSize, res.Candidates, res.Verified,
						want.Clusters, want.Duplicates, want.LargestSize, want.Candidates, want.Verified)
				}
				if small && tc.cfg.Method == MethodMinHash && tc.cfg.Measure == MeasureJaccard && (res.Estimated == 0 || res.Exact == 0) {
					t.Errorf("a small budget decided %d pairs on sketches and %d re-read: want some of both", res.Estimated, res.Exact)
				}
				for i := range texts {
					o, ok, err := res.Next()
					if err != nil || !ok {
						t.Fatalf("Next: %v %v", ok, err)
					}
					if o.Centre != want.Centre[i] {
						t.Fatalf("document %d: centre %d, Cluster's %d", i, o.Centre, want.Centre[i])
					}
					if got := ClusterID(docs[o.Centre].URL, o.Centre); got != want.ClusterID[i] {
						t.Fatalf("document %d: cluster %s, Cluster's %s", i, got, want.ClusterID[i])
					}
					if o.HasNear {
						j, _ := strconv.Atoi(o.Near[1:])
						thr := tc.cfg.Threshold
						if thr == 0 {
							thr = 0.8
						}
						if sim := tc.cfg.Measure.Similarity(docs[i].Features, docs[j].Features); sim != o.NearSimilarity {
							t.Errorf("document %d: near %s at %v, exactly %v", i, o.Near, o.NearSimilarity, sim)
						}
						if want.Centre[j] == want.Centre[i] || tc.cfg.Measure.Similarity(docs[i].Features, docs[j].Features) < thr {
							t.Errorf("document %d: near %s is in its cluster or below the threshold", i, o.Near)
						}
					}
				}
				if _, ok, _ := res.Next(); ok {
					t.Error("Next went past the last document")
				}
			})
		}
	}
}

// TestStreamerNear is the split pair: A-B 0.9 and B-C above the
// threshold with A-C below it gives {A,B} and {C}; C says B is near.
func TestStreamerNear(t *testing.T) {
	base := strings.Fields(streamTexts(1, 5)[0])
	edit := func(ws []string, from, n int) []string {
		out := append([]string(nil), ws...)
		for i := from; i < from+n; i++ {
			out[i] = "changed" + fmt.Sprint(i)
		}
		return out
	}
	a := strings.Join(base, " ")
	b := strings.Join(edit(base, 10, 3), " ")
	c := strings.Join(edit(edit(base, 10, 3), 40, 3), " ")
	norm, _ := NewNormalizer(Options{})
	fa, fb, fc := norm.Features(a), norm.Features(b), norm.Features(c)
	const thr = 0.85
	if !(Jaccard(fa, fb) >= thr && Jaccard(fb, fc) >= thr && Jaccard(fa, fc) < thr) {
		t.Fatalf("the texts are no split pair: AB %.3f BC %.3f AC %.3f", Jaccard(fa, fb), Jaccard(fb, fc), Jaccard(fa, fc))
	}
	for _, small := range []bool{false, true} {
		res := streamCluster(t, []string{a, b, c}, Config{Method: MethodMinHash, Threshold: thr}, 0, small)
		got := outcomes(t, res)
		if got[1].Centre != 0 || got[2].Centre != 2 {
			t.Fatalf("clusters %d %d %d, want 0 0 2", got[0].Centre, got[1].Centre, got[2].Centre)
		}
		if !got[2].HasNear || got[2].Near != "u001" || got[2].NearSimilarity != Jaccard(fb, fc) {
			t.Errorf("C's near: %+v, want u001 at %.3f", got[2], Jaccard(fb, fc))
		}
		if !got[1].HasNear || got[1].Near != "u002" || got[0].HasNear {
			t.Errorf("B's near %+v, A's %+v: want B near C, A none", got[1], got[0])
		}
		if res.Near != 2 {
			t.Errorf("Near = %d, want 2", res.Near)
		}
	}
}

// TestStreamerSimHashCopies: copies of one page (a crawl's error page)
// share one entry of the SimHash tables: they form one cluster, the
// other texts cluster as without them, and the tables are searched a
// few times a document, not once a pair of copies (3,000 copies made
// 90 million entries examined when each was a table entry of its own).
func TestStreamerSimHashCopies(t *testing.T) {
	others := streamTexts(200, 9)
	cfg := Config{Method: MethodSimHash, K: 3, Threshold: 0.8}
	want := outcomes(t, streamCluster(t, others, cfg, 0, false))
	const copies = 3000
	page := strings.Repeat("the page you asked for is not here; try the search box or the front page. ", 3)
	texts := append([]string(nil), others...)
	for range copies {
		texts = append(texts, page)
	}
	res := streamCluster(t, texts, cfg, 0, false)
	got := outcomes(t, res)
	for i := range others {
		if got[i].Centre != want[i].Centre {
			t.Fatalf("document %d: centre %d beside the copies, %d without them", i, got[i].Centre, want[i].Centre)
		}
	}
	for i := len(others); i < len(texts); i++ {
		if got[i].Centre != len(others) {
			t.Fatalf("copy %d: centre %d, want the first copy %d", i, got[i].Centre, len(others))
		}
	}
	if res.Examined > 100*len(texts) {
		t.Errorf("%d table entries examined for %d documents", res.Examined, len(texts))
	}
}

// outcomes reads every outcome of a result.
func outcomes(t *testing.T, res *StreamResult) []StreamOutcome {
	t.Helper()
	var out []StreamOutcome
	for {
		o, ok, err := res.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return out
		}
		out = append(out, o)
	}
}

func TestStreamerMemoryError(t *testing.T) {
	norm, _ := NewNormalizer(Options{})
	if _, err := NewStreamer(Config{}, norm, StreamOptions{MaxMemory: 1000, TempDir: t.TempDir()}); !errors.Is(err, ErrMemory) {
		t.Errorf("a 1000-byte budget: %v, want ErrMemory", err)
	}
}
