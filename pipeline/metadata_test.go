package pipeline

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/winnow-go/winnow/extract"
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

// TestFetchTimeBoundsDates refuses a date after the page was fetched, with
// a warning: a page of a 2019 crawl read years later cannot have been
// published in 2025. Without a fetch time the run's own time bounds the
// dates.
func TestFetchTimeBoundsDates(t *testing.T) {
	page := []byte(`<html><head><script type="application/ld+json">{"@type":"NewsArticle","headline":"Goats on the hill",` +
		`"datePublished":"2025-03-04"}</script></head><body><article><h1>Goats on the hill</h1>` +
		`<p>The goats came down from the hill this morning, and the village watched them eat every flower in the square.</p>` +
		`</article></body></html>`)
	refused := func(p *extract.Page) bool {
		return slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "2025-03-04") })
	}
	var s Stages
	fetched := time.Date(2019, 5, 13, 8, 0, 0, 0, time.UTC)
	p, _, err := s.Page(context.Background(), Input{Body: page, FetchedAt: fetched}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Published != "" || !refused(p) {
		t.Errorf("fetched %s: published %q, warnings %q; want none and a warning for 2025-03-04", fetched, p.Meta.Published, p.Warnings)
	}
	if p, _, err = s.Page(context.Background(), Input{Body: page}, nil, ""); err != nil {
		t.Fatal(err)
	}
	if p.Meta.Published != "2025-03-04" || refused(p) {
		t.Errorf("no fetch time: published %q, warnings %q; want 2025-03-04 and no warning", p.Meta.Published, p.Warnings)
	}
	// A fetch time before the web is the input's fault: warned of, and
	// the time of the run bounds the dates.
	if p, _, err = s.Page(context.Background(), Input{Body: page, FetchedAt: time.Unix(0, 0)}, nil, ""); err != nil {
		t.Fatal(err)
	}
	warned := slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "fetch time 1970-01-01T00:00:00Z before 1995") })
	if p.Meta.Published != "2025-03-04" || refused(p) || !warned {
		t.Errorf("fetched 1970: published %q, warnings %q; want 2025-03-04 and a warning for the fetch time", p.Meta.Published, p.Warnings)
	}
}

// TestFetchTimeReadsRelativeDates: a byline's "3 hours ago" is read
// against the page's fetch time, and not without one.
func TestFetchTimeReadsRelativeDates(t *testing.T) {
	page := []byte(`<html><head><title>Goats on the hill</title></head><body><article><h1>Goats on the hill</h1>` +
		`<div class="byline">By Ann Lee <span class="date">3 hours ago</span></div>` +
		`<p>The goats came down from the hill this morning, and the village watched them eat every flower in the square.</p>` +
		`</article></body></html>`)
	var s Stages
	p, _, err := s.Page(context.Background(), Input{Body: page, FetchedAt: time.Date(2019, 5, 13, 1, 0, 0, 0, time.UTC)}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Meta.Published != "2019-05-12" {
		t.Errorf("fetched 2019-05-13T01:00Z: published %q, want 2019-05-12", p.Meta.Published)
	}
	if p, _, err = s.Page(context.Background(), Input{Body: page}, nil, ""); err != nil {
		t.Fatal(err)
	}
	if p.Meta.Published != "" {
		t.Errorf("no fetch time: published %q, want none", p.Meta.Published)
	}
}

// TestClosingTextCredit: the stage gives the metadata reader the end of
// the page's main text, where a Chinese news item credits its writers,
// and not a footer's bracket after it.
func TestClosingTextCredit(t *testing.T) {
	para := `<p>本周六，北京一座占地二十多公顷的新公园正式对外开放。公园内种植了数千棵树木，并建设了多个儿童游乐场和成人运动场地，附近的居民纷纷前来参观游览，对公园的设计表示满意。</p>`
	page := `<html><head><meta charset="utf-8"><title>北京新公园开放</title></head><body>` +
		`<div class="nav"><a href="/">首页</a> <a href="/news/">新闻</a></div><article><h1>北京新公园开放</h1>` +
		strings.Repeat(para, 4) + `<p>公园管理处表示，今后将定期举办文化活动。（常书香 马丹阳）</p></article>` +
		`<div class="footer"><p>版权所有（北京大学）</p></div></body></html>`
	st := Stages{NoLangID: true}
	p, _, err := st.Page(context.Background(), Input{URL: "https://news.example.cn/society/2022/01/20/c_1128283745.html", Body: []byte(page)}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := closingText(p); !strings.HasSuffix(got, "（常书香 马丹阳）") {
		t.Errorf("closing text %q", got)
	}
	if !slices.Equal(p.Meta.Authors, []string{"常书香", "马丹阳"}) {
		t.Errorf("authors %q (type %s, %+v)", p.Meta.Authors, p.Type, p.Meta)
	}
}
