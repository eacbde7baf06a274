package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// minRecords is the number of alike siblings from which a parent's
// children are taken for records of a repeated structure.
const minRecords = 3

// maxRecordBlocks is the most blocks a record holds: a card is a
// headline, a summary, a date, a price and a few buttons, not a page
// section (old sites lay whole pages out as rows of tables, each with
// links).
const maxRecordBlocks = 12

// recordItems finds the records of the page's repeated structures, as
// record mining does (MDR: Liu, Grossman and Zhai, KDD 2003; DEPTA: Zhai
// and Liu, WWW 2005): under one parent, at least minRecords sibling
// elements alike in shape (the same tag and class, or without a class
// the same tags two levels down; see shape), each holding text and a
// link and at most maxRecordBlocks blocks. A
// listing's cards, a shop's grid of items and a table's rows are
// records; an article's paragraphs are not (they hold no link each), nor
// its single body. It returns a test of whether a node lies in a record.
func (c *classifier) recordItems() func(*html.Node) bool {
	type group struct {
		parent *html.Node
		shape  string
	}
	linked := linkedElements(c.page.Doc)
	shapes := map[*html.Node]group{}
	count := map[group]int{}
	for n, sp := range c.span {
		if n.Type != html.ElementNode || n.Parent == nil || inlineAtom(n.DataAtom) || !linked[n] || sp[1]-sp[0] >= maxRecordBlocks {
			continue
		}
		g := group{n.Parent, shape(n)}
		shapes[n] = g
		count[g]++
	}
	in := make(map[*html.Node]bool, len(shapes))
	for n, g := range shapes {
		if count[g] >= minRecords {
			in[n] = true
		}
	}
	return underAny(func(n *html.Node) bool { return in[n] })
}

// shape is what alike siblings share: the tag and class, or without a
// class the tag and the tags of the elements two levels below it, but
// for text formatting (a row of links and a row of a paragraph are not
// alike).
func shape(n *html.Node) string {
	var b strings.Builder
	b.WriteString(n.Data)
	b.WriteByte('.')
	if cl := attr(n, "class"); cl != "" {
		b.WriteString(cl)
		return b.String()
	}
	var walk func(*html.Node, int)
	walk = func(m *html.Node, depth int) {
		for ch := m.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != html.ElementNode || formatting(ch.DataAtom) {
				continue
			}
			b.WriteByte('/')
			b.WriteString(ch.Data)
			if depth < 2 {
				b.WriteByte('(')
				walk(ch, depth+1)
				b.WriteByte(')')
			}
		}
	}
	walk(n, 1)
	return b.String()
}

// formatting reports whether a is an element of text formatting.
func formatting(a atom.Atom) bool {
	switch a {
	case atom.B, atom.I, atom.Em, atom.Strong, atom.Span, atom.Br, atom.Font, atom.Small, atom.U, atom.S, atom.Sup, atom.Sub, atom.Wbr:
		return true
	}
	return false
}

// linkedElements is the set of elements that hold an <a href> (the
// link's ancestors).
func linkedElements(doc *html.Node) map[*html.Node]bool {
	linked := map[*html.Node]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != html.ElementNode {
				continue
			}
			if ch.DataAtom == atom.A && hasAttr(ch, "href") {
				for a := ch.Parent; a != nil && !linked[a]; a = a.Parent {
					linked[a] = true
				}
			}
			walk(ch)
		}
	}
	walk(doc)
	return linked
}

// inlineAtom reports whether a is a phrasing element: runs of links or
// spans inside one line are no records.
func inlineAtom(a atom.Atom) bool {
	switch a {
	case atom.A, atom.Span, atom.B, atom.I, atom.Em, atom.Strong, atom.Small, atom.Img, atom.Br, atom.Svg, atom.Time, atom.Label, atom.Abbr, atom.Code, atom.Sup, atom.Sub, atom.U, atom.S:
		return true
	}
	return false
}
