package extract

import "testing"

// BenchmarkScrapinghubPageType is BenchmarkScrapinghub's Extract with
// ClassifyType added, as pipeline runs it: compare the two ns/op for the
// classifier's cost.
func BenchmarkScrapinghubPageType(b *testing.B) {
	pages, total := loadBenchPages(b)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			pg, err := Extract(p, Options{})
			if err != nil {
				b.Fatal(err)
			}
			pg.Type = ClassifyType(pg).Type
			if pg.Text() == "" {
				b.Fatal("empty text")
			}
		}
	}
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkClassifyType measures ClassifyType alone on the 181 parsed
// Scrapinghub pages (one op is the whole set).
func BenchmarkClassifyType(b *testing.B) {
	raw, _ := loadBenchPages(b)
	var pages []*Page
	for _, r := range raw {
		p, err := Parse(r, Options{})
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			ClassifyType(p)
		}
	}
}
