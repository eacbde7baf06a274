package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestWidgetBuilder: on a page built of widgets (a page builder names
// every module so) the article inside a "widget" module is kept; on a page
// with a few sidebar widgets, those widgets still go.
func TestWidgetBuilder(t *testing.T) {
	story := strings.Repeat("The harbour opened its new pier on Saturday, and hundreds of people walked its length before noon. ", 5)
	modules := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `<div class="widget-span widget-type-cell"><div class="hs_wrapper_widget"><span>Module %d</span></div></div>`, i)
		}
		return b.String()
	}
	for _, c := range []struct {
		name, page string
		want, gone string
	}{
		// The story is cut into three modules, none of them most of the
		// page's text: no single name can be overruled by its weight.
		{"builder", `<html><body>` + modules(12) + `<div class="main"><div class="widget-span widget-type-rich_text"><h1>Pier opens</h1><p>` + story + `</p></div><div class="widget-span widget-type-rich_text"><p>` + story + `</p></div><div class="widget-span widget-type-rich_text"><p>` + story + `</p></div></div></body></html>`, "hundreds of people", ""},
		{"sidebar", `<html><body><article><h1>Pier opens</h1><p>` + story + `</p></article><aside><div class="widget"><p>Subscribe to our newsletter for weekly news from the valley and the coast.</p></div></aside></body></html>`, "hundreds of people", "Subscribe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Extract([]byte(c.page), Options{})
			if err != nil {
				t.Fatal(err)
			}
			text := p.Text()
			if !strings.Contains(text, c.want) || c.gone != "" && strings.Contains(text, c.gone) {
				t.Errorf("text %q", text)
			}
		})
	}
}
