package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHeadInfo: og:title wins over <title> wherever the page puts it, and
// the walk that looks for them stops at the body once the head gave one.
func TestHeadInfo(t *testing.T) {
	for _, c := range []struct{ name, page, title, lang string }{
		{"title", `<html lang="de"><head><title>Der  Titel</title></head><body><p>x</p></body></html>`, "Der Titel", "de"},
		{"og in head", `<html><head><title>Site title</title><meta property="og:title" content="Story"></head><body><meta property="og:title" content="Other"></body></html>`, "Story", ""},
		{"og in body", `<html><head><title>Site title</title></head><body><p>x</p><meta property="og:title" content="Story"></body></html>`, "Story", ""},
		{"title in body", `<html><body><title>Late title</title><p>x</p></body></html>`, "Late title", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader(c.page))
			if err != nil {
				t.Fatal(err)
			}
			if title, lang := headInfo(doc); title != c.title || lang != c.lang {
				t.Errorf("headInfo = %q, %q; want %q, %q", title, lang, c.title, c.lang)
			}
		})
	}
}
