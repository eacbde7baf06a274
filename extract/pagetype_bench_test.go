package extract

import (
	"testing"
	"time"
)

// BenchmarkClassifyType measures ClassifyType alone on the 181 parsed
// Scrapinghub pages (one op is the whole set).
func BenchmarkClassifyType(b *testing.B) {
	raw, _ := loadBenchPages(b, "scrapinghub")
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

// BenchmarkClassifyTypeShare times ClassifyType inside extraction, page
// by page as pipeline runs it (right after Parse, before the labelling
// stages), and reports its time as a share of the rest of Extract's:
// measured in the same loop, the share holds when the machine is busy.
func BenchmarkClassifyTypeShare(b *testing.B) {
	pages, _ := loadBenchPages(b, "scrapinghub")
	var classify, rest time.Duration
	for b.Loop() {
		for _, raw := range pages {
			t0 := time.Now()
			p, err := Parse(raw, Options{})
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			tg := ClassifyType(p)
			t2 := time.Now()
			p.Type, p.TypeEvidence = tg.Type, tg.Evidence
			Classify(p)
			_ = p.Text()
			t3 := time.Now()
			classify += t2.Sub(t1)
			rest += t1.Sub(t0) + t3.Sub(t2)
		}
	}
	b.ReportMetric(100*classify.Seconds()/rest.Seconds(), "%-of-extract")
	b.ReportMetric(float64(classify.Microseconds())/float64(b.N*len(pages)), "µs/page")
}
