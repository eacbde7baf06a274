package extract

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ReasonMainColumn (content) marks a block kept because the page is not
// one article but many items or sections: ClassifyType calls it a
// listing, a collection or documentation (manyItems), the density region
// kept less than minArticleWords of running text and less than
// mainColumnShare of the words of the page's main column, and the block
// lies in that column. The main column is every block that
// no page chrome holds: not in <nav>, <aside> or <menu>, not in a
// <header> or <footer> of the page (those of an <article>, <main> or
// <section> are the content's own), not in a <form> that holds little of
// the page, and under no boilerplate name (ReasonClassPrefix's names).
// On such a page the one dense region is one item among many: WCXB's
// golds keep every card, row and section of the main column, and the
// region alone lost most of them (outside-region took 56% of the gold
// words of listings, 43% of collections). Blocks that another stage
// removed (a site rule, the template) stay removed.
const ReasonMainColumn = "main-column"

// mainColumnShare is the share of the main column's words below which the
// region is taken for one item among many (with minArticleWords).
const mainColumnShare = 0.5

// minArticleWords is the running text (words of kept blocks with a
// sentence) from which the region is taken for an article, whatever lies
// around it: an old news page's column of link lists and teasers is no
// listing. Measured on wcxb-dev-even against daniel-ru and daniel-zh,
// whose pages are all articles: at 60 no page of the daniel sets changes
// and wcxb-dev-even gains 0.04; at 100 eight daniel-ru pages lose
// together 5 points of F1 for a further 0.008.
const minArticleWords = 60

// sureItemsProb is the page-type model's probability from which a page
// of a type in sureItems keeps its main column's sections beside running
// text in its region. On wcxb-dev-even: service 0.723 -> 0.770 (domain
// halves 0.753 -> 0.806, 0.703 -> 0.744), documentation 0.857 -> 0.874.
// daniel-ru, whose news pages the model often calls services, stays at
// 0.881 (at 0.5 it lost 0.006). Listings would gain too (0.569 -> 0.646)
// but the model calls old news pages listings with as much confidence:
// daniel-ru fell to 0.808, daniel-zh and cleaneval-zh by 0.01-0.02.
const sureItemsProb = 0.6

// sureItems are the types of sureItemsProb.
var sureItems = map[PageType]bool{TypeService: true, TypeDocumentation: true}

// manyItems are the page types whose content is many items or sections.
// On a service page the column's linked cards ("Cloud security" over a
// summary) are sections of the page, not pointers to other stories, but
// whole links and link lists stay out. A news site's section front that
// ClassifyType takes for a service page then keeps its story summaries,
// which CleanPortalEval's golds leave out: its single-page F1 fell 0.0035
// (one page of 71) while wcxb-dev-even's service pages rose from 0.683 to
// 0.723 (0.742 -> 0.753 and 0.641 -> 0.703 on its two domain halves).
// Articles have their own model. A product page keeps its column too
// (see keepMainColumn), without its linked cards.
var manyItems = map[PageType]bool{TypeListing: true, TypeCollection: true, TypeDocumentation: true, TypeService: true}

// keepMainColumn is the content model of pages made of many items: when
// the kept text is a small part of the main column, every block of the
// main column that only the density stage removed is kept. A product
// page is such a page too: its name, price, options, description and
// specifications are short blocks in many boxes, and its one dense
// region was often a box beside them (a review summary, a cart dialog,
// a price line). Its column keeps no whole links, link lists or teasers
// (the grids of other products), and the reviews rule runs after
// (wcxb-dev-even product 0.614 -> 0.647; pages of the other sets
// unchanged; SWDE books survival 0.9964 -> 0.9968, recurring removed
// 0.9532 -> 0.9529). Listings with
// price markup were once left alone, when ClassifyType called 37 of
// SWDE's book pages listings and the column brought back their shops'
// recurring text; the model no longer does (SWDE survival 0.9960 and
// recurring removed 0.9532 with or without the exception), and a
// listing of products kept only its heading (wcxb-dev-even listing
// 0.621 -> 0.638).
func (c *classifier) keepMainColumn() {
	p := c.page
	if !manyItems[p.Type] && p.Type != TypeProduct {
		return
	}
	chrome := c.chromeTest()
	// On a service page the linked cards are the page's sections, unless
	// they point at articles: a news site's section front.
	teasers := p.Type != TypeService || !newsFront(p, false)
	kept, running, column := 0, 0, 0
	var candidates, runs []*Block
	// A documentation page begins at its title: above it are the site's
	// header, its breadcrumbs and version pickers, which no <nav> holds
	// (wcxb-dev-even documentation 0.886 -> 0.893, domain halves 0.836 ->
	// 0.851 and, held out, 0.916 -> 0.917; on other types the blocks above
	// the title are as often an item's own (a product's name and price
	// over a gallery title): product half 1 fell 0.686 -> 0.668).
	start := 0
	if p.Type == TypeDocumentation {
		start = max(c.title, 0)
	}
	for i, b := range p.Blocks {
		if b.Kind == Title || b.Words == 0 {
			continue
		}
		if b.hint < 0 || chrome(b.Node) {
			continue
		}
		if b.Label == Content {
			kept += b.Words
			if b.punct > 0 {
				running += b.Words
				runs = append(runs, b)
			}
		}
		switch {
		case b.Label == Content:
			column += b.Words
		case retakable(b):
			column += b.Words
			linked := b.inLink || b.LinkDensity() >= 0.5
			switch {
			case i < start:
			case p.Type == TypeProduct && (linked || b.teaser):
			case p.Type == TypeService && (linked || !teasers && b.teaser):
			default:
				candidates = append(candidates, b)
			}
		}
	}
	// Running text in the region says one article, and the rest of the
	// column its teasers and end matter, unless the model is sure of a
	// service page, whose sections are each some running text, or the
	// running text lies mostly in the records of a repeated structure (a
	// listing's card summaries; see recordsHold), or is a short
	// introduction under the page's name (introUnderName). Text kept in
	// page chrome counts neither as kept nor as running: a footer's
	// copyright paragraph that outweighed a listing's discounted teasers
	// is no article (wcxb-dev-even listing 0.638 -> 0.663, collection
	// 0.626 -> 0.644 with running text only, 0.658 -> 0.669 with kept
	// text too; no other set changed).
	intro := c.introUnderName(runs, running)
	// A page the model is sure of keeps its column whatever the region
	// holds: a service page's region of 768 words was half of its column
	// and took the page for one section (wcxb-dev-even service 0.802 ->
	// 0.814, documentation 0.885 -> 0.888; domain halves 0.850 -> 0.851
	// and 0.855 -> 0.857; daniel-ru 0.8813 -> 0.8809, one page).
	sure := sureItems[p.Type] && p.TypeConfidence >= sureItemsProb
	// On a service page the region's running text is one section among
	// others when the rest of the column holds more text than it (the
	// blocks the column would take back): a guide's hub page, its
	// introduction over the chapters' summaries, a glossary and the
	// guide's other parts, is no article with teasers (wcxb-dev-even
	// service 0.8158 -> 0.8212, documentation 0.8955 -> 0.9056, domain
	// halves 0.8602 -> 0.8618 and, held out, 0.8598 -> 0.8611). An old
	// news page that ClassifyType calls a service page has its story in
	// the region and short headings around it (daniel-ru unchanged; at
	// a third of the column's words, links included, it fell 0.0055).
	rest := 0
	for _, b := range candidates {
		rest += b.Words
	}
	article := running >= minArticleWords && !intro && !sure &&
		(p.Type == TypeService && rest < running || p.Type != TypeService && !c.recordsHold(runs, running))
	if len(candidates) == 0 || article || !sure && float64(kept) >= mainColumnShare*float64(column) {
		return
	}
	for _, b := range candidates {
		b.Label = Content
		b.Vote(StageDensity, ReasonMainColumn, 1)
	}
}

// introUnderName reports whether the running text is an introduction
// under a name rather than a story under a headline: at most two running
// blocks, under introWords words, that follow the page's heading with no
// heading between, where the heading (the title block, or without one
// the first <h1> whose parent or grandparent also holds the text, not a
// site name in a top bar) has at most four words. A category page's
// region is often its introduction: its cards are discounted as
// teasers.
func (c *classifier) introUnderName(runs []*Block, words int) bool {
	if len(runs) == 0 || len(runs) > 2 || words >= introWords {
		return false
	}
	blocks := c.page.Blocks
	head := c.title
	if head < 0 {
		for i, b := range blocks {
			if b.Node.DataAtom != atom.H1 || b.Words == 0 {
				continue
			}
			up := b.Node.Parent
			if up != nil && !isAncestor(up, runs[0].Node) {
				up = up.Parent
			}
			if up != nil && isAncestor(up, runs[0].Node) {
				head = i
			}
			break
		}
	}
	if head < 0 || blocks[head].Words > 4 {
		return false
	}
	for _, b := range blocks[head+1:] {
		if b == runs[0] {
			return true
		}
		if b.Kind == Heading && b.Words > 0 {
			return false
		}
	}
	return false
}

// introWords bounds the words of an introduction (introUnderName).
const introWords = 120

// recordsHold reports whether at least half of the words of the running
// blocks lie in records of repeated structures (recordItems). On a
// listing that the density region took for an article, its "article" is
// the summaries of a few cards; an old news page that ClassifyType calls
// a listing has its story in one body, outside any record (daniel-ru
// stays at 0.8813, where keeping the column of every sure listing cost
// it 0.07). Service pages are left out: their sections are often
// repeated cards with links, and their running text is decided by
// sureItemsProb.
func (c *classifier) recordsHold(runs []*Block, words int) bool {
	in := c.recordItems()
	held := 0
	for _, b := range runs {
		if in(b.Node) {
			held += b.Words
		}
	}
	return 2*held >= words
}

// chromeTest returns whether a node sits in page chrome (see
// ReasonMainColumn). A form counts only when it holds less than half of
// the page's words: some sites wrap the whole page in one.
func (c *classifier) chromeTest() func(*html.Node) bool {
	total := 0
	for _, b := range c.page.Blocks {
		total += b.Words
	}
	return underAny(func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Nav, atom.Aside, atom.Menu:
			return true
		case atom.Header, atom.Footer:
			return !c.inContentSection(n)
		case atom.Form:
			return 2*c.wordsUnder(n) < total
		}
		switch landmark(n) {
		case atom.Nav, atom.Aside, atom.Menu:
			return true
		case atom.Header, atom.Footer:
			return !c.inContentSection(n)
		}
		return false
	})
}

// landmark is the element that n's ARIA role makes it: role="navigation"
// a <nav>, "complementary" an <aside>, "menu" and "menubar" a <menu>,
// "banner" a <header> and "contentinfo" a <footer> (0 for none). Pages
// built before HTML5's elements, or of divs throughout (a wiki's tool
// boxes and table of contents), mark their chrome so, and the main column
// leaves it out as it leaves out the elements (wcxb-dev-even
// documentation 0.9098 -> 0.9128, collection 0.7030 -> 0.7049, all
// 0.8640 -> 0.8644; domain half 1: a wiki page 0.839 -> 0.959, another
// 0.976 -> 0.998, a listing 0.364 -> 0.373; held-out half 2: a collection
// 0.678 -> 0.767, a service page 0.946 -> 0.958, a listing -0.0002; the
// other sets unchanged). Read as a boilerplate hint when the page is cut
// into blocks, as <nav> and <aside> are, the roles cost a held-out
// listing 0.11 (its cards in a role="navigation" list).
func landmark(n *html.Node) atom.Atom {
	role := attr(n, "role")
	if role == "" {
		return 0
	}
	switch strings.ToLower(strings.TrimSpace(role)) {
	case "navigation":
		return atom.Nav
	case "complementary":
		return atom.Aside
	case "menu", "menubar":
		return atom.Menu
	case "banner":
		return atom.Header
	case "contentinfo":
		return atom.Footer
	}
	return 0
}

// underAny returns a test of whether a node or one of its ancestor
// elements satisfies own; the answers are remembered per element, so
// testing every block of a page walks each ancestor once.
func underAny(own func(*html.Node) bool) func(*html.Node) bool {
	memo := map[*html.Node]bool{}
	var in func(n *html.Node) bool
	in = func(n *html.Node) bool {
		if n == nil || n.Type != html.ElementNode {
			return false
		}
		if v, ok := memo[n]; ok {
			return v
		}
		v := own(n) || in(n.Parent)
		memo[n] = v
		return v
	}
	return in
}

// inContentSection reports whether n sits in an <article>, <main> or
// <section>: a header or footer there belongs to the content.
func (c *classifier) inContentSection(n *html.Node) bool {
	for n = n.Parent; n != nil; n = n.Parent {
		switch n.DataAtom {
		case atom.Article, atom.Main, atom.Section:
			return true
		}
	}
	return false
}

// wordsUnder is the number of words of the blocks in n's subtree.
func (c *classifier) wordsUnder(n *html.Node) int {
	sp, ok := c.span[n]
	if !ok {
		return 0
	}
	w := 0
	for _, b := range c.page.Blocks[sp[0] : sp[1]+1] {
		if isAncestor(n, b.Node) {
			w += b.Words
		}
	}
	return w
}

// hasEvidence reports whether ClassifyType gave e as evidence for p.
func hasEvidence(p *Page, e string) bool { return slices.Contains(p.TypeEvidence, e) }

// newsFront reports whether most of a page's teaser headlines link to
// articles (articleURL): the front of a news section, whose story
// summaries are pointers to other pages, not sections of its own. With
// own set, only links to the page's own site count (a relative link, or
// the host of p.URL): a page that cites other sites' stories ("in the
// news") is no front of its own stories.
func newsFront(p *Page, own bool) bool {
	heads, articles := 0, 0
	for _, b := range p.Blocks {
		if !b.teaser || !b.inLink && b.LinkDensity() <= 0.8 {
			continue
		}
		heads++
		if a := firstLink(b.Node); a != nil && articleURL(attr(a, "href")) && (!own || ownLink(p, attr(a, "href"))) {
			articles++
		}
	}
	return heads > 0 && 2*articles >= heads
}

// ownLink reports whether href points into the page's own site: it has
// no host, or the host of the page's URL (a leading "www." aside).
func ownLink(p *Page, href string) bool {
	u, err := url.Parse(href)
	if err != nil {
		return false
	}
	if u.Host == "" {
		return true
	}
	return p.URL != nil && strings.TrimPrefix(strings.ToLower(u.Host), "www.") == strings.TrimPrefix(strings.ToLower(p.URL.Host), "www.")
}

// firstLink is the first <a href> at or under n, or its nearest <a href>
// ancestor.
func firstLink(n *html.Node) *html.Node {
	for a := n; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && a.DataAtom == atom.A && hasAttr(a, "href") {
			return a
		}
	}
	var found *html.Node
	var walk func(*html.Node)
	walk = func(m *html.Node) {
		for c := m.FirstChild; c != nil && found == nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.A && hasAttr(c, "href") {
				found = c
				return
			}
			walk(c)
		}
	}
	walk(n)
	return found
}

// articleURL reports whether a link's path looks like a news article's:
// a run of at least five digits (a story ID: /news/health-22025100,
// /a63515464/) or a year and month as path segments (/2013/04/...).
func articleURL(href string) bool {
	u, err := url.Parse(href)
	if err != nil {
		return false
	}
	path := u.Path
	digits := 0
	for i := 0; i < len(path); i++ {
		if path[i] >= '0' && path[i] <= '9' {
			if digits++; digits >= 5 {
				return true
			}
		} else {
			digits = 0
		}
	}
	segs := strings.Split(path, "/")
	for i := 0; i+1 < len(segs); i++ {
		if yearSegment(segs[i]) && len(segs[i+1]) >= 1 && len(segs[i+1]) <= 2 && allDigits(segs[i+1]) {
			return true
		}
	}
	return false
}
