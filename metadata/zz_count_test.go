package metadata

import (
	"bytes"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"golang.org/x/net/html"
)

func TestZZCount(t *testing.T) {
	pages, _, _ := shareddata.Pages(shareddata.Require(t), "scrapinghub")
	el, at, tx, cv, cvb := 0, 0, 0, 0, 0
	for _, p := range pages {
		d, _ := html.Parse(bytes.NewReader(p))
		for n := range d.Descendants() {
			if n.Type == html.ElementNode {
				el++
				at += len(n.Attr)
				for _, a := range n.Attr {
					if a.Key == "class" || a.Key == "id" || a.Key == "rel" {
						cv++
						cvb += len(a.Val)
					}
				}
			} else if n.Type == html.TextNode {
				tx++
			}
		}
	}
	t.Log(el, at, tx, cv, cvb)
}
