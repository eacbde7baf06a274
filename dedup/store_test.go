package dedup

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStoreMatchesIndex: the persistent store answers every query as the
// in-memory Index does on the same fingerprints, before and after it is
// reopened; a deleted URL is gone; a replaced URL keeps one entry.
func TestStoreMatchesIndex(t *testing.T) {
	dir := t.TempDir()
	const k = 3
	rng := rand.New(rand.NewPCG(1, 2))
	var fps []uint64
	for i := range 3000 {
		fp := rng.Uint64()
		if i%3 == 1 { // a near copy of the previous one
			fp = fps[i-1] ^ 1<<rng.IntN(64) ^ 1<<rng.IntN(64)
		}
		fps = append(fps, fp)
	}
	st, err := OpenStore(dir, &StoreOptions{K: k})
	if err != nil {
		t.Fatal(err)
	}
	for i, fp := range fps {
		d, err := st.Add(fpEntry(fmt.Sprintf("https://e.example/%d", i), fp))
		if err != nil || d.ID != uint64(i) {
			t.Fatalf("add %d: %v %v", i, d, err)
		}
	}
	layout, _ := PlanLayout(k, len(fps), 0)
	ix := NewIndex(fps, layout)
	check := func(st *Store) {
		t.Helper()
		for q := 0; q < len(fps); q += 7 {
			want := map[uint64]int{}
			ix.Query(fps[q], func(id, dist int) { want[uint64(id)] = dist })
			got := map[uint64]int{}
			err := st.Query(fpEntry("", fps[q]), func(m Match) {
				d, dist := m.StoredDoc, m.Distance
				got[d.ID] = dist
				if d.URL != fmt.Sprintf("https://e.example/%d", d.ID) || d.Fingerprint != fps[d.ID] {
					t.Errorf("document %v", d)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("query %d: store %v, index %v", q, got, want)
			}
		}
	}
	check(st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir, &StoreOptions{K: 4}); !errors.Is(err, ErrStore) {
		t.Errorf("reopened with another k: %v", err)
	}
	st, err = OpenStore(dir, &StoreOptions{K: k})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check(st)
	if ok, err := st.Delete("https://e.example/0"); !ok || err != nil {
		t.Fatalf("delete: %v %v", ok, err)
	}
	if ok, _ := st.Delete("https://e.example/0"); ok {
		t.Error("deleted twice")
	}
	st.Query(fpEntry("", fps[0]), func(m Match) {
		d := m.StoredDoc
		if d.ID == 0 {
			t.Error("a deleted document was found")
		}
	})
	d, err := st.Add(fpEntry("https://e.example/5", fps[5]^1))
	if err != nil || d.ID != uint64(len(fps)) {
		t.Fatalf("replace: %v %v", d, err)
	}
	n := 0
	st.Query(fpEntry("", fps[5]), func(m Match) {
		d := m.StoredDoc
		if d.URL == "https://e.example/5" {
			n++
		}
	})
	if n != 1 {
		t.Errorf("a replaced URL is found %d times", n)
	}
	s, err := st.Stats()
	if err != nil || s.Documents != len(fps)-1 {
		t.Errorf("stats %+v %v", s, err)
	}
}

// TestStoreConcurrent: queries while documents are added see whole
// documents only (run with -race).
func TestStoreConcurrent(t *testing.T) {
	st, err := OpenStore(t.TempDir(), &StoreOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 300 {
			if _, err := st.Add(fpEntry(fmt.Sprintf("u%d", i), uint64(i)*0x9e3779b97f4a7c15)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 300 {
			fp := uint64(i) * 0x9e3779b97f4a7c15
			if err := st.Query(fpEntry("", fp), func(m Match) {
				d := m.StoredDoc
				if d.Fingerprint != fp || d.URL != fmt.Sprintf("u%d", i) {
					t.Errorf("query %d found %v", i, d)
				}
			}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
}

// BenchmarkStoreQuery: 1,000,000 fingerprints added in batches of 10,000,
// then k=3 queries of stored fingerprints; reports the disk bytes per
// document and the p50 and p99 query times.
func BenchmarkStoreQuery(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	fps := make([]uint64, 1_000_000)
	benchStore(b, &StoreOptions{K: 3}, len(fps), func(i int) Entry {
		fps[i] = rng.Uint64()
		return fpEntry(benchURL(i), fps[i])
	}, func() Entry { return fpEntry("", fps[rng.IntN(len(fps))]) })
}

// BenchmarkStoreQueryMinHash: 200,000 texts of 60 words drawn from a
// 50,000-word vocabulary added to a MinHash store (threshold 0.8), then
// queries of stored texts with one word changed (signing included).
func BenchmarkStoreQueryMinHash(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	texts := make([]string, 200_000)
	benchStore(b, &StoreOptions{Method: MethodMinHash}, len(texts), func(i int) Entry {
		var sb strings.Builder
		for range 60 {
			fmt.Fprintf(&sb, "w%d ", rng.IntN(50_000))
		}
		texts[i] = sb.String()
		return Entry{URL: benchURL(i), Text: texts[i]}
	}, func() Entry {
		w := strings.Fields(texts[rng.IntN(len(texts))])
		w[rng.IntN(len(w))] = "changed"
		return Entry{Text: strings.Join(w, " ")}
	})
}

func benchURL(i int) string { return fmt.Sprintf("https://e%d.example/page/%d", i%977, i) }

// benchStore adds n entries to a new store in batches of 10,000 and
// compacts it, then times one query per iteration; it reports the disk
// bytes per document, the p50 and p99 query times and the share of
// queries that found nothing.
func benchStore(b *testing.B, opts *StoreOptions, n int, entry func(int) Entry, query func() Entry) {
	st, err := OpenStore(b.TempDir(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for lo := 0; lo < n; lo += 10_000 {
		batch := make([]Entry, 0, 10_000)
		for i := lo; i < min(n, lo+10_000); i++ {
			batch = append(batch, entry(i))
		}
		if _, err := st.AddBatch(batch); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.db.Flush(); err != nil {
		b.Fatal(err)
	}
	st.db.Compact(context.Background(), []byte("a"), []byte("z"), true)
	s, _ := st.Stats()
	times := make([]time.Duration, 0, b.N)
	missed := 0
	b.ResetTimer()
	for b.Loop() {
		q := query()
		start := time.Now()
		found := false
		st.Query(q, func(Match) { found = true })
		times = append(times, time.Since(start))
		if !found {
			missed++
		}
	}
	b.ReportMetric(float64(s.DiskBytes)/float64(n), "disk-B/doc")
	b.ReportMetric(float64(missed)/float64(len(times)), "missed")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
}

// fpEntry is an entry with a given SimHash.
func fpEntry(url string, fp uint64) Entry {
	return Entry{URL: url, Fingerprint: fp, HasFingerprint: true}
}
