package extract

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/net/html"
)

// recorder is a Visitor that logs what it is shown and declines the
// elements marked data-decline.
type recorder struct{ log []string }

func (r *recorder) Enter(n *html.Node) bool {
	r.log = append(r.log, "<"+n.Data)
	return !hasAttr(n, "data-decline")
}

func (r *recorder) Leave(n *html.Node) { r.log = append(r.log, ">"+n.Data) }

func (r *recorder) Text(n *html.Node) { r.log = append(r.log, fmt.Sprintf("%q", n.Data)) }

func (r *recorder) Walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		r.Text(n)
		return
	case html.ElementNode:
		if !r.Enter(n) {
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		r.Walk(c)
	}
	if n.Type == html.ElementNode {
		r.Leave(n)
	}
}

// TestVisitorFollowsWalk: a Visitor fed by the segmenter sees the same
// nodes, in the same order, as one that walks the tree itself: the head,
// scripts, hidden elements, <br> and <img> (which the segmenter does not
// read) included, and nothing below an element it declined; the blank
// text nodes the segmenter reads are not shown (Visitor).
func TestVisitorFollowsWalk(t *testing.T) {
	page := `<!doctype html><html lang="en"><head><title>T</title>
<meta name="author" content="A"><script type="application/ld+json">{"@type":"Article"}</script></head>
<body><!-- a comment --><div class="top"><h1>Head<br>line</h1><img src="x.png" alt="x">
<div hidden><span>hidden text</span></div>
<section data-decline><p>declined <b>bold</b></p><div>more</div></section>
<p>kept <a href="/a">link</a> text</p><noscript><p>no script</p></noscript>
<svg><text>drawn</text></svg><title>late title</title></div>
<div data-decline>last</div></body></html>`
	fed := &recorder{}
	p, err := Parse([]byte(page), Options{Visitor: fed})
	if err != nil {
		t.Fatal(err)
	}
	if p.Visited() != fed {
		t.Fatalf("Visited() = %v, want the visitor", p.Visited())
	}
	self := &recorder{}
	self.Walk(p.Doc)
	// The blank text nodes the segmenter reads (those of the body here)
	// are not shown; those of a subtree the visitor walks itself (the
	// head's "\n") are.
	head := slices.Index(self.log, ">head")
	var body []string
	for i, e := range self.log {
		if i < head || e != `"\n"` {
			body = append(body, e)
		}
	}
	if len(self.log)-len(body) < 5 {
		t.Fatalf("the body has %d blank text nodes, want several: %v", len(self.log)-len(body), self.log)
	}
	self.log = body
	if !slices.Equal(fed.log, self.log) {
		t.Errorf("fed by the segmenter:\n%v\nwalking itself:\n%v", fed.log, self.log)
	}
	for _, want := range []string{`"hidden text"`, `"T"`, "<script", "<img", "<br"} {
		if !slices.Contains(fed.log, want) {
			t.Errorf("the visitor did not see %s: %v", want, fed.log)
		}
	}
	if slices.Contains(fed.log, `"declined "`) || slices.Contains(fed.log, `"last"`) {
		t.Errorf("the visitor saw a declined subtree: %v", fed.log)
	}
}

// TestVisitedAfterRemove: once Remove changes the tree, the visitor no
// longer describes it.
func TestVisitedAfterRemove(t *testing.T) {
	p, err := Parse([]byte(`<html><body><p id="a">one two three</p><p>four five</p></body></html>`), Options{Visitor: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Visited() == nil {
		t.Fatal("no visitor after Parse")
	}
	var first *html.Node
	for _, b := range p.Blocks {
		first = b.Node
		break
	}
	p.Remove([]*html.Node{first}, "rules")
	if p.Visited() != nil {
		t.Error("Visited() is still set after Remove changed the tree")
	}
	q, err := Parse([]byte(`<p>x</p>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if q.Visited() != nil {
		t.Error("Visited() is set on a page parsed without a visitor")
	}
}
