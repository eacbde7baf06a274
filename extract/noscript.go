package extract

import (
	"bytes"

	"github.com/winnow-go/winnow/internal/ascii"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// WarnNoscript is the warning of a page whose text was read from its
// <noscript> copies.
const WarnNoscript = "noscript: the page has almost no text outside <noscript>; its <noscript> copies were read"

// noscriptFallback reads the <noscript> markup of a page whose visible
// tree has almost no text: visible words, fewer than unhideMaxWords
// (a forum's top bar, "esk8 calc donate now"). A parser that runs
// scripts (as browsers do, and as x/net/html does by default) keeps a
// <noscript> element's content as raw text; some sites (Discourse
// forums, pages rendered by script) serve their whole content there for
// crawlers. Parsed as a browser without scripts would, that content
// becomes elements and blocks. The page keeps its first tree unless the
// second has more text: twice the visible words and unhideMaxWords more,
// so that a "please enable JavaScript" note does not replace a short
// page.
func noscriptFallback(p *Page, text []byte, visible int) {
	if ascii.IndexFold(text, "<noscript") < 0 {
		return
	}
	doc, err := html.ParseWithOptions(bytes.NewReader(text), html.ParseOptionEnableScripting(false))
	if err != nil {
		return
	}
	unwrapNoscript(doc)
	blocks, names := segment(doc)
	if all, _ := (&Page{Blocks: blocks}).Words(); all == 0 || visible > 0 && all < 2*visible+unhideMaxWords {
		return
	}
	p.Doc, p.Blocks, p.names, p.visitor = doc, blocks, names, nil
	p.Warnings = append(p.Warnings, WarnNoscript)
}

// unwrapNoscript puts the children of every <noscript> element in its
// place, so that the segmenter, which skips <noscript>, reads them.
func unwrapNoscript(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && c.DataAtom == atom.Noscript {
			for gc := c.FirstChild; gc != nil; {
				gnext := gc.NextSibling
				c.RemoveChild(gc)
				n.InsertBefore(gc, c)
				unwrapNoscript(gc)
				gc = gnext
			}
			n.RemoveChild(c)
		} else {
			unwrapNoscript(c)
		}
		c = next
	}
}
