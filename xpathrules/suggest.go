package xpathrules

import (
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/par"
)

// Suggestion is a rule found from a site's pages, with how well it agrees
// with the labels it was learned from.
type Suggestion struct {
	Rule  *Rule
	Pages int     // training pages
	F1    float64 // word F1 of the rule's content against the labels, over the pages
	// Matched is the number of training pages on which the content
	// selectors match.
	Matched int
}

// maxAlternatives bounds the content selectors of a suggested rule.
const maxAlternatives = 3

// Suggest finds a rule for one site (host) from its pages, whose blocks
// the template and density stages have labelled: the element that holds
// the content blocks on most pages, named robustly (an id or a stable
// class, never a position), chosen by the word F1 of what it selects
// against the labels over all pages; alternatives for pages it misses;
// then drop selectors for named elements inside it that hold only
// boilerplate on the pages, kept when they raise the F1. It returns nil
// when no selector matches content on any page.
func Suggest(host string, all []*extract.Page) *Suggestion {
	pages := spread(all, maxSearchPages)
	var pool []string
	seen := map[string]int{}
	for _, p := range pages {
		for _, e := range topElements(p, 8) {
			for _, d := range describe(e) {
				if seen[d] == 0 {
					pool = append(pool, d)
				}
				seen[d]++
			}
		}
	}
	// The descriptors seen on most pages are tried.
	sort.SliceStable(pool, func(i, j int) bool { return seen[pool[i]] > seen[pool[j]] })
	pool = pool[:min(len(pool), 60)]
	cands := make([]Selector, 0, len(pool))
	for _, src := range pool {
		if s, err := ParseSelector(src); err == nil {
			cands = append(cands, s)
		}
	}
	memo := newFindMemo()
	find := memo.find
	r := &Rule{Name: host, Hosts: []string{host}}
	left := slices.Clone(pages)
	for alt := range maxAlternatives {
		type ranked struct {
			sel Selector
			sc  score
		}
		// Candidates are scored on the cores, each into its own slot, so
		// the ranking does not depend on their timing.
		scores := make([]score, len(cands))
		par.Each(len(cands), runtime.GOMAXPROCS(0), func(i int) {
			if !slices.ContainsFunc(r.Content, func(s Selector) bool { return s.Src == cands[i].Src }) {
				scores[i] = scoreRule(&Rule{Content: []Selector{cands[i]}}, left, find)
			}
		})
		var rs []ranked
		for i, c := range cands {
			if scores[i].matched > 0 {
				rs = append(rs, ranked{c, scores[i]})
			}
		}
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].sc.better(rs[j].sc, rs[i].sel.Src, rs[j].sel.Src) })
		// An alternative must hold on two pages at least: one page of
		// another layout is too little to learn it from.
		if len(rs) == 0 || rs[0].sc.f1() < 0.5 || rs[0].sc.matched < 2 {
			break
		}
		chosen := rs[0].sel
		if alt == 0 {
			// The main selector: the few best on their own are each
			// widened and given their drops, and the best result wins
			// (an article body with its share bar dropped beats its
			// paragraphs alone, which lose its lists).
			var best *Rule
			var bestScore score
			for _, c := range rs[:min(5, len(rs))] {
				try := &Rule{Content: []Selector{widen(c.sel, left, find)}}
				addDrops(try, left, find)
				if sc := scoreRule(try, left, find); best == nil || sc.better(bestScore, try.Content[0].Src, best.Content[0].Src) {
					best, bestScore = try, sc
				}
			}
			r.Content, r.Drop = best.Content, best.Drop
		} else {
			r.Content = append(r.Content, widen(chosen, left, find))
		}
		var rest []*extract.Page
		for _, p := range left {
			if nodes, _ := r.Content[len(r.Content)-1].Find(p.Doc); len(nodes) == 0 {
				rest = append(rest, p)
			}
		}
		if len(rest) == 0 || len(rest)*10 < len(pages) {
			break
		}
		left = rest
	}
	if len(r.Content) == 0 {
		return nil
	}
	addDrops(r, pages, find)
	sc := scoreRule(r, all, find)
	var words []int
	for _, p := range all {
		words = append(words, r.ContentWords(p))
	}
	r.TypicalWords = Typical(words)
	return &Suggestion{Rule: r, Pages: len(all), F1: sc.f1(), Matched: sc.matched}
}

// maxSearchPages bounds the pages the selector search scores candidates
// on; the rule's F1 and typical length come from all pages.
const maxSearchPages = 40

// spread picks at most n pages, evenly spaced, in order.
func spread(pages []*extract.Page, n int) []*extract.Page {
	if len(pages) <= n {
		return pages
	}
	out := make([]*extract.Page, n)
	for i := range out {
		out[i] = pages[i*len(pages)/n]
	}
	return out
}

// maxUnion bounds the parts of a widened content selector.
const maxUnion = 4

// widen adds to a content selector, as XPath unions, the elements that
// hold content blocks it leaves out on the pages (a headline above the
// article body, a product's title above its description), each kept when
// it raises the F1 by at least 0.002.
func widen(sel Selector, pages []*extract.Page, find finder) Selector {
	if sel.xp == nil {
		return sel
	}
	for range maxUnion - 1 {
		base := scoreRule(&Rule{Content: []Selector{sel}}, pages, find)
		seen := map[string]int{}
		var pool []string
		for _, p := range pages {
			nodes, _ := sel.Find(p.Doc)
			in := map[*html.Node]bool{}
			for _, n := range nodes {
				in[n] = true
			}
			for _, b := range p.Blocks {
				if b.Label != extract.Content || within(b.Node, in) {
					continue
				}
				e := b.Node
				for k := 0; k < 3 && e != nil && e.Type == html.ElementNode && e.Data != "body"; k++ {
					for _, d := range describe(e) {
						if seen[d] == 0 {
							pool = append(pool, d)
						}
						seen[d]++
					}
					e = e.Parent
				}
			}
		}
		sort.SliceStable(pool, func(i, j int) bool { return seen[pool[i]] > seen[pool[j]] })
		best, bestScore := Selector{}, base
		for _, d := range pool[:min(len(pool), 30)] {
			u, err := ParseSelector(sel.Src + " | " + d)
			if err != nil {
				continue
			}
			if sc := scoreRule(&Rule{Content: []Selector{u}}, pages, find); sc.f1() >= bestScore.f1()+0.002 && (best.xp == nil || sc.better(bestScore, u.Src, best.Src)) {
				best, bestScore = u, sc
			}
		}
		if best.xp == nil {
			break
		}
		sel = best
	}
	return sel
}

// score is the word counts of a rule's content against the labels.
type score struct {
	tp, fp, fn, matched int
}

func (s score) f1() float64 {
	if s.tp == 0 {
		return 0
	}
	return 2 * float64(s.tp) / float64(2*s.tp+s.fp+s.fn)
}

// better orders candidates: higher F1, then more pages matched, then an
// id over a class over a path, then the shorter and then the smaller
// expression.
func (s score) better(o score, src, osrc string) bool {
	if a, b := s.f1(), o.f1(); a != b {
		return a > b
	}
	if s.matched != o.matched {
		return s.matched > o.matched
	}
	if a, b := kindRank(src), kindRank(osrc); a != b {
		return a < b
	}
	if len(src) != len(osrc) {
		return len(src) < len(osrc)
	}
	return src < osrc
}

func kindRank(src string) int {
	switch {
	case strings.HasPrefix(src, "//*[@id="):
		return 0
	case strings.Count(src, "//") == 1:
		return 1
	}
	return 2
}

// scoreRule applies the rule's selection (content, drops) to labelled
// pages without changing them and counts content words.
func scoreRule(r *Rule, pages []*extract.Page, find finder) score {
	var s score
	for _, p := range pages {
		ps := scorePage(r, p, find)
		s.tp, s.fp, s.fn, s.matched = s.tp+ps.tp, s.fp+ps.fp, s.fn+ps.fn, s.matched+ps.matched
	}
	return s
}

// findMemo remembers what each selector found on each page while rules
// are suggested: the search scores hundreds of rules made of the same
// selectors on the same pages. Safe for concurrent use.
type findMemo struct {
	mu sync.Mutex
	m  map[findKey]found
}

type findKey struct {
	src string
	doc *html.Node
}

type found struct {
	nodes []*html.Node
	err   error
}

func newFindMemo() *findMemo { return &findMemo{m: map[findKey]found{}} }

func (fm *findMemo) find(s Selector, doc *html.Node) ([]*html.Node, error) {
	k := findKey{s.Src, doc}
	fm.mu.Lock()
	f, ok := fm.m[k]
	fm.mu.Unlock()
	if !ok {
		f.nodes, f.err = s.Find(doc)
		fm.mu.Lock()
		fm.m[k] = f
		fm.mu.Unlock()
	}
	return f.nodes, f.err
}

// scorePage is scoreRule on one page.
func scorePage(r *Rule, p *extract.Page, find finder) score {
	var s score
	sel := r.selectBlocks(p, find)
	if sel.err != nil || sel.matched == 0 {
		for _, b := range p.Blocks {
			if b.Label == extract.Content {
				s.fn += b.Words
			}
		}
		return s
	}
	s.matched++
	for _, b := range p.Blocks {
		w := sel.left[b]
		in, content := sel.inside[b], b.Label == extract.Content
		if content {
			s.fn += b.Words - w // content the drops took out
		}
		switch {
		case in && content:
			s.tp += w
		case in:
			s.fp += w
		case content:
			s.fn += w
		}
	}
	return s
}

// topElements are the n elements of a page whose subtree best covers its
// content blocks (word F1 of the subtree against the content).
func topElements(p *extract.Page, n int) []*html.Node {
	cw, nw := map[*html.Node]int{}, map[*html.Node]int{}
	total := 0
	for _, b := range p.Blocks {
		content := b.Label == extract.Content
		if content {
			total += b.Words
		}
		for e := b.Node; e != nil && e.Type == html.ElementNode; e = e.Parent {
			if content {
				cw[e] += b.Words
			} else {
				nw[e] += b.Words
			}
		}
	}
	if total == 0 {
		return nil
	}
	els := make([]*html.Node, 0, len(cw))
	for e := range cw {
		if e.Data != "html" && e.Data != "body" {
			els = append(els, e)
		}
	}
	f1 := func(e *html.Node) float64 { return 2 * float64(cw[e]) / float64(cw[e]+nw[e]+total) }
	sort.Slice(els, func(i, j int) bool {
		if a, b := f1(els[i]), f1(els[j]); a != b {
			return a > b
		}
		return depth(els[i]) > depth(els[j])
	})
	return els[:min(n, len(els))]
}

func depth(n *html.Node) int {
	d := 0
	for ; n != nil; n = n.Parent {
		d++
	}
	return d
}

var (
	// stableName is an id or class a site is likely to keep: letters,
	// digits, - and _, no run of three digits (generated ids, dates).
	stableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{1,60}$`)
	digitRun   = regexp.MustCompile(`[0-9]{3}`)
	tagName    = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
)

func stable(name string) bool { return stableName.MatchString(name) && !digitRun.MatchString(name) }

// describe gives robust XPaths for an element: by its id, by each of its
// stable classes, by an itemprop; for an element without them, by its
// nearest named ancestor and its tag. Positions are never used.
func describe(e *html.Node) []string {
	if !tagName.MatchString(e.Data) {
		return nil
	}
	out := named(e)
	if len(out) > 0 {
		// Also the paragraphs of the element: an article body whose
		// boxes and widgets sit between its paragraphs.
		return append(out, out[0]+"//p")
	}
	for a := e.Parent; a != nil && a.Type == html.ElementNode; a = a.Parent {
		if anc := named(a); len(anc) > 0 {
			return []string{anc[0] + "//" + e.Data}
		}
	}
	return nil
}

// named are the XPaths of an element by its own attributes.
func named(e *html.Node) []string {
	var out []string
	for _, a := range e.Attr {
		switch a.Key {
		case "id":
			if stable(a.Val) {
				out = append(out, fmt.Sprintf("//*[@id='%s']", a.Val))
			}
		case "itemprop":
			if stable(a.Val) {
				out = append(out, fmt.Sprintf("//%s[@itemprop='%s']", e.Data, a.Val))
			}
		case "class":
			for _, c := range strings.Fields(a.Val) {
				if stable(c) {
					out = append(out, fmt.Sprintf("//%s[contains(concat(' ',normalize-space(@class),' '),' %s ')]", e.Data, c))
				}
			}
		}
	}
	return out
}

// addDrops adds drop selectors for named elements inside the content that
// hold only boilerplate on the pages where they occur: a share bar or
// related links inside the article, or a dateline, byline or hidden link
// inside one of its blocks. Each is kept when it raises the F1.
func addDrops(r *Rule, pages []*extract.Page, find finder) {
	type agg struct{ pages, bw, cw int }
	stats := map[string]*agg{}
	var order []string
	for _, p := range pages {
		content, err := r.content(p.Doc, find)
		if err != nil || len(content) == 0 {
			continue
		}
		byNode := blocksByNode(p)
		bw, cw := map[*html.Node]int{}, map[*html.Node]int{}
		count := func(e *html.Node, b *extract.Block, w int) {
			if b.Label == extract.Content {
				cw[e] += w
			} else {
				bw[e] += w
			}
		}
		seenNode := map[*html.Node]bool{}
		for _, b := range p.Blocks {
			if !within(b.Node, content) {
				continue
			}
			for e := b.Node; e != nil && !content[e]; e = e.Parent {
				count(e, b, b.Words)
			}
			if seenNode[b.Node] {
				continue
			}
			seenNode[b.Node] = true
			// Named inline elements of the block element: their own
			// words, counted with the block whose text holds them.
			var walk func(*html.Node)
			walk = func(n *html.Node) {
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type != html.ElementNode || byNode[c] != nil {
						continue
					}
					if len(named(c)) > 0 {
						text := ownText(c, byNode)
						if owner := ownerBlock(c, text, byNode); owner != nil {
							count(c, owner, extract.CountWords(text))
						}
					}
					walk(c)
				}
			}
			walk(b.Node)
		}
		onPage := map[string]bool{}
		for _, m := range []map[*html.Node]int{bw, cw} {
			for e := range m {
				for _, d := range named(e) {
					a := stats[d]
					if a == nil {
						a = &agg{}
						stats[d] = a
						order = append(order, d)
					}
					if !onPage[d] {
						onPage[d] = true
						a.pages++
					}
				}
			}
		}
		for e, w := range bw {
			for _, d := range named(e) {
				stats[d].bw += w
			}
		}
		for e, w := range cw {
			for _, d := range named(e) {
				stats[d].cw += w
			}
		}
	}
	sort.Strings(order)
	sort.SliceStable(order, func(i, j int) bool { return stats[order[i]].bw > stats[order[j]].bw })
	base := scoreRule(r, pages, find).f1()
	for _, d := range order {
		a := stats[d]
		if a.bw == 0 || a.cw*20 > a.bw || 10*a.pages < 3*len(pages) || len(r.Drop) >= 12 {
			continue
		}
		s, err := ParseSelector(d)
		if err != nil {
			continue
		}
		r.Drop = append(r.Drop, s)
		if f := scoreRule(r, pages, find).f1(); f > base {
			base = f
		} else {
			r.Drop = r.Drop[:len(r.Drop)-1]
		}
	}
}

// WriteYAML writes rules as a rule file a person can review: each with a
// comment line (from comments, by rule) and its fields.
func WriteYAML(w io.Writer, rules []*Rule, comments map[*Rule]string) error {
	var root yaml.Node
	root.Kind = yaml.SequenceNode
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }
	list := func(sels []Selector) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, s := range sels {
			n.Content = append(n.Content, str(s.Src))
		}
		return n
	}
	for _, r := range rules {
		m := &yaml.Node{Kind: yaml.MappingNode, HeadComment: comments[r]}
		add := func(k string, v *yaml.Node) { m.Content = append(m.Content, str(k), v) }
		add("name", str(r.Name))
		hosts := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, h := range r.Hosts {
			hosts.Content = append(hosts.Content, str(h))
		}
		add("hosts", hosts)
		if r.Path != "" {
			add("path", str(r.Path))
		}
		if len(r.Content) > 0 {
			add("content", list(r.Content))
		}
		if len(r.Drop) > 0 {
			add("drop", list(r.Drop))
		}
		if len(r.Title) > 0 {
			add("title", list(r.Title))
		}
		if len(r.TestURLs) > 0 {
			urls := &yaml.Node{Kind: yaml.SequenceNode}
			for _, u := range r.TestURLs {
				urls.Content = append(urls.Content, str(u))
			}
			add("test_url", urls)
		}
		if r.TypicalWords > 0 {
			add("typical_words", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(r.TypicalWords)})
		}
		root.Content = append(root.Content, m)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return err
	}
	return enc.Close()
}
