package extract

import "golang.org/x/net/html"

// A Visitor follows the walk that cuts a page's tree into blocks, so that
// a later stage reads the whole tree without walking it a second time
// (package metadata's collector is one: see Options.Visitor). It sees
// every node of the tree once, in document order:
//
//   - Enter on an element, before its subtree; false means the visitor
//     wants nothing of that subtree, and gets no call for it, not even
//     the element's Leave;
//   - Leave on an element, after its subtree;
//   - Text on a text node that holds more than ASCII white space (a
//     space, tab, newline, carriage return or form feed): the blank
//     nodes between tags, most of a page's text nodes, say nothing;
//   - Walk on an element whose subtree the segmenter does not read
//     (scripts, the head, hidden elements, <br> and <img>): the visitor
//     walks it itself, as Enter, Text and Leave would have shown it.
//
// Comments, doctypes and the document node itself give no call.
type Visitor interface {
	Enter(n *html.Node) bool
	Leave(n *html.Node)
	Text(n *html.Node)
	Walk(n *html.Node)
}

// visit is the segmenter's side of a Visitor: nil when there is none,
// and it holds back the calls below an element the visitor declined.
type visit struct {
	v   Visitor
	off *html.Node // the element whose subtree the visitor declined, nil when none
}

func newVisit(v Visitor) *visit {
	if v == nil {
		return nil
	}
	return &visit{v: v}
}

func (w *visit) enter(n *html.Node) {
	if w == nil || w.off != nil {
		return
	}
	if !w.v.Enter(n) {
		w.off = n
	}
}

func (w *visit) leave(n *html.Node) {
	switch {
	case w == nil:
	case w.off == n:
		w.off = nil
	case w.off == nil:
		w.v.Leave(n)
	}
}

func (w *visit) text(n *html.Node) {
	if w != nil && w.off == nil {
		w.v.Text(n)
	}
}

func (w *visit) walk(n *html.Node) {
	if w != nil && w.off == nil {
		w.v.Walk(n)
	}
}

// Visited is the Visitor that followed the page's tree as Parse cut it
// into blocks (Options.Visitor); nil when there was none, or when the tree
// has changed since: a fallback read another tree (noscript, unhidden
// wrappers) or Remove took elements out.
func (p *Page) Visited() Visitor { return p.visitor }
