package dedup_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// The benchmarks in this file index a generated collection
// (internal/dedupgen: real sentences of the shared data's gold texts, in
// English, Chinese, Russian and German, 2% of the documents originals
// with planted near-copies), never random fingerprints: real SimHash
// fingerprints are not uniform, and a table prefix that selects a few
// random fingerprints selects many real ones. Where a uniform reference
// tells something, it is measured in the same run as a "random"
// sub-benchmark. The collection has WINNOW_BENCH_DOCS documents, or each
// benchmark's default (100,000 to 200,000); for example
//
//	WINNOW_BENCH_DOCS=1000000 go test ./dedup -run '^$' -bench StoreQuery -benchtime 20000x -timeout 2h
//
// Each reports, besides its time, the candidates checked per query.
//
// BenchmarkStoreQuery keeps its indexes in WINNOW_BENCH_INDEX, when set
// (a folder per sub-benchmark), and queries an index found there that
// holds the collection without adding it again (no add time is then
// reported): a collection of ten million takes 40 minutes to add, and
// may be queried with several settings. WINNOW_BENCH_CACHE sets the
// block cache (dedup.OpenOptions.CacheBytes, in MB).

// benchDocs is the collection size: WINNOW_BENCH_DOCS, else def.
func benchDocs(b *testing.B, def int) int {
	v := os.Getenv("WINNOW_BENCH_DOCS")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1000 {
		b.Fatalf("WINNOW_BENCH_DOCS=%q: want a number of documents, at least 1000", v)
	}
	return n
}

var (
	benchPoolOnce sync.Once
	benchPool     *dedupgen.Pool
	benchPoolErr  error
)

// benchGenerator is the generator of a collection of n documents (seed 1).
func benchGenerator(b *testing.B, n int) *dedupgen.Generator {
	b.Helper()
	dir := shareddata.Require(b)
	benchPoolOnce.Do(func() { benchPool, benchPoolErr = dedupgen.LoadPool(dir) })
	if benchPoolErr != nil {
		b.Fatal(benchPoolErr)
	}
	g, err := dedupgen.New(benchPool, dedupgen.Options{Docs: n, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// genDocs builds documents lo to hi-1 on every core.
func genDocs(g *dedupgen.Generator, lo, hi int) []dedupgen.Doc {
	docs := make([]dedupgen.Doc, hi-lo)
	parallel(len(docs), func(i int) { docs[i] = g.Doc(lo + i) })
	return docs
}

// parallel calls fn(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for s := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := s; i < n; i += w {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// latencies collects per-query times and candidate counts and reports
// their p50 and p99 (µs) and the mean and p99 of the candidates.
type latencies struct {
	times []time.Duration
	cands []int
}

func (l *latencies) add(d time.Duration, cands int) {
	l.times = append(l.times, d)
	l.cands = append(l.cands, cands)
}

func (l *latencies) report(b *testing.B, unit string) {
	n := len(l.times)
	if n == 0 {
		return
	}
	l.reportTimes(b, "")
	total := 0
	for _, c := range l.cands {
		total += c
	}
	slices.Sort(l.cands)
	b.ReportMetric(float64(total)/float64(n), unit+"/query")
	b.ReportMetric(float64(l.cands[n*99/100]), unit+"-p99")
}

// reportTimes reports the p50 and p99 of the times, their units
// prefixed.
func (l *latencies) reportTimes(b *testing.B, prefix string) {
	n := len(l.times)
	if n == 0 {
		return
	}
	slices.Sort(l.times)
	b.ReportMetric(float64(l.times[n/2].Nanoseconds())/1000, prefix+"p50-µs")
	b.ReportMetric(float64(l.times[n*99/100].Nanoseconds())/1000, prefix+"p99-µs")
}

// storeQuery is a query of a store benchmark: a held document (want is
// its URL), one with a word changed (want is the URL of the document it
// was made from) or an unrelated one (want is empty: any match is
// false). class names it.
type storeQuery struct {
	e     dedup.Entry
	want  string
	class string
}

// storeQueryClasses are the classes of BenchmarkStoreQuery's queries.
var storeQueryClasses = []string{"held", "changed", "unrelated"}

// changeOneWord replaces the first word of four letters or more after
// the middle of a text (a recrawl with one word changed), or the last
// word.
func changeOneWord(text string) string {
	w := strings.Fields(text)
	i := len(w) / 2
	for i < len(w)-1 && utf8.RuneCountInString(w[i]) < 4 {
		i++
	}
	w[i] = "changed"
	return strings.Join(w, " ")
}

// BenchmarkStoreQuery adds a generated collection (default 200,000
// documents) to a persistent store in batches of 10,000, compacts it,
// then times queries that cycle through three classes, signing
// included: a held document (it must find itself; queried by its text
// alone, so not through its URL: a MinHash store of key layout version 5
// or later finds it in the query's first band and answers from its kept
// near-duplicates, SimHash through its tables), a held document with one
// word changed (it must find the document; a MinHash store of version 7
// answers it from the document's kept near-duplicates and the bands in
// which the two differ) and an unrelated one of the generator's
// unrelated set (any match is a false duplicate). It reports the add
// time and disk bytes per document, the p50 and p99 query times of all
// and of each class, the held documents checked per query
// (dedup.QueryStats.Candidates), the share of held queries that missed
// themselves, of changed ones that found their document (a short one
// with a word changed may fall under the threshold) and of unrelated
// queries that matched. The
// "random" reference is a SimHash store of as many uniformly random
// fingerprints queried with held ones, 0-3 bits flipped: the setting of
// this benchmark before it used real text.
func BenchmarkStoreQuery(b *testing.B) {
	n := benchDocs(b, 200_000)
	g := benchGenerator(b, n)
	rng := rand.New(rand.NewPCG(3, 4))
	var queries []storeQuery
	for k := range 1000 {
		d := g.Doc(rng.IntN(n))
		queries = append(queries, storeQuery{dedup.Entry{Text: d.Text}, d.URL, "held"})
		c := g.Doc(rng.IntN(n))
		queries = append(queries, storeQuery{dedup.Entry{Text: changeOneWord(c.Text)}, c.URL, "changed"})
		u := g.Unrelated(k)
		queries = append(queries, storeQuery{dedup.Entry{Text: u.Text}, "", "unrelated"})
	}
	for _, opts := range []dedup.StoreOptions{{Method: dedup.MethodMinHash}, {Method: dedup.MethodSimHash}} {
		b.Run(opts.Method.String(), func(b *testing.B) {
			st, report := benchStore(b, &opts, n, func(lo, hi int) []dedup.Entry {
				docs := genDocs(g, lo, hi)
				es := make([]dedup.Entry, len(docs))
				for i, d := range docs {
					es[i] = dedup.Entry{URL: d.URL, Text: d.Text}
				}
				return es
			})
			var lat latencies
			byClass := map[string]*latencies{}
			for _, c := range storeQueryClasses {
				byClass[c] = &latencies{}
			}
			missed, falses, held, changed, found, unrelated := 0, 0, 0, 0, 0, 0
			i := 0
			for b.Loop() {
				q := queries[i%len(queries)]
				i++
				self, other := false, false
				start := time.Now()
				qs, err := st.QueryStats(q.e, func(m dedup.Match) {
					if m.URL == q.want {
						self = true
					} else {
						other = true
					}
				})
				took := time.Since(start)
				lat.add(took, qs.Candidates)
				byClass[q.class].add(took, qs.Candidates)
				if err != nil {
					b.Fatal(err)
				}
				switch q.class {
				case "held":
					held++
					if !self {
						missed++
					}
				case "changed":
					changed++
					if self {
						found++
					}
				default:
					unrelated++
					if other {
						falses++
					}
				}
			}
			report()
			lat.report(b, "candidates")
			for _, c := range storeQueryClasses {
				byClass[c].reportTimes(b, c+"-")
			}
			b.ReportMetric(float64(missed)/float64(max(1, held)), "missed")
			b.ReportMetric(float64(found)/float64(max(1, changed)), "changed-found")
			b.ReportMetric(float64(falses)/float64(max(1, unrelated)), "false-dups")
		})
	}
	b.Run("random", func(b *testing.B) {
		fps := make([]uint64, n)
		for i := range fps {
			fps[i] = rng.Uint64()
		}
		st, report := benchStore(b, &dedup.StoreOptions{Method: dedup.MethodSimHash}, n, func(lo, hi int) []dedup.Entry {
			es := make([]dedup.Entry, 0, hi-lo)
			for i := lo; i < hi; i++ {
				es = append(es, dedup.Entry{URL: fmt.Sprintf("https://e%d.example/page/%d", i%977, i), Fingerprint: fps[i], HasFingerprint: true})
			}
			return es
		})
		var lat latencies
		for b.Loop() {
			fp := fps[rng.IntN(n)]
			for range rng.IntN(4) {
				fp ^= 1 << rng.IntN(64)
			}
			start := time.Now()
			qs, err := st.QueryStats(dedup.Entry{Fingerprint: fp, HasFingerprint: true}, func(dedup.Match) {})
			lat.add(time.Since(start), qs.Candidates)
			if err != nil {
				b.Fatal(err)
			}
		}
		report()
		lat.report(b, "candidates")
	})
}

// benchStore adds n entries, made by batch(lo, hi), to a new store in
// batches of 10,000 and settles it; the returned report reports the add
// time (signing included, making the entries not) and the disk bytes per
// document (after the timed loop: b.Loop's start clears the metrics).
func benchStore(b *testing.B, opts *dedup.StoreOptions, n int, batch func(lo, hi int) []dedup.Entry) (st *dedup.Store, report func()) {
	b.Helper()
	var oo dedup.OpenOptions
	if v := os.Getenv("WINNOW_BENCH_CACHE"); v != "" {
		mb, err := strconv.Atoi(v)
		if err != nil || mb < 1 {
			b.Fatalf("WINNOW_BENCH_CACHE=%q: want a number of MB", v)
		}
		oo.CacheBytes = int64(mb) << 20
	}
	dir := b.TempDir()
	if keep := os.Getenv("WINNOW_BENCH_INDEX"); keep != "" {
		dir = filepath.Join(keep, strings.ReplaceAll(b.Name(), "/", "-"))
		if st, err := dedup.OpenExistingStoreWith(dir, opts, oo); err == nil {
			s, err := st.Stats()
			if err == nil && s.Documents == n {
				b.Cleanup(func() { st.Close() })
				b.Logf("%s: %d documents held, %d bytes on disk (%v); not added again", dir, n, s.DiskBytes, st.Options())
				return st, func() { b.ReportMetric(float64(s.DiskBytes)/float64(n), "disk-B/doc") }
			}
			st.Close()
			b.Fatalf("%s holds %d documents, not %d (%v): remove it", dir, s.Documents, n, err)
		}
	}
	st, err := dedup.OpenStoreWith(dir, opts, oo)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	var took time.Duration
	for lo := 0; lo < n; lo += 10_000 {
		es := batch(lo, min(n, lo+10_000))
		start := time.Now()
		if _, err := st.AddBatch(es); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
	}
	if err := st.Settle(); err != nil {
		b.Fatal(err)
	}
	s, err := st.Stats()
	if err != nil {
		b.Fatal(err)
	}
	if s.Documents != n {
		b.Fatalf("%d documents held, want %d", s.Documents, n)
	}
	b.Logf("%d documents added in %v, %d bytes on disk (%v)", n, took.Round(time.Millisecond), s.DiskBytes, st.Options())
	return st, func() {
		b.ReportMetric(float64(took.Microseconds())/float64(n), "add-µs/doc")
		b.ReportMetric(float64(s.DiskBytes)/float64(n), "disk-B/doc")
	}
}

// BenchmarkIndexQuery queries the in-memory SimHash index (the tables
// PlanProbeLayout plans for DefaultK and the collection's size, as
// winnow dedup's) of the fingerprints (3-word shingles, as winnow
// dedup's SimHash) of a generated
// collection (default 200,000 documents) with those of held and
// unrelated documents. It reports the p50 and p99 query times, the table
// entries examined per query, the held fingerprints within k bits per
// query, and the tables' bytes per fingerprint. The "random" reference
// queries an index of as many uniformly random fingerprints with held
// ones, 0-3 bits flipped.
func BenchmarkIndexQuery(b *testing.B) {
	n := benchDocs(b, 200_000)
	g := benchGenerator(b, n)
	norm, err := dedup.NewNormalizer(dedup.Options{Shingles: []int{3}})
	if err != nil {
		b.Fatal(err)
	}
	fingerprint := func(text string) uint64 {
		fp, _ := norm.Fingerprint(text)
		return fp
	}
	layout, err := dedup.PlanProbeLayout(dedup.DefaultK, n, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d documents, %v", n, layout)
	rng := rand.New(rand.NewPCG(5, 6))

	real := make([]uint64, n)
	for lo := 0; lo < n; lo += 10_000 {
		docs := genDocs(g, lo, min(n, lo+10_000))
		parallel(len(docs), func(i int) { real[lo+i] = fingerprint(docs[i].Text) })
	}
	var realQ []uint64
	for k := range 1000 {
		realQ = append(realQ, real[rng.IntN(n)], fingerprint(g.Unrelated(k).Text))
	}
	random := make([]uint64, n)
	for i := range random {
		random[i] = rng.Uint64()
	}
	var randomQ []uint64
	for range 2000 {
		q := random[rng.IntN(n)]
		for range rng.IntN(4) {
			q ^= 1 << rng.IntN(64)
		}
		randomQ = append(randomQ, q)
	}
	for _, c := range []struct {
		name     string
		fps, qs  []uint64
		unrelate bool
	}{{"real", real, realQ, true}, {"random", random, randomQ, false}} {
		b.Run(c.name, func(b *testing.B) {
			ix := dedup.NewIndex(c.fps, layout)
			var lat latencies
			near, i := 0, 0
			for b.Loop() {
				q := c.qs[i%len(c.qs)]
				i++
				start := time.Now()
				examined := ix.Query(q, func(int, int) { near++ })
				lat.add(time.Since(start), examined)
			}
			if near == 0 {
				b.Fatal("no query found a held fingerprint")
			}
			lat.report(b, "examined")
			b.ReportMetric(float64(near)/float64(len(lat.times)), "near/query")
			b.ReportMetric(float64(layout.IndexBytes(len(c.fps)))/float64(len(c.fps)), "bytes/fp")
		})
	}
}

// BenchmarkCluster clusters a generated collection (default 100,000
// documents; Cluster holds every document's shingles, about 6 KB each)
// with MinHash and with SimHash (DefaultK) at threshold 0.8, as winnow
// dedup does: 3-word shingles verified and fingerprinted. One op is one run. It reports the candidate pairs checked
// per document, the duplicates found, the recall of the planted pairs at
// an exact Jaccard of 0.8 or more (dedupgen.Compare: both in one
// cluster) and the duplicates put in a cluster with no document of their
// family (false).
func BenchmarkCluster(b *testing.B) {
	n := benchDocs(b, 100_000)
	g := benchGenerator(b, n)
	norm, err := dedup.NewNormalizer(dedup.Options{Shingles: []int{3}})
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]dedup.Doc, n)
	family := make([]int, n)
	texts := map[int]string{} // family members' texts, for the gold
	var mu sync.Mutex
	for lo := 0; lo < n; lo += 10_000 {
		gd := genDocs(g, lo, min(n, lo+10_000))
		parallel(len(gd), func(i int) {
			d := gd[i]
			doc := dedup.Doc{URL: d.URL, TextLen: len(d.Text), Features: norm.Features(d.Text)}
			doc.Fingerprint, doc.HasFingerprint = norm.Fingerprint(d.Text)
			docs[lo+i], family[lo+i] = doc, d.Family
			if d.Family >= 0 {
				mu.Lock()
				texts[lo+i] = d.Text
				mu.Unlock()
			}
		})
	}
	members := map[int][]int{}
	for i, f := range family {
		if f >= 0 {
			members[f] = append(members[f], i)
		}
	}
	var gold [][2]int
	for _, m := range members {
		for x := range m {
			for y := x + 1; y < len(m); y++ {
				if dedupgen.Compare(texts[m[x]], texts[m[y]]).Jaccard() >= 0.8 {
					gold = append(gold, [2]int{m[x], m[y]})
				}
			}
		}
	}
	texts = nil
	b.Logf("%d documents, %d planted pairs at Jaccard >= 0.8", n, len(gold))
	for _, m := range []dedup.Method{dedup.MethodMinHash, dedup.MethodSimHash} {
		b.Run(m.String(), func(b *testing.B) {
			var res *dedup.Result
			for b.Loop() {
				if res, err = dedup.Cluster(docs, dedup.Config{Method: m, Threshold: 0.8}); err != nil {
					b.Fatal(err)
				}
			}
			found := 0
			for _, p := range gold {
				if res.ClusterID[p[0]] == res.ClusterID[p[1]] {
					found++
				}
			}
			falses := 0
			for i, c := range res.Centre {
				if c != i && (family[i] < 0 || family[i] != family[c]) {
					falses++
				}
			}
			b.ReportMetric(float64(res.Candidates)/float64(n), "candidates/doc")
			b.ReportMetric(float64(res.Duplicates), "duplicates")
			b.ReportMetric(float64(found)/float64(max(1, len(gold))), "recall")
			b.ReportMetric(float64(falses), "false")
		})
	}
}
