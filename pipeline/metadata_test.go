package pipeline

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/metadata"
	"github.com/winnow-go/winnow/xpathrules"
)

// TestMetadataCollectorSameAsWalk: on the Scrapinghub pages, the metadata
// the stage reads from the collector that followed the segmenter's walk
// is what a walk of the labelled page's tree of its own gives, and
// reading it again gives the same.
func TestMetadataCollectorSameAsWalk(t *testing.T) {
	pages, _, err := shareddata.Pages(shareddata.Require(t), "scrapinghub")
	if err != nil {
		t.Fatal(err)
	}
	st := Stages{NoLangID: true, Metadata: metadata.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	dated := 0
	for i, body := range pages {
		p, _, err := st.Page(context.Background(), Input{Body: body}, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if p.Visited() == nil {
			t.Fatalf("page %d: no collector followed the walk", i)
		}
		first := p.Meta
		st.readMetadata(p, xpathrules.Outcome{})
		if !reflect.DeepEqual(first, p.Meta) {
			t.Errorf("page %d: a second read differs:\n%+v\n%+v", i, first, p.Meta)
		}
		walked := metadata.Read(p.Doc, metadata.Input{URL: p.URL, Text: openingText(p), PageType: string(p.Type)}, st.Metadata)
		if !reflect.DeepEqual(first, walked) {
			t.Errorf("page %d: from the collector\n%+v\nfrom a walk\n%+v", i, first, walked)
		}
		if first.Published != "" {
			dated++
		}
	}
	if dated < len(pages)/2 {
		t.Errorf("%d of %d pages dated: the comparison saw too little", dated, len(pages))
	}
}
