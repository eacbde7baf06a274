package langid

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// benchTexts reads the first 4 kB of each gold text of a shared set.
func benchTexts(tb testing.TB, set string) []string {
	tb.Helper()
	data := shareddata.Require(tb)
	files, err := filepath.Glob(filepath.Join(data, "extract", set, "gold", "*.txt"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no gold texts in %s: %v", set, err)
	}
	var texts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		texts = append(texts, string(b[:min(len(b), 4<<10)]))
	}
	return texts
}

// BenchmarkIdentify measures Identify on the first 4 kB of the gold texts
// of wcxb-dev-even (English) and daniel-ru, by the number and length of
// the pieces lingua reads. The models are loaded before the timer starts.
func BenchmarkIdentify(b *testing.B) {
	for _, set := range []string{"wcxb-dev-even", "daniel-ru"} {
		texts := benchTexts(b, set)
		for _, o := range []Options{{MaxChunks: 1, ChunkRunes: 50}, {MaxChunks: 1, ChunkRunes: 100}, {MaxChunks: 2, ChunkRunes: 100}, {MaxChunks: 3, ChunkRunes: 100}} {
			id, err := New(o)
			if err != nil {
				b.Fatal(err)
			}
			for _, t := range texts {
				id.Identify(t)
			}
			b.Run(fmt.Sprintf("%s/%dx%d", set, o.MaxChunks, o.ChunkRunes), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, t := range texts {
						id.Identify(t)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/text")
			})
		}
	}
}
