package extract

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func loadBenchPages(b *testing.B, set string) ([][]byte, int) {
	b.Helper()
	pages, total, err := shareddata.Pages(shareddata.Require(b), set)
	if err != nil {
		b.Fatal(err)
	}
	return pages, total
}

// BenchmarkScrapinghub measures, over the 181 Scrapinghub pages, bare
// html.Parse and full extraction (decode, parse, segment, classify, text)
// in the same run. One op is the whole set; compare the two ns/op for the
// overhead ratio.
func BenchmarkScrapinghub(b *testing.B) { benchmarkSet(b, "scrapinghub") }

// BenchmarkWCXB is BenchmarkScrapinghub over wcxb-dev-even's 672 pages
// of seven types (some of its pages have no text: an empty text is no
// failure there).
func BenchmarkWCXB(b *testing.B) { benchmarkSet(b, "wcxb-dev-even") }

func benchmarkSet(b *testing.B, set string) {
	pages, total := loadBenchPages(b, set)
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
				if pg.Text() == "" && set == "scrapinghub" {
					b.Fatal("empty text")
				}
			}
		}
		b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	})
}
