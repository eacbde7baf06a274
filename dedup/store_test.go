package dedup

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
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
	st, err := OpenStore(dir, k)
	if err != nil {
		t.Fatal(err)
	}
	for i, fp := range fps {
		d, err := st.Add(fmt.Sprintf("https://e.example/%d", i), fp)
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
			err := st.Query(fps[q], func(d StoredDoc, dist int) {
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
	if _, err := OpenStore(dir, 4); !errors.Is(err, ErrStore) {
		t.Errorf("reopened with another k: %v", err)
	}
	st, err = OpenStore(dir, k)
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
	st.Query(fps[0], func(d StoredDoc, _ int) {
		if d.ID == 0 {
			t.Error("a deleted document was found")
		}
	})
	d, err := st.Add("https://e.example/5", fps[5]^1)
	if err != nil || d.ID != uint64(len(fps)) {
		t.Fatalf("replace: %v %v", d, err)
	}
	n := 0
	st.Query(fps[5], func(d StoredDoc, _ int) {
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
	st, err := OpenStore(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 300 {
			if _, err := st.Add(fmt.Sprintf("u%d", i), uint64(i)*0x9e3779b97f4a7c15); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 300 {
			fp := uint64(i) * 0x9e3779b97f4a7c15
			if err := st.Query(fp, func(d StoredDoc, _ int) {
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
	const n = 1_000_000
	st, err := OpenStore(b.TempDir(), 3)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	fps := make([]uint64, n)
	for lo := 0; lo < n; lo += 10_000 {
		batch := make([]StoredDoc, 0, 10_000)
		for i := lo; i < lo+10_000; i++ {
			fps[i] = rng.Uint64()
			batch = append(batch, StoredDoc{URL: fmt.Sprintf("https://e%d.example/page/%d", i%977, i), Fingerprint: fps[i]})
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
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		found := false
		st.Query(fps[rng.IntN(n)], func(StoredDoc, int) { found = true })
		times = append(times, time.Since(start))
		if !found {
			b.Fatal("a stored fingerprint was not found")
		}
	}
	b.ReportMetric(float64(s.DiskBytes)/n, "disk-B/doc")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
}
