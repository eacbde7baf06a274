package dedup

import (
	"os"
	"path/filepath"
	"testing"

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
