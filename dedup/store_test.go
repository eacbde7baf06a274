package dedup

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
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

// fpEntry is an entry with a given SimHash.
func fpEntry(url string, fp uint64) Entry {
	return Entry{URL: url, Fingerprint: fp, HasFingerprint: true}
}
