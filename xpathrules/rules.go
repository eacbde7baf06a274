// Package xpathrules applies per-site rules (seed 000: "for a cluster of
// pages a person sets XPaths that remove boilerplate or extract the
// content"): a rule matches pages by host and URL path and names, with
// XPath or CSS selectors evaluated on extract's parsed tree, the content
// (firm: later stages do not undo it), blocks that are always dropped,
// and the title. A rule that no longer fits its site (its content selector
// matches nothing, or far less text than usual) is reported broken and the
// page falls back to the other stages.
package xpathrules

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/extract"
)

// Stage is the name rules vote under in a block's reasons.
const Stage = extract.StageRules

// Rule is one site's rule.
type Rule struct {
	Name  string // from the file: its name field, or file:line
	File  string
	Line  int
	Hosts []string // "example.com" matches it and www.example.com; ".example.com" every subdomain too
	Path  string   // optional: a path prefix, or a pattern with * (path.Match per segment run)

	Content []Selector
	Drop    []Selector
	Title   []Selector
	// TestURLs are example pages of the site (FiveFilters test_url).
	TestURLs []string
	// TypicalWords is the usual word count of the content (written by
	// rules suggest); the content is broken when far below it.
	TypicalWords int
}

// finder finds a selector's elements in a tree: Selector.Find, or, while
// rules are suggested, a memo of what it found.
type finder func(Selector, *html.Node) ([]*html.Node, error)

// Selector is one XPath or CSS selector.
type Selector struct {
	Src string // as written, "css:" prefix included
	xp  *xpath.Expr
	css cascadia.Sel
}

// String returns the selector as written.
func (s Selector) String() string { return s.Src }

// ParseSelector compiles a selector: XPath when it starts with "/", "(" or
// "./" (or "xpath:"), CSS when it starts with "css:" or is anything else.
func ParseSelector(src string) (Selector, error) {
	s := Selector{Src: src}
	expr := strings.TrimSpace(src)
	switch {
	case strings.HasPrefix(expr, "xpath:"):
		expr = strings.TrimSpace(strings.TrimPrefix(expr, "xpath:"))
	case strings.HasPrefix(expr, "css:"):
		return compileCSS(s, strings.TrimSpace(strings.TrimPrefix(expr, "css:")))
	case !strings.HasPrefix(expr, "/") && !strings.HasPrefix(expr, "(") && !strings.HasPrefix(expr, "./"):
		return compileCSS(s, expr)
	}
	if expr == "" {
		return s, fmt.Errorf("empty XPath")
	}
	xp, err := compileXPath(expr)
	if err != nil {
		return s, fmt.Errorf("XPath %q: %v", expr, err)
	}
	s.xp = xp
	return s, nil
}

// compileXPath compiles an expression; the compiler panics on some
// malformed input, which becomes an error.
func compileXPath(expr string) (xp *xpath.Expr, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return xpath.Compile(expr)
}

func compileCSS(s Selector, expr string) (Selector, error) {
	if expr == "" {
		return s, fmt.Errorf("empty CSS selector")
	}
	sel, err := cascadia.Parse(expr)
	if err != nil {
		return s, fmt.Errorf("CSS %q: %v", expr, err)
	}
	s.css = sel
	return s, nil
}

// Find returns the elements the selector matches under root, in document
// order. An XPath that selects something other than elements (text,
// attributes) gives their elements.
func (s Selector) Find(root *html.Node) (nodes []*html.Node, err error) {
	if s.css != nil {
		return cascadia.QueryAll(root, s.css), nil
	}
	if s.xp == nil {
		return nil, fmt.Errorf("xpathrules: selector %q is not compiled", s.Src)
	}
	defer func() {
		if r := recover(); r != nil {
			nodes, err = nil, fmt.Errorf("xpathrules: %s: %v", s.Src, r)
		}
	}()
	for _, n := range htmlquery.QuerySelectorAll(root, s.xp) {
		for n != nil && n.Type != html.ElementNode {
			n = n.Parent
		}
		if n != nil && (len(nodes) == 0 || nodes[len(nodes)-1] != n) {
			nodes = append(nodes, n)
		}
	}
	return nodes, nil
}

// Matches reports whether the rule is for this URL.
func (r *Rule) Matches(u *url.URL) bool {
	if u == nil {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	ok := false
	for _, h := range r.Hosts {
		if hostMatches(h, host) {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	return r.Path == "" || pathMatches(r.Path, u.EscapedPath())
}

// hostMatches: "example.com" is example.com and www.example.com;
// ".example.com" or "*.example.com" is example.com and every subdomain.
func hostMatches(pattern, host string) bool {
	pattern = strings.ToLower(pattern)
	if rest, ok := strings.CutPrefix(pattern, "*"); ok {
		pattern = rest
	}
	if base, ok := strings.CutPrefix(pattern, "."); ok {
		return host == base || strings.HasSuffix(host, "."+base)
	}
	return host == pattern || host == "www."+pattern || "www."+host == pattern
}

// pathMatches: a pattern without * is a prefix; with *, path.Match on
// the whole path, where a trailing "/*" also matches deeper paths.
func pathMatches(pattern, p string) bool {
	if !strings.Contains(pattern, "*") {
		return strings.HasPrefix(p, pattern)
	}
	if ok, _ := path.Match(pattern, p); ok {
		return true
	}
	if prefix, ok := strings.CutSuffix(pattern, "/*"); ok {
		segs := strings.Count(prefix, "/") + 1
		parts := strings.SplitAfterN(p, "/", segs+1)
		if len(parts) > segs {
			head := strings.TrimSuffix(strings.Join(parts[:segs], ""), "/")
			ok, _ := path.Match(prefix, head)
			return ok
		}
	}
	return false
}

// Set is the rules of a folder or file, in load order.
type Set struct {
	Rules []*Rule
}

// Match returns the rule for a URL: the first, in load order, of the rules
// with the longest Path among those that match. nil when none does.
func (s *Set) Match(u *url.URL) *Rule {
	if s == nil {
		return nil
	}
	var best *Rule
	for _, r := range s.Rules {
		if r.Matches(u) && (best == nil || len(r.Path) > len(best.Path)) {
			best = r
		}
	}
	return best
}

// Statuses of a page's rule.
const (
	StatusOK     = "ok"
	StatusBroken = "broken"
)

// Outcome is what a rule did to a page.
type Outcome struct {
	Rule         *Rule
	Status       string // StatusOK, StatusBroken; "" when no rule applied
	Reason       string // why a rule is broken
	ContentWords int    // words of the content the rule selected
	Dropped      int    // words the drop selectors removed
	Title        string // the headline the rule's title selectors found
}

// brokenShare: content below this share of the rule's typical word count
// is broken ("far shorter than it usually is on that site").
const brokenShare = 0.25

// selection is what a rule's selectors pick on a page, computed without
// changing it.
type selection struct {
	drop    []*html.Node            // the drop selectors' elements, outermost only
	left    map[*extract.Block]int  // words each block keeps once the drops are out
	inside  map[*extract.Block]bool // blocks inside the content
	words   int                     // words kept inside the content
	matched int                     // content elements
	err     error
}

func (r *Rule) selectBlocks(p *extract.Page, find finder) selection {
	var s selection
	dropped, err := r.elements(p.Doc, r.Drop, find)
	if err != nil {
		s.err = err
		return s
	}
	for n := range dropped {
		if n.Parent == nil || !within(n.Parent, dropped) {
			s.drop = append(s.drop, n)
		}
	}
	s.left = keptWords(p, s.drop, dropped)
	if len(r.Content) == 0 {
		return s
	}
	content, err := r.content(p.Doc, find)
	if err != nil {
		s.err = err
		return s
	}
	s.matched = len(content)
	s.inside = map[*extract.Block]bool{}
	for _, b := range p.Blocks {
		if within(b.Node, content) && s.left[b] > 0 {
			s.inside[b] = true
			s.words += s.left[b]
		}
	}
	return s
}

// keptWords is the words of each block once the dropped elements are out
// of the tree: none for a block inside one, and for a block that holds one
// (a byline span, a hidden link), its words less theirs.
func keptWords(p *extract.Page, drop []*html.Node, dropped map[*html.Node]bool) map[*extract.Block]int {
	left := make(map[*extract.Block]int, len(p.Blocks))
	byNode := blocksByNode(p)
	for _, b := range p.Blocks {
		left[b] = b.Words
		if within(b.Node, dropped) {
			left[b] = 0
		}
	}
	for _, d := range drop {
		text := ownText(d, byNode)
		owner := ownerBlock(d, text, byNode)
		if owner == nil || left[owner] == 0 {
			continue
		}
		left[owner] = max(0, left[owner]-extract.CountWords(text))
	}
	return left
}

// blocksByNode lists the blocks of each block element: an element whose
// inline text is cut by block children has several.
func blocksByNode(p *extract.Page) map[*html.Node][]*extract.Block {
	m := make(map[*html.Node][]*extract.Block, len(p.Blocks))
	for _, b := range p.Blocks {
		m[b.Node] = append(m[b.Node], b)
	}
	return m
}

// ownerBlock is the block an inline element's text belongs to: among the
// blocks of its nearest block element, the one whose text holds it.
func ownerBlock(n *html.Node, text string, byNode map[*html.Node][]*extract.Block) *extract.Block {
	for a := n.Parent; a != nil; a = a.Parent {
		bs := byNode[a]
		if len(bs) == 0 {
			continue
		}
		t := strings.Join(strings.Fields(text), " ")
		for _, b := range bs {
			if t != "" && strings.Contains(strings.Join(strings.Fields(b.Text), " "), t) {
				return b
			}
		}
		return bs[0]
	}
	return nil
}

// ownText is the text under n that belongs to n's enclosing block, not to
// blocks of its own, scripts or styles.
func ownText(n *html.Node, blocks map[*html.Node][]*extract.Block) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				sb.WriteString(c.Data)
				sb.WriteByte(' ')
			case c.Type == html.ElementNode && blocks[c] == nil && c.Data != "script" && c.Data != "style":
				walk(c)
			}
		}
	}
	walk(n)
	return sb.String()
}

// ContentWords is the number of words of the content the rule selects on
// a page (drops left out); -1 when the rule has no content selector or it
// selects nothing. It labels nothing: a batch run takes the median over
// its sampled pages as the site's usual figure.
func (r *Rule) ContentWords(p *extract.Page) int {
	s := r.selectBlocks(p, Selector.Find)
	if s.err != nil || s.inside == nil || s.matched == 0 {
		return -1
	}
	return s.words
}

// Apply runs the rule on a parsed page whose blocks are not yet labelled.
// A rule whose content is broken on the page changes nothing. Otherwise
// the drop selectors' elements leave the tree (Page.Remove: the blocks
// are cut again, so a drop reaches inside a block), and the blocks inside
// the elements of the first content selector that matches become content
// and every other block boilerplate (firm). typical is the rule's usual content word count on this site (0
// when unknown; the rule's TypicalWords is used then). A title selector
// that matches sets the page's title.
func (r *Rule) Apply(p *extract.Page, typical int) Outcome {
	out := Outcome{Rule: r, Status: StatusOK}
	if typical <= 0 {
		typical = r.TypicalWords
	}
	s := r.selectBlocks(p, Selector.Find)
	if s.err != nil {
		return r.broken(out, s.err.Error())
	}
	if s.inside != nil {
		// A content rule that does not fit the page changes nothing:
		// its drops were written for the layout it no longer has.
		out.ContentWords = s.words
		switch {
		case s.matched == 0:
			return r.broken(out, "content matched nothing")
		case s.words == 0:
			return r.broken(out, fmt.Sprintf("content matched %d elements with no text", s.matched))
		case typical > 0 && float64(s.words) < brokenShare*float64(typical):
			return r.broken(out, fmt.Sprintf("content has %d words, usually %d", s.words, typical))
		}
	}
	if len(s.drop) > 0 {
		out.Dropped = p.Remove(s.drop, Stage)
		if s = r.selectBlocks(p, Selector.Find); s.err != nil {
			return r.broken(out, s.err.Error())
		}
	}
	if t := r.title(p.Doc); t != "" {
		p.Title, out.Title = t, t
	}
	if s.inside == nil {
		return out
	}
	for _, b := range p.Blocks {
		if b.Firm {
			continue
		}
		b.Firm = true
		if s.inside[b] {
			b.Label = extract.Content
			b.Vote(Stage, "content", 1)
		} else {
			b.Label = extract.Boilerplate
			b.Vote(Stage, "outside-content", -1)
		}
	}
	return out
}

// Typical is the median of content word counts (ContentWords values; the
// negative ones are left out), 0 for none.
func Typical(words []int) int {
	var w []int
	for _, x := range words {
		if x >= 0 {
			w = append(w, x)
		}
	}
	if len(w) == 0 {
		return 0
	}
	slices.Sort(w)
	return w[len(w)/2]
}

func (r *Rule) broken(out Outcome, reason string) Outcome {
	out.Status, out.Reason = StatusBroken, reason
	return out
}

// elements is the set of elements any of the selectors matches.
func (r *Rule) elements(doc *html.Node, sels []Selector, find finder) (map[*html.Node]bool, error) {
	set := map[*html.Node]bool{}
	for _, s := range sels {
		nodes, err := find(s, doc)
		if err != nil {
			return nil, err
		}
		for _, n := range nodes {
			set[n] = true
		}
	}
	return set, nil
}

// content is the elements of the first content selector that matches an
// element with text: several selectors are alternatives, as for a site
// that serves an old and a new layout (XPath's | gives a union).
func (r *Rule) content(doc *html.Node, find finder) (map[*html.Node]bool, error) {
	for _, s := range r.Content {
		nodes, err := find(s, doc)
		if err != nil {
			return nil, err
		}
		for _, n := range nodes {
			if strings.TrimSpace(htmlquery.InnerText(n)) != "" {
				set := make(map[*html.Node]bool, len(nodes))
				for _, n := range nodes {
					set[n] = true
				}
				return set, nil
			}
		}
	}
	return nil, nil
}

// title is the text of the first title selector that matches.
func (r *Rule) title(doc *html.Node) string {
	for _, s := range r.Title {
		nodes, err := s.Find(doc)
		if err != nil || len(nodes) == 0 {
			continue
		}
		if t := strings.Join(strings.Fields(htmlquery.InnerText(nodes[0])), " "); t != "" {
			return t
		}
	}
	return ""
}

// within reports whether n or one of its ancestors is in set.
func within(n *html.Node, set map[*html.Node]bool) bool {
	if len(set) == 0 {
		return false
	}
	for ; n != nil; n = n.Parent {
		if set[n] {
			return true
		}
	}
	return false
}
