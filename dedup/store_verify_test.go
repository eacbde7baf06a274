package dedup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// goldTexts reads the gold texts of the shared extraction sets named, in
// file order, keeping those of at least minWords words.
func goldTexts(t *testing.T, minWords int, sets ...string) []string {
	t.Helper()
	var out []string
	for _, set := range sets {
		files, err := filepath.Glob(filepath.Join(shareddata.Require(t), "extract", set, "gold", "*.txt"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no gold texts in %s: %v", set, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(strings.Fields(string(b))) >= minWords {
				out = append(out, string(b))
			}
		}
	}
	return out
}

// TestStoreSimHashVerifies: a SimHash store verifies each candidate on
// the texts' sketches. On real texts (the gold texts of daniel-ru and
// wcxb-dev-even) with a loose k, many unrelated held texts are within k
// bits of a query: none of them is reported, while edited copies of held
// texts are, verified, with their estimated Jaccard.
func TestStoreSimHashVerifies(t *testing.T) {
	texts := goldTexts(t, 150, "daniel-ru", "wcxb-dev-even")
	if len(texts) < 400 {
		t.Fatalf("only %d texts", len(texts))
	}
	held, queries := texts[:len(texts)/2], texts[len(texts)/2:]
	const k = 8
	st, err := OpenStore(filepath.Join(t.TempDir(), "idx"), &StoreOptions{Method: MethodSimHash, K: k})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.AddBatch(textEntries(held, 0)); err != nil {
		t.Fatal(err)
	}
	norm, _ := NewNormalizer(Options{Shingles: storeSimShingles})
	shingles, _ := NewNormalizer(Options{})
	heldFP := make([]uint64, len(held))
	for i, h := range held {
		heldFP[i], _ = norm.Fingerprint(h)
	}
	near, reported := 0, 0
	for _, q := range queries {
		fp, _ := norm.Fingerprint(q)
		for _, h := range heldFP {
			if Distance(fp, h) <= k {
				near++
			}
		}
		if err := st.Query(Entry{Text: q}, func(m Match) {
			reported++
			t.Errorf("an unrelated text matched %s at distance %d, similarity %.2f", m.URL, m.Distance, m.Similarity)
		}); err != nil {
			t.Fatal(err)
		}
	}
	if near < 10 {
		t.Fatalf("only %d unrelated pairs within %d bits: the test shows nothing", near, k)
	}
	t.Logf("%d unrelated pairs within %d bits, %d reported", near, k, reported)

	// Copies: the held text with its last tenth cut. Those within k bits
	// (the tables' reach) are all found, verified, with an estimate near
	// their exact Jaccard; the tables' prefixes need not end on a byte
	// (k=8: 7 leading bits).
	within, found := 0, 0
	for i, h := range held[:100] {
		w := strings.Fields(h)
		cp := strings.Join(w[:len(w)*9/10], " ")
		exact := Jaccard(shingles.Features(cp), shingles.Features(h))
		a, _ := norm.Fingerprint(cp)
		if Distance(a, heldFP[i]) > k {
			continue
		}
		within++
		want := fmt.Sprintf("https://m.example/%d", i)
		if err := st.Query(Entry{Text: cp}, func(m Match) {
			if m.URL == want && m.Verified && m.Similarity >= 0.8 && m.Similarity > exact-0.1 && m.Similarity < exact+0.1 {
				found++
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	if within < 80 || found != within {
		t.Errorf("%d of the %d copies within %d bits found, verified", found, within, k)
	}
}

// TestStoreReplacedWhileQueried: a SimHash store (verifying, and one of
// fingerprints alone) and a signature store answer queries while the
// documents they find are replaced and deleted: each query reads its
// lookup keys and the records they point at on one view, so a document
// gone meanwhile is found whole or not at all, and the query never fails
// (a record read apart from the keys was "not found"). Run with -race.
func TestStoreReplacedWhileQueried(t *testing.T) {
	texts := goldTexts(t, 150, "wcxb-dev-even")
	es := heldFamilies(texts[:min(40, len(texts))])
	for _, c := range []struct {
		name string
		opts StoreOptions
		fp   bool // query by fingerprint alone: nothing to verify on
	}{
		{"simhash", StoreOptions{Method: MethodSimHash, K: 3, Threshold: 0.8}, false},
		{"simhash-fingerprints", StoreOptions{Method: MethodSimHash, K: 3, Threshold: 0.8}, true},
		{"md5", StoreOptions{Method: MethodMD5}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := OpenStore(filepath.Join(t.TempDir(), "idx"), &c.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			es := es
			if c.fp {
				fps := make([]Entry, len(es))
				for i, e := range es {
					fp, _ := st.kind.(*simKind).norm.Fingerprint(e.Text)
					fps[i] = fpEntry(e.URL, fp)
				}
				es = fps
			}
			if _, err := st.AddBatch(es); err != nil {
				t.Fatal(err)
			}
			var stop atomic.Bool
			done := make(chan error, 1)
			go func() {
				// Each URL replaced by itself (a new id, the old record
				// deleted), deleted and added again, round after round.
				done <- func() error {
					for range 5 {
						for _, e := range es {
							if stop.Load() {
								return nil
							}
							if _, err := st.AddBatch([]Entry{e}); err != nil {
								return err
							}
							if _, err := st.Delete(e.URL); err != nil {
								return err
							}
							if _, err := st.AddBatch([]Entry{e}); err != nil {
								return err
							}
						}
					}
					return nil
				}()
			}()
			var failed error
			for round := 0; failed == nil && round < 5; round++ {
				for _, q := range es {
					err := st.Query(Entry{Text: q.Text, Fingerprint: q.Fingerprint, HasFingerprint: q.HasFingerprint}, func(m Match) {
						if m.URL == "" {
							t.Errorf("%s found %+v", q.URL, m)
						}
					})
					if err != nil {
						failed = fmt.Errorf("query of %s: %w", q.URL, err)
						break
					}
				}
			}
			stop.Store(failed != nil)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if failed != nil {
				t.Fatal(failed)
			}
		})
	}
}
