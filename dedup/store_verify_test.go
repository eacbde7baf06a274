package dedup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
