package extract

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func loadBenchPages(b *testing.B) ([][]byte, int) {
	b.Helper()
	pages, total, err := shareddata.Pages(shareddata.Require(b), "scrapinghub")
	if err != nil {
		b.Fatal(err)
	}
	return pages, total
}

// BenchmarkScrapinghub measures, over the 181 Scrapinghub pages, bare
// html.Parse and full extraction (decode, parse, segment, classify, text)
// in the same run. One op is the whole set; compare the two ns/op for the
// overhead ratio.
func BenchmarkScrapinghub(b *testing.B) {
	pages, total := loadBenchPages(b)
	b.Run("html.Parse", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range pages {
				if _, err := html.Parse(bytes.NewReader(p)); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	})
	b.Run("Extract", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range pages {
				pg, err := Extract(p, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if pg.Text() == "" {
					b.Fatal("empty text")
				}
			}
		}
		b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	})
}
