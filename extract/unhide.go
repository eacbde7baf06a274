package extract

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/internal/ascii"
)

// WarnUnhidden is the warning of a page whose text was all inside
// elements hidden until scripts run, and was read there.
const WarnUnhidden = "hidden: the page shows no text without scripts; the hidden wrappers holding most of its text were read"

// unhideFallback reads a page whose visible tree has (almost) no text
// because the text sits in a wrapper hidden until scripts run: an
// anti-flicker `visibility:hidden` on the whole page, a `<div hidden>`
// that a script reveals, an aria-hidden root. A hidden element that
// holds more than half of the page's text is such a wrapper, never a
// menu, a dialog or a tab, which hold a part of it: its hiding is
// removed, and inside it the same test is made again, so that the
// menus and dialogs it holds stay hidden. The page is segmented again
// when a wrapper was found.
func unhideFallback(p *Page) {
	if all, _ := p.Words(); all >= unhideMaxWords {
		return
	}
	total := textBytes(p.Doc, false)
	if total == 0 || !unhideWrappers(p.Doc, total) {
		return
	}
	p.Blocks, p.names = segment(p.Doc)
	p.visitor = nil
	p.Warnings = append(p.Warnings, WarnUnhidden)
}

// unhideMaxWords: a page with this many visible words or more keeps its
// hidden elements hidden.
const unhideMaxWords = 20

// unhideWrappers removes the hiding of the hidden elements under n that
// hold more than half of total text bytes, outermost first; it reports
// whether it removed any.
func unhideWrappers(n *html.Node, total int) bool {
	found := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || skipped(c.DataAtom) {
			continue
		}
		if hidden(c) {
			if 2*textBytes(c, false) <= total {
				continue
			}
			unhide(c)
			found = true
		}
		if unhideWrappers(c, total) {
			found = true
		}
	}
	return found
}

// textBytes counts the bytes of the trimmed text under n, outside the
// elements the segmenter skips, and, with visibleOnly, outside hidden
// ones.
func textBytes(n *html.Node, visibleOnly bool) int {
	if n.Type == html.TextNode {
		return len(strings.TrimSpace(n.Data))
	}
	if n.Type == html.ElementNode && (skipped(n.DataAtom) || visibleOnly && hidden(n)) {
		return 0
	}
	sum := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		sum += textBytes(c, visibleOnly)
	}
	return sum
}

// unhide takes from n what hides it: the hidden attribute, aria-hidden,
// and an inline display:none or visibility:hidden.
func unhide(n *html.Node) {
	attrs := n.Attr[:0]
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden", "aria-hidden":
			continue
		case "style":
			if ascii.StyleHides(a.Val) {
				a.Val = "" // its other declarations say nothing to the segmenter
			}
		}
		attrs = append(attrs, a)
	}
	n.Attr = attrs
}
