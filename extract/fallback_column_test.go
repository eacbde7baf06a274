package extract

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestColumnFallback: a page whose dense region is a hero heading over a
// column of items citing other sites' stories keeps the column rather
// than nothing, even when taken for an article (whose content model keeps
// no column), and leaves its chrome out; the same column whose headlines
// link to the site's own stories is a news front and stays out.
func TestColumnFallback(t *testing.T) {
	const item = `<section class="page-section"><div class="container"><h4>%s</h4><p>At the local level, %d pupils received tutoring sessions over the past year, which amounts to many minutes of support for reading. – County Times</p><p><a class="button" href="%s">Read more</a></p></div></section>`
	nav := `<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/programs">Programs</a> <a href="/news">In the news</a> <a href="/contact">Contact</a></nav></header>`
	for _, c := range []struct {
		name   string
		head   func(i int) string // an item's headline
		link   func(i int) string // its "Read more" link
		column bool
	}{
		{"citations", func(i int) string {
			return fmt.Sprintf("Tutoring program %d helps pupils read better in the county schools", i)
		},
			func(i int) string { return fmt.Sprintf("https://news.example.org/stories/tutoring-%d,28119%d", i, i) }, true},
		{"own stories", func(i int) string {
			return fmt.Sprintf(`<a href="/news/2013/04/tutoring-%d">Tutoring program %d helps pupils read better in the county schools</a>`, i, i)
		}, func(i int) string { return fmt.Sprintf("/news/2013/04/tutoring-%d", i) }, false},
	} {
		var items strings.Builder
		for i := range 6 {
			fmt.Fprintf(&items, item, c.head(i), 100+i, c.link(i))
		}
		page := `<html><head><title>In the news</title></head><body>` + nav + `<main><article><header><div class="hero"><h1>We are changing the world, one pupil at a time.</h1></div></header><div><section class="page-section"><h1>Our programs in the news</h1></section>` +
			items.String() + `</div></article></main><footer><p>© 2025 Reading programs</p></footer></body></html>`
		opts := Options{URL: &url.URL{Scheme: "https", Host: "www.reading.example.org", Path: "/about/in-the-news/"}}
		text := classifyAs(t, page, opts, TypeArticle, 0).Text()
		for _, want := range []string{"At the local level, 103 pupils", "Tutoring program 5 helps"} {
			if strings.Contains(text, want) != c.column {
				t.Errorf("%s: %q in the text is %v, want %v; text %q", c.name, want, !c.column, c.column, text)
			}
		}
		if strings.Contains(text, "Contact") {
			t.Errorf("%s: page chrome kept: %q", c.name, text)
		}
	}
}
