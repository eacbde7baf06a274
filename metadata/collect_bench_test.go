package metadata

import (
	"bytes"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"golang.org/x/net/html"
)

// BenchmarkCollectorScrapinghub is the collector's walk alone over the
// 181 Scrapinghub pages' trees, parsed before the timer starts: its
// share of the metadata stage's cost without extraction's noise around
// it. One op is the whole set.
func BenchmarkCollectorScrapinghub(b *testing.B) {
	pages, _, err := shareddata.Pages(shareddata.Require(b), "scrapinghub")
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]*html.Node, len(pages))
	for i, p := range pages {
		if docs[i], err = html.Parse(bytes.NewReader(p)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			NewCollector().Walk(d)
		}
	}
}
