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
