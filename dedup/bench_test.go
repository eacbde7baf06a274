package dedup

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func loadGold(b *testing.B) ([]string, int) {
	data := shareddata.Require(b)
	var texts []string
	total := 0
	for _, set := range []string{"daniel-ru", "daniel-zh", "cleaneval-zh"} {
		files, _ := filepath.Glob(filepath.Join(data, "extract", set, "gold", "*.txt"))
		for _, f := range files {
			t, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			texts = append(texts, string(t))
			total += len(t)
		}
	}
	return texts, total
}

// BenchmarkSimHash measures normalisation, 3+5-word shingles and SimHash
// over the gold texts of the extraction sets, on one goroutine (MB/s is
// per core).
func BenchmarkSimHash(b *testing.B) {
	texts, total := loadGold(b)
	n := mustNormalizer(b, Options{Shingles: []int{3, 5}})
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			if _, ok := n.Fingerprint(t); !ok && len(t) > 0 {
				b.Fatal("no fingerprint")
			}
		}
	}
}

// BenchmarkQuery10M queries an index of 10 million fingerprints at k=3
// and reports the median and 99th percentile query time and the memory
// the tables take per fingerprint.
func BenchmarkQuery10M(b *testing.B) {
	if testing.Short() {
		b.Skip("builds 10 million fingerprints")
	}
	const n = 10_000_000
	rng := rand.New(rand.NewPCG(5, 6))
	fps := make([]uint64, n)
	for i := range fps {
		fps[i] = rng.Uint64()
	}
	layout, err := PlanLayout(3, n, 0)
	if err != nil {
		b.Fatal(err)
	}
	ix := NewIndex(fps, layout)
	b.Logf("%v", layout)
	queries := make([]uint64, 1<<16)
	for i := range queries {
		q := fps[rng.IntN(n)]
		for range rng.IntN(4) {
			q ^= 1 << rng.IntN(64)
		}
		queries[i] = q
	}
	lat := make([]time.Duration, 0, 1<<16)
	found := 0
	b.ResetTimer()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		start := time.Now()
		ix.Query(q, func(int, int) { found++ })
		if len(lat) < cap(lat) {
			lat = append(lat, time.Since(start))
		}
	}
	b.StopTimer()
	if found == 0 {
		b.Fatal("no query found its source fingerprint")
	}
	sort.Slice(lat, func(a, c int) bool { return lat[a] < lat[c] })
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1000, "p99-µs")
	b.ReportMetric(float64(layout.BytesPerFingerprint()), "bytes/fp")
}

// BenchmarkCluster1M clusters one million documents of 100 random
// shingles each, a tenth of them with 1 to 5 copies that differ in 5% of
// their shingles, with MinHash and with SimHash; one op is one run.
func BenchmarkCluster1M(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a million documents")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var docs []Doc
	for len(docs) < 1_000_000 {
		feats := make([]Feature, 100)
		for i := range feats {
			feats[i] = Feature{Hash: rng.Uint64(), Weight: 1}
		}
		sortFeatures(feats)
		docs = append(docs, Doc{URL: "u", Features: feats})
		if rng.IntN(10) == 0 {
			for range 1 + rng.IntN(5) {
				cp := append([]Feature(nil), feats...)
				for k := range 5 {
					cp[k*20] = Feature{Hash: rng.Uint64(), Weight: 1}
				}
				sortFeatures(cp)
				docs = append(docs, Doc{URL: "c", Features: cp})
			}
		}
	}
	for _, m := range []Method{MethodMinHash, MethodSimHash} {
		b.Run(m.String(), func(b *testing.B) {
			for b.Loop() {
				res, err := Cluster(docs, Config{Method: m, Threshold: 0.8, K: 6})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Duplicates), "duplicates")
			}
		})
	}
}

func sortFeatures(f []Feature) { sort.Slice(f, func(i, j int) bool { return f[i].Hash < f[j].Hash }) }

// BenchmarkSimHashDefault is BenchmarkSimHash with winnow dedup's default
// fingerprint features: words and word pairs.
func BenchmarkSimHashDefault(b *testing.B) {
	texts, total := loadGold(b)
	n := mustNormalizer(b, Options{Shingles: []int{1, 2}})
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			n.Fingerprint(t)
		}
	}
}
