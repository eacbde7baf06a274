package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// TestDedupStats: with the signature methods and --idf, Dedup counts
// the collection's statistics in a pass of their own (spilled to runs
// at this budget) and writes, record for record, the fingerprint and
// clusters of the in-memory path: the statistics of every text at once
// (dedup.SignCollection, dedup.NewIDF) and dedup.Cluster, on 1,500
// generated documents of real sentences, 15 exact copies and a line that
// is not JSON.
func TestDedupStats(t *testing.T) {
	pool, err := dedupgen.LoadPool(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	g, err := dedupgen.New(pool, dedupgen.Options{Docs: 1500, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	var texts, urls []string
	for i := range 1500 {
		d := g.Doc(i)
		if i == 700 {
			in.WriteString("not a record\n")
			texts, urls = append(texts, ""), append(urls, "")
		}
		b, _ := json.Marshal(map[string]any{"url": d.URL, "text": d.Text, "score": i % 7})
		in.Write(append(b, '\n'))
		texts, urls = append(texts, d.Text), append(urls, d.URL)
		if i%100 == 0 { // an exact copy, for MD5
			b, _ := json.Marshal(map[string]any{"url": d.URL + "?copy", "text": d.Text, "score": i % 7})
			in.Write(append(b, '\n'))
			texts, urls = append(texts, d.Text), append(urls, d.URL+"?copy")
		}
	}
	scores := make([]float64, len(texts))
	for i, line := range strings.Split(strings.TrimSpace(in.String()), "\n") {
		var rec struct{ Score float64 }
		json.Unmarshal([]byte(line), &rec)
		scores[i] = rec.Score
	}
	for _, c := range []struct {
		method dedup.Method
		idf    bool
	}{
		{dedup.MethodTFIDF, false}, {dedup.MethodHeavySent, false}, {dedup.MethodLexRand, true},
		{dedup.MethodMD5, false}, {dedup.MethodLongSent, false}, {dedup.MethodSimHash, true},
	} {
		t.Run(fmt.Sprintf("%v-idf=%v", c.method, c.idf), func(t *testing.T) {
			opts := DefaultDedupOptions()
			opts.Method, opts.IDF, opts.K = c.method, c.idf, 3
			// Budgets at which the counts spill: the terms at 8 MB
			// (25,000 of about 35,000), the features at 24 MB.
			opts.MaxMemory, opts.TempDir = 8<<20, t.TempDir()
			if c.idf {
				opts.MaxMemory = 24 << 20
			}
			var out bytes.Buffer
			sum, _, err := Dedup(bytes.NewReader(in.Bytes()), "in.jsonl", &out, opts)
			if err != nil {
				t.Fatal(err)
			}
			if (c.method.NeedsStats() || c.idf) && sum.StatsRuns == 0 {
				t.Errorf("the statistics did not spill at %d MB: %+v", opts.MaxMemory>>20, sum)
			}
			want := inMemoryClusters(t, opts, texts, urls, scores)
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != len(texts) {
				t.Fatalf("%d records out of %d", len(lines), len(texts))
			}
			if want.Duplicates < 15 || sum.Duplicates != want.Duplicates {
				t.Errorf("%d duplicates, in memory %d", sum.Duplicates, want.Duplicates)
			}
			for i, line := range lines {
				var rec struct {
					SimHash     *string `json:"simhash"`
					Cluster     string  `json:"cluster"`
					Canonical   bool    `json:"canonical"`
					DuplicateOf string  `json:"duplicate_of"`
				}
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatal(err)
				}
				fp := "null"
				if rec.SimHash != nil {
					fp = *rec.SimHash
				}
				wantFP := "null"
				if want.HasSimHash[i] {
					wantFP = dedup.FormatFingerprint(want.SimHash[i])
				}
				centre := want.Centre[i]
				wantDup := ""
				if centre != i {
					wantDup = urls[centre]
				}
				if fp != wantFP || rec.Cluster != want.ClusterID[i] || rec.Canonical != (centre == i) || rec.DuplicateOf != wantDup {
					t.Fatalf("record %d: simhash %s cluster %s canonical %v duplicate of %q; in memory %s %s %v %q",
						i, fp, rec.Cluster, rec.Canonical, rec.DuplicateOf, wantFP, want.ClusterID[i], centre == i, wantDup)
				}
			}
		})
	}
}

// inMemoryClusters is the in-memory path: every text's features,
// fingerprint (IDF-weighted with opts.IDF) and signatures from the
// statistics of all the texts at once, clustered by dedup.Cluster.
func inMemoryClusters(t *testing.T, opts DedupOptions, texts, urls []string, scores []float64) *dedup.Result {
	t.Helper()
	norm, simNorm, err := opts.normalizers()
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]dedup.Doc, len(texts))
	simFeats := make([][]dedup.Feature, len(texts))
	for i, text := range texts {
		docs[i] = dedup.Doc{URL: urls[i], TextLen: len(text), Score: scores[i], Features: norm.Features(text)}
		simFeats[i] = simNorm.Features(text)
		docs[i].Fingerprint, docs[i].HasFingerprint = simNorm.Fingerprint(text)
	}
	if opts.IDF {
		idf := dedup.NewIDF(simFeats)
		for i := range docs {
			docs[i].Fingerprint, docs[i].HasFingerprint = dedup.SimHash(idf.Apply(simFeats[i]))
		}
	}
	for i, sigs := range dedup.SignCollection(opts.Method, texts, norm) {
		docs[i].Signatures = sigs
	}
	res, err := dedup.Cluster(docs, opts.config())
	if err != nil {
		t.Fatal(err)
	}
	return res
}
