package extract

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/winnow-go/winnow/internal/textseg"
)

// The density classifier follows Kohlschütter, Fankhauser and Nejdl,
// "Boilerplate Detection using Shallow Text Features" (WSDM 2010), and
// seed 000's description of boilerpipe: find the large runs of text (the
// anchors), grow the region around them while the text and link weights
// fit, and cut whatever lies outside. Three steps:
//
//  1. Each block gets a weight from its own shallow features: words, link
//     density, text density per wrapped line, sentence punctuation and the
//     class/id hints of its ancestors.
//  2. The main-content region is the element whose subtree has the largest
//     sum of weights (boilerplate-like blocks counted at half weight), then
//     narrowed to a child that holds nearly all of it; an element the site
//     names as the article body wins when it holds a fair share. Dense
//     sibling subtrees of the region are added, as readability does.
//  3. Inside the region each block is kept unless its own features say
//     boilerplate (a link list, a teaser, a caption, a form, a byline, a
//     section that a title such as "Related" opens); the article title and
//     its lead are kept from outside the region, and short lines at the
//     edges of the kept text are trimmed.
//
// Every verdict names its rule in the block's Reason: reasons.go lists the
// rules (ReasonOutsideRegion, ReasonClassPrefix, ...) with what each
// catches and where its thresholds come from.

// The stages that vote on blocks, by the name in Reason.Stage (and in a
// record's "removed", where the template stage is "template"). Each
// stage's package names its own as one of these.
const (
	StageRules    = "rules"     // per-site XPath/CSS rules (package xpathrules)
	StageRender   = "render"    // the rendered layout (package render)
	StageTemplate = "infholder" // the site template (package infholder)
	StageDensity  = "density"   // the density classifier of this package
)

const (

	// wrapWidth is boilerpipe's line width for text density (WSDM 2010, §4.2).
	wrapWidth = 80
	// cjkWordShare converts CJK characters to word equivalents: a Chinese
	// word averages about two characters.
	cjkWordShare = 0.5
	// maxLinkDensity marks a link list (boilerpipe's 0.33 for the current
	// block, relaxed because in-text links are common in articles).
	maxLinkDensity = 0.5
	// fullWeightWords is the text density (words per wrapped line) from
	// which a block's text counts in full for the region; boilerpipe finds
	// content above about 10 (WSDM 2010, Fig. 5).
	fullWeightWords = 12.0
)

// effWords is the block's word count with CJK characters weighted as words.
func (b *Block) effWords() float64 {
	return float64(b.Words-b.cjk) + cjkWordShare*float64(b.cjk)
}

// textDensity is words per wrapped line of wrapWidth columns, counting all
// lines but the last as boilerpipe does when the block spans several.
func (b *Block) textDensity() float64 {
	w := displayWidth(b.Text)
	lines := (w + wrapWidth - 1) / wrapWidth
	if lines <= 1 {
		return b.effWords()
	}
	full := float64(lines-1) * wrapWidth / float64(w)
	return b.effWords() * full / float64(lines-1)
}

// weight is the block's evidence for being content: positive for running
// text, negative for links and names that say boilerplate.
func (b *Block) weight() float64 {
	w := b.textWeight()
	if b.hint < 0 && w > 0 {
		// A boilerplate name discounts text but does not make it negative:
		// names are evidence, and some sites name their article column oddly.
		w *= 0.1
	}
	return w
}

// textWeight is weight before the names are heard.
func (b *Block) textWeight() float64 {
	ew := b.effWords()
	ld := b.LinkDensity()
	text := ew * (1 - ld)
	w := text*(1-ld) - 0.5*ew*ld
	if td := b.textDensity(); w > 0 && td < fullWeightWords {
		// Running text fills its lines; lists of names, labels and menu
		// entries do not. Weight grows with the words per wrapped line up
		// to fullWeightWords (boilerpipe's text density, WSDM 2010 §4.2).
		w *= td / fullWeightWords
	}
	if b.punct == 0 && ew < 8 && !(b.Kind == TableCell && b.LinkWords == 0) {
		w -= 2 // a short line without a sentence: a label, a menu entry
	}
	return w
}

// overruleNames clears a boilerplate name whose element holds most of the
// page's running text: the page has no other article, so the name is
// wrong for it (a slideshow page whose slides are the story, an article
// column that a page builder calls a widget); alike siblings under one
// parent that carry the same name count together. Comment sections keep
// their name: a long discussion can outweigh a short article and still
// not be it. Whatever their weight, two kinds of name are cleared as
// not naming the layout: an element named "header" below the page's
// first <h1> that holds a running paragraph (sectionHeadWords), an
// id that is its first heading's slug (anchorID; or, however short,
// slugID, when the element is one of a series of sections with ids,
// idSeries: a guide's "commentary" section among its other sections,
// wcxb-dev-even 0.939 -> 0.968 on that page of the held-out half, three
// articles up to +0.002 on half 1, and a reference page whose gold stops
// early -0.022; the other sets unchanged), and a caption whose
// first block is a heading inside it: a card's caption (a shop's
// "product-caption" over a name and a summary), where a picture's
// caption is text, or the heading itself. Blocks under a cleared name
// take the next hint above it.
func overruleNames(p *Page) {
	total := 0.0
	under := map[*html.Node]float64{}
	headline := -1                        // the first <h1>'s block
	sectionHeads := map[*html.Node]bool{} // named elements that are sections: see sectionHeadWords, anchorID
	opened := map[*html.Node]bool{}       // the elements named by their id or a caption whose first block was seen
	for i, b := range p.Blocks {
		if headline < 0 && b.Node.DataAtom == atom.H1 {
			headline = i
		}
		var e *html.Node // the element whose boilerplate name b carries
		if b.hint < 0 {
			if e = hintedAncestor(p, b.Node); e != nil && p.names[e].hint >= 0 {
				e = nil
			}
		}
		for n := b.Node; n != nil && b.hint < 0; n = n.Parent {
			info := p.names[n]
			if info.hint >= 0 || opened[n] {
				continue
			}
			var section bool
			switch {
			case strings.HasSuffix(info.rule, "~caption"):
				section = b.Kind == Heading && n != b.Node
			case strings.HasPrefix(info.rule, "id~"):
				section = anchorID(n, b) || slugID(n, b) && idSeries(p, n)
			default:
				continue
			}
			opened[n] = true
			if section {
				sectionHeads[n] = true
			}
		}
		w := b.textWeight()
		if w <= 0 {
			continue
		}
		total += w
		if e != nil {
			under[e] += w
			if headline >= 0 && b.Kind == Paragraph && b.punct > 0 && b.effWords() >= sectionHeadWords && strings.HasSuffix(p.names[e].rule, "~header") {
				sectionHeads[e] = true
			}
		}
	}
	// Alike siblings under one name share its weight: a page's sections
	// each named for the in-page navigation that targets them.
	type kin struct {
		parent *html.Node
		rule   string
	}
	siblings := map[kin]float64{}
	for e, w := range under {
		siblings[kin{e.Parent, p.names[e].rule}] += w
	}
	var cleared []*html.Node
	for e, w := range under {
		if w = max(w, siblings[kin{e.Parent, p.names[e].rule}]); !sectionHeads[e] && w > overruleShare*total && !commentName(p.names[e].rule) {
			cleared = append(cleared, e)
		}
	}
	for e := range sectionHeads {
		cleared = append(cleared, e)
	}
	// On a forum thread the replies are the content, whatever their
	// names: a comment name that holds <article> posts, is one or lies in
	// one names the thread's replies (a Drupal forum's "comment-wrapper"
	// of <article class="js-comment"> posts), not a comment section under
	// a story. Comments without posts of their own (the short remarks
	// under a Stack Exchange answer) keep their name.
	if p.Type == TypeForum && p.TypeConfidence >= forumPostsProb {
		for e, info := range p.names {
			if info.hint < 0 && commentName(info.rule) && postsUnder(e) {
				cleared = append(cleared, e)
			}
		}
	}
	if len(cleared) == 0 {
		return
	}
	for _, e := range cleared {
		info := p.names[e]
		info.hint, info.rule = 0, ""
		p.names[e] = info
	}
	for _, b := range p.Blocks {
		if b.hint >= 0 {
			continue
		}
		b.hint, b.hintRule = 0, ""
		if e := hintedAncestor(p, b.Node); e != nil {
			if b.hint = p.names[e].hint; b.hint != 0 {
				b.hintRule = p.names[e].rule
			} else {
				b.hint, b.hintRule = semanticHint(e.DataAtom), e.Data
			}
		}
	}
}

// forumPostsProb is the page-type model's probability of a forum from
// which overruleNames takes comment-named posts for the thread's replies.
// On wcxb-dev-even 0.8627 -> 0.8637 (forum 0.7945 -> 0.8058; domain
// halves 0.8621 unchanged and 0.8633 -> 0.8651, one thread of 41 replies
// 0.349 -> 0.991, two others -0.006 and -0.001); the other sets have
// no forum page it changes. Clearing every comment name on such pages
// instead brought back the comments under Stack Exchange answers, which
// WCXB's golds leave out (forum 0.7916).
const forumPostsProb = 0.6

// postsUnder reports whether e is an <article>, lies in one or holds one.
func postsUnder(e *html.Node) bool {
	for n := e; n != nil; n = n.Parent {
		if n.DataAtom == atom.Article {
			return true
		}
	}
	return holdsArticle(e)
}

// holdsArticle reports whether an <article> element lies under n.
func holdsArticle(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.DataAtom == atom.Article || holdsArticle(c)) {
			return true
		}
	}
	return false
}

// anchorID reports whether the id that gives e a boilerplate name is the
// anchor of e's first block (first), a heading: the heading's words
// written as a slug ("receive-and-reply-to-an-inbound-sms-message"),
// which documentation and long pages give their sections for links to
// them. Such an id says nothing of the section, whatever word of it
// looks like boilerplate.
func anchorID(e *html.Node, first *Block) bool {
	if first.Kind != Heading {
		return false
	}
	var buf [16]string
	toks := nameTokens(attr(e, "id"), buf[:0])
	if len(toks) < 3 {
		return false
	}
	words := strings.Fields(strings.ToLower(first.Text))
	found := 0
	for _, t := range toks {
		for _, w := range words {
			if strings.Trim(w, ".,:;!?()'\"") == t {
				found++
				break
			}
		}
	}
	return 4*found >= 3*len(toks)
}

// slugID reports whether the id of e spells its first block, a heading,
// word for word (the heading's words split at every mark that is no
// letter or digit: "Explicit In-Reply-To headers¶" for
// "explicit-in-reply-to-headers"), however short.
func slugID(e *html.Node, first *Block) bool {
	if first.Kind != Heading {
		return false
	}
	var ibuf, wbuf [16]string
	toks := nameTokens(strings.ToLower(attr(e, "id")), ibuf[:0])
	words := nameTokens(strings.ToLower(first.Text), wbuf[:0])
	if len(words) == 0 || len(toks) < len(words) || len(toks) > len(words)+1 {
		return false
	}
	return slices.Equal(toks[len(toks)-len(words):], words)
}

// idSeries reports whether e is one of a series of alike sections: at
// least idSeriesKin siblings of its tag and class have ids of their own
// and no boilerplate name.
func idSeries(p *Page, e *html.Node) bool {
	if e.Parent == nil {
		return false
	}
	class := attr(e, "class")
	kin := 0
	for s := e.Parent.FirstChild; s != nil; s = s.NextSibling {
		if s == e || s.Type != html.ElementNode || s.DataAtom != e.DataAtom || attr(s, "class") != class || attr(s, "id") == "" || p.names[s].hint < 0 {
			continue
		}
		if kin++; kin >= idSeriesKin {
			return true
		}
	}
	return false
}

// idSeriesKin is the number of alike siblings that make a series
// (idSeries).
const idSeriesKin = 2

// sectionHeadWords is the running paragraph that makes an element named
// "header" below the page's headline a section's head, not the masthead.
const sectionHeadWords = 30

// overruleShare is the share of a page's running text above which a
// boilerplate name is overruled.
const overruleShare = 0.5

// hintedAncestor is the nearest element at or above n whose names or tag
// give a hint, as the segmenter finds it.
func hintedAncestor(p *Page, n *html.Node) *html.Node {
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && (p.names[n].hint != 0 || semanticHint(n.DataAtom) != 0) {
			return n
		}
	}
	return nil
}

// commentName reports whether a hint rule names a comment section.
func commentName(rule string) bool {
	return strings.Contains(rule, "comment") || strings.Contains(rule, "reply") || strings.Contains(rule, "replies") || strings.Contains(rule, "disqus")
}

type classifier struct {
	page      *Page
	w         []float64              // block weights
	sums      map[*html.Node]subtree // per element, its subtree's sums of block weights
	span      map[*html.Node][2]int  // first and last block index in the subtree
	named     []*html.Node           // elements named as the article body (articleBodyName)
	weakTitle bool                   // the title block matched the page title only loosely
	title     int                    // the title block's index, -1 without one
	inReviews func(*html.Node) bool  // under a review section, on a product page (discountReviews); nil on others
}

// classifyDensity labels every block of p that no earlier stage labelled.
func classifyDensity(p *Page) {
	if len(p.Blocks) == 0 {
		return
	}
	overruleNames(p)
	dropOverlays(p)
	c := newClassifier(p)
	region := c.region()
	titleIdx := c.titleBlock(region)
	region = c.ownArticle(region, titleIdx)
	c.title = titleIdx
	inRegion := c.regionSet(region)
	cut := c.stopperCuts(inRegion)
	specs := c.specLists()
	for i, b := range p.Blocks {
		if b.Label != Unknown {
			continue
		}
		if r, ok := cut[i]; ok {
			b.Label = Boilerplate
			b.Vote(StageDensity, r, -1)
			continue
		}
		if i == titleIdx {
			b.Label = Content
			b.Vote(StageDensity, ReasonTitle, 1)
			continue
		}
		if specs[i] {
			b.Label = Content
			b.Vote(StageDensity, ReasonSpecList, 1)
			continue
		}
		if c.inReviews != nil && c.inReviews(b.Node) {
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonReviews, -1)
			continue
		}
		if !inRegion(b.Node) {
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonOutsideRegion, -1)
			continue
		}
		c.labelInside(b, region)
	}
	c.bridgeTitle(titleIdx)
	c.keepAuthor(titleIdx)
	c.trimEdges()
	c.keepShortItems()
	c.keepMainColumn()
	c.keepColumnFallback()
	c.dropReviews()
	if c.page.Type != TypeDocumentation { // see ReasonRepeat
		c.dropRepeats()
	}
	c.dropPlaceholders()
}

// keepAuthor keeps the author lines set as headings or paragraphs right
// under the title ("by Fern Michaels", "Edited By: Carrie Turansky", "By:
// Susan K. Downs, Kristy Dykes"): on a book or product page they are data
// of the page.
func (c *classifier) keepAuthor(titleIdx int) {
	if titleIdx < 0 {
		return
	}
	blocks := c.page.Blocks
	for _, b := range blocks[titleIdx+1 : min(titleIdx+4, len(blocks))] {
		if b.Label != Boilerplate || len(b.Reasons) != 1 || b.Reasons[0].Rule != ReasonOutsideRegion {
			return
		}
		if b.Kind != Heading && b.Kind != Paragraph || b.Words > 24 || b.hint < 0 || !authorLine(b.Text) {
			return
		}
		b.Label = Content
		b.Vote(StageDensity, ReasonAuthor, 1)
	}
}

// bridgeTitle keeps the text between the article title and the first kept
// block after it: the lead or standfirst that sites put in the article
// header, outside the body container the region was grown from. Only
// running text qualifies (a sentence, few links, no boilerplate name).
func (c *classifier) bridgeTitle(titleIdx int) {
	blocks := c.page.Blocks
	if titleIdx < 0 || c.weakTitle {
		return
	}
	end := -1
	for j := titleIdx + 1; j < len(blocks); j++ {
		if blocks[j].Label == Content {
			end = j
			break
		}
	}
	if end < 0 || end-titleIdx > 12 {
		return
	}
	for j := titleIdx + 1; j < end; j++ {
		b := blocks[j]
		if b.Label != Boilerplate || len(b.Reasons) != 1 || b.Reasons[0].Rule != ReasonOutsideRegion {
			continue
		}
		if b.hint < 0 || b.teaser || b.Kind != Paragraph || b.LinkDensity() > 0.3 || b.effWords() < 12 || b.punct == 0 || dateLike(b.Text) || byline(b.Text) || credit(b.Text) {
			continue
		}
		b.Label = Content
		b.Vote(StageDensity, ReasonLead, 1)
	}
}

// subtree is what an element's subtree sums: its blocks' weights, and
// their positive weights alone.
type subtree struct{ weight, pos float64 }

func newClassifier(p *Page) *classifier {
	c := &classifier{page: p, w: make([]float64, len(p.Blocks)), span: make(map[*html.Node][2]int, len(p.Blocks))}
	for i, b := range p.Blocks {
		c.w[i] = b.weight()
		if b.Label == Boilerplate && c.w[i] > 0 {
			c.w[i] = 0 // an earlier stage (a rule, the site template) removed it
		}
		if b.Aside {
			c.w[i] /= 2 // beside the main column or in fine print
		}
		for n := b.Node; n != nil; n = n.Parent {
			sp, ok := c.span[n]
			if !ok {
				sp[0] = i
			}
			sp[1] = i
			c.span[n] = sp
		}
	}
	// The weights go to the same elements as the spans: sized at once,
	// the maps are not grown (and copied) entry by entry.
	c.sums = make(map[*html.Node]subtree, len(c.span))
	c.discountTeasers()
	c.discountReviews()
	for i, b := range p.Blocks {
		w := c.w[i]
		if w < 0 {
			w *= negativeShare
		}
		for n := b.Node; n != nil; n = n.Parent {
			t := c.sums[n]
			t.weight += w
			if w > 0 {
				t.pos += w
			}
			c.sums[n] = t
		}
	}
	return c
}

// discountTeasers finds teasers, the small units that a linked headline
// heads (a headline link and a summary, a list of other stories), and
// cuts the weight of their text: many teasers together outweigh a short
// article, although each is only a pointer to another page.
func (c *classifier) discountTeasers() {
	blocks := c.page.Blocks
	c.listTeasers()
	c.pairTeasers()
	pageText := 0.0 // running text on the whole page
	for _, b := range blocks {
		if !b.inLink && b.LinkDensity() < 0.5 {
			pageText += b.effWords()
		}
	}
	for i, h := range blocks {
		if !(h.inLink || h.LinkDensity() > 0.8) || h.Words < 2 || h.effWords() > 40 || stampLink(h.Text) {
			continue
		}
		for n, up := h.Node, 0; n != nil && up < 4; n, up = n.Parent, up+1 {
			sp := c.span[n]
			if sp[1]-sp[0] > 5 {
				break
			}
			text, before := 0.0, 0.0
			for j := sp[0]; j <= sp[1]; j++ {
				if j != i && !blocks[j].inLink && blocks[j].LinkDensity() < 0.5 {
					text += blocks[j].effWords()
					if j < i {
						before += blocks[j].effWords()
					}
				}
			}
			if text == 0 {
				continue
			}
			if i == sp[1] && h.effWords() > 6 && before >= 15 {
				break // a list of links after the text ("Related categories: ..."), not its headline
			}
			if text > maxTeaserWords || text > 0.5*pageText || c.isTitle(h) {
				break // a story of its own, most of a small page, or the article under its linked title
			}
			trailing := i == sp[1] && before >= 15 // a call to action after the text
			if trailing && text >= entryWords && inEntry(n) {
				break // an entry of a roundup: see entryWords
			}
			for j := sp[0]; j <= sp[1]; j++ {
				if c.w[j] > 0 {
					c.w[j] = 0
				}
				if !blocks[j].teaser {
					blocks[j].trailed = trailing
				} else if !trailing {
					blocks[j].trailed = false
				}
				blocks[j].teaser = true
			}
			break
		}
	}
}

// entryWords is the text from which a unit that ends in its only link (a
// call to action: "Book Now", "Buy on Amazon") is an entry of the page,
// not a teaser, when it is one of a list of alike entries (inEntry): a
// roundup article ("the city's new starred restaurants", "the best
// smart lamps") gives each entry a paragraph of its own and a link to
// book or buy, and discounting them all left the region one entry. A
// bio or a promotion after an article is one unit, and a page's sections
// that end in "Book a consultation" stay teasers on an article
// (TestCallToActionSections). On wcxb-dev-even 0.8614 -> 0.8625 (domain
// halves 0.8618 -> 0.8620 and, held out, 0.8611 -> 0.8629; article
// 0.9413 -> 0.9438, service 0.8212 -> 0.8216, listing 0.7065 ->
// 0.7034); trafilatura 0.9293 -> 0.9290, the other sets unchanged.
// Without the list of alike entries wcxb-dev-even gained more (0.8632)
// but trafilatura lost 0.0008 and the sections of
// TestCallToActionSections became content on an article; at 30 words it
// gained less (0.8628 without the list), and at 60 (0.8625).
const entryWords = 40

// inEntry reports whether n, or one of its entryLevels nearest
// ancestors, is one of alike siblings (alikeSiblings): the unit lies in
// an entry of a list, however deep the entry's own wrappers go.
func inEntry(n *html.Node) bool {
	for up := 0; n != nil && up <= entryLevels; n, up = n.Parent, up+1 {
		if alikeSiblings(n) {
			return true
		}
	}
	return false
}

// entryLevels is how far above a unit inEntry looks for its entry.
const entryLevels = 4

// alikeSiblings reports whether n has at least two siblings of its tag
// and class attribute (an <article> or <li> may have no class): the
// entries of one list.
func alikeSiblings(n *html.Node) bool {
	if n == nil || n.Parent == nil {
		return false
	}
	class := attr(n, "class")
	if class == "" && n.DataAtom != atom.Article && n.DataAtom != atom.Li {
		return false
	}
	alike := 0
	for s := n.Parent.FirstChild; s != nil; s = s.NextSibling {
		if s != n && s.Type == html.ElementNode && s.DataAtom == n.DataAtom && attr(s, "class") == class {
			alike++
		}
	}
	return alike >= 2
}

// stampLink reports whether a link's text is a number or a date rather
// than a headline ("#2 · Mar 21, 2025", "12.03.2021 14:05"): a post's
// permalink heads a forum reply, and the reply is no teaser. At least
// half of its words are numbers (or "#N") and separators.
func stampLink(s string) bool {
	words, stamps := 0, 0
	for _, f := range strings.Fields(s) {
		words++
		f = strings.TrimPrefix(f, "#")
		r, _ := utf8.DecodeRuneInString(f)
		if unicode.IsDigit(r) || !unicode.IsLetter(r) && !unicode.IsDigit(r) && utf8.RuneCountInString(f) == 1 {
			stamps++
		}
	}
	return words > 0 && 2*stamps >= words
}

// listTeasers marks the items of lists in which every item links
// elsewhere and carries some text of its own: "headline: first sentence"
// lists of other stories. A list of at least three items qualifies when
// four in five of its text items have links making at least a sixth of
// their words.
func (c *classifier) listTeasers() {
	blocks := c.page.Blocks
	for n, sp := range c.span {
		if n.DataAtom != atom.Ul && n.DataAtom != atom.Ol {
			continue
		}
		items, linked := 0, 0
		for j := sp[0]; j <= sp[1]; j++ {
			b := blocks[j]
			if b.Kind != ListItem || b.Node.Parent != n {
				continue
			}
			items++
			if b.LinkWords > 0 && b.LinkDensity() >= 1.0/6 && b.LinkDensity() <= maxLinkDensity {
				linked++
			}
		}
		if items < 3 || linked*5 < items*4 {
			continue
		}
		for j := sp[0]; j <= sp[1]; j++ {
			if blocks[j].Kind == ListItem && blocks[j].Node.Parent == n {
				blocks[j].teaser = true
				c.w[j] = 0
			}
		}
	}
}

// stopperCuts finds the section titles that open boilerplate (see
// isStopper) once some article text has been seen, and returns the blocks
// of each such section: those after the title inside the smallest element
// that holds the title and other blocks, up to the next heading of the
// same or a higher level.
func (c *classifier) stopperCuts(inRegion func(*html.Node) bool) map[int]string {
	blocks := c.page.Blocks
	cut := map[int]string{}
	seen := 0.0
	for i, b := range blocks {
		if !inRegion(b.Node) {
			continue
		}
		if _, done := cut[i]; done {
			continue
		}
		if seen < stopperAfterWords || !isStopper(b) {
			if c.w[i] > 0 {
				seen += b.effWords()
			}
			continue
		}
		cut[i] = ReasonStopper
		end, own := i, false
		for n := b.Node; n != nil; n = n.Parent {
			if sp := c.span[n]; sp[1] > i || sp[0] < i {
				// A section title comes first in its own container, which
				// bounds the section; a heading in the middle of a larger
				// container opens a section among its following siblings,
				// up to the next heading of its level.
				own = sp[0] == i
				if own || b.Kind == Heading {
					end = sp[1]
				}
				break
			}
		}
		level := 7
		if b.Kind == Heading {
			level = b.Level
		}
		for j := i + 1; j <= end; j++ {
			if !own && blocks[j].Kind == Heading && blocks[j].Level <= level && !isStopper(blocks[j]) {
				break
			}
			cut[j] = ReasonStopperSection
		}
	}
	return cut
}

// dateLike reports whether a short text is mostly a date or time line
// ("Posted: Fri 6:45 PM, Feb 16, 2018"): a third or more of its words are
// numbers.
func dateLike(s string) bool {
	if len(s) > 120 {
		return false
	}
	words, digits := 0, 0
	for _, f := range strings.Fields(s) {
		words++
		if f[0] >= '0' && f[0] <= '9' {
			digits++
		}
	}
	return words > 0 && words <= 25 && digits*3 >= words
}

// negativeShare scales the weight of boilerplate-like blocks in subtree
// sums: interleaved boxes (a table of contents, an infobox, a navbox) must
// not cancel the paragraphs around them.
const negativeShare = 0.5

// pairTeasers marks headline-summary pairs that are siblings rather than
// wrapped together: <dt><a>headline</a></dt><dd>summary</dd>, repeated at
// least three times in one definition list. (Linked headings followed by
// paragraphs are not enough: product roundups are written that way.)
func (c *classifier) pairTeasers() {
	blocks := c.page.Blocks
	single := func(n *html.Node) int {
		sp, ok := c.span[n]
		if !ok || sp[0] != sp[1] {
			return -1
		}
		return sp[0]
	}
	for n := range c.span {
		if n.DataAtom != atom.Dl {
			continue
		}
		var pairs [][2]int
		prev := -1 // index of the previous child's block when it is a headline
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type != html.ElementNode {
				continue
			}
			i := single(ch)
			if i < 0 {
				prev = -1
				continue
			}
			b := blocks[i]
			headline := (b.inLink || b.LinkDensity() > 0.8) && b.effWords() <= 40
			if prev >= 0 && !headline && b.LinkDensity() < 0.5 && b.effWords() <= maxTeaserWords {
				pairs = append(pairs, [2]int{prev, i})
			}
			prev = -1
			if headline {
				prev = i
			}
		}
		if len(pairs) < 3 {
			continue
		}
		for _, p := range pairs {
			for _, i := range p {
				blocks[i].teaser = true
				c.w[i] = 0
			}
		}
	}
}

// specLists finds the items of "Label: value" lists (a product's details:
// "ISBN-13: 9780515147926", "Publisher: Jove Books"): at least three
// sibling items in one list or table, each a short label, a colon and a
// value, without links. They are data of the page wherever they sit.
func (c *classifier) specLists() map[int]bool {
	blocks := c.page.Blocks
	out := map[int]bool{}
	byParent := map[*html.Node][]int{}
	var parents []*html.Node
	for i, b := range blocks {
		if b.Kind != ListItem && b.Kind != TableCell && b.Kind != Paragraph {
			continue
		}
		if strings.Contains(b.Text, "\n") {
			if specBlock(b) && c.hintWithin(b.Node, nil) >= 0 {
				out[i] = true
			}
			continue
		}
		if b.LinkWords > 0 || b.Words > 20 || !labelValue(b.Text) {
			continue
		}
		p := b.Node.Parent
		if b.Kind == TableCell {
			p = ancestor(b.Node, atom.Table)
		}
		if p == nil {
			continue
		}
		if _, ok := byParent[p]; !ok {
			parents = append(parents, p)
		}
		byParent[p] = append(byParent[p], i)
	}
	for _, p := range parents {
		items := byParent[p]
		worded := 0 // values with letters: a counter list ("Comments: 0") has none
		for _, i := range items {
			_, v, _ := strings.Cut(blocks[i].Text, ":")
			if strings.IndexFunc(v, unicode.IsLetter) >= 0 {
				worded++
			}
		}
		if len(items) >= 3 && worded > 0 {
			for _, i := range items {
				if c.hintWithin(blocks[i].Node, nil) >= 0 {
					out[i] = true
				}
			}
		}
	}
	return out
}

// specBlock reports whether a block of several lines is itself a
// "Label: value" list (a table cell holding "Format: Hardcover",
// "Vendor: Zondervan", "ISBN-13: 9780310327899" on lines of their own):
// at least three such lines, two thirds of all, and links on at most three quarters
// of its words (a value may link to the publisher's other books,
// another to the series; the labels are never links).
func specBlock(b *Block) bool {
	if b.LinkDensity() > 0.75 {
		return false
	}
	lines := strings.Split(b.Text, "\n")
	pairs, worded := 0, 0
	for _, l := range lines {
		if len(l) > 200 || !labelValue(l) {
			continue
		}
		pairs++
		if _, v, _ := strings.Cut(l, ":"); strings.IndexFunc(v, unicode.IsLetter) >= 0 {
			worded++
		}
	}
	return pairs >= 3 && 3*pairs >= 2*len(lines) && worded > 0
}

// labelValue reports whether a text is "Label: value" with a short label.
func labelValue(s string) bool {
	label, value, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(value) == "" {
		return false
	}
	label = strings.TrimSpace(label)
	n, letters := 0, 0
	for _, r := range label {
		if !textseg.IsWordRune(r) && r != ' ' && r != '-' {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
		n++
	}
	return letters >= 2 && n <= 30 // "10:11" is a time, not a label
}

// maxTeaserWords is the most text a teaser carries: a summary of two or
// three sentences.
const maxTeaserWords = 80

// isTitle reports whether b's text matches the page title closely.
func (c *classifier) isTitle(b *Block) bool {
	t, title := normTitle(b.Text), normTitle(c.page.Title)
	if t == "" || title == "" || len(t)*3 < len(title) {
		return false
	}
	return strings.Contains(title, t) || strings.Contains(t, title)
}

// region returns the element whose subtree weight, less a small cost per
// block of boilerplate it would drag in, is the largest.
func (c *classifier) region() *html.Node {
	var best, named *html.Node
	bestScore, namedScore := math.Inf(-1), math.Inf(-1)
	seen := make(map[*html.Node]bool, len(c.span)) // at most the blocks' ancestors, as span
	for _, b := range c.page.Blocks {
		for n := b.Node; n != nil && n.Type == html.ElementNode; n = n.Parent {
			if seen[n] {
				break
			}
			seen[n] = true
			s := c.sums[n].weight
			if s > bestScore+1e-9 || (math.Abs(s-bestScore) <= 1e-9 && best != nil && isAncestor(best, n)) {
				best, bestScore = n, s
			}
			if c.page.names[n].body {
				c.named = append(c.named, n)
				if s > namedScore {
					named, namedScore = n, s
				}
			}
		}
	}
	if best == nil {
		return nil
	}
	// A container the site itself names as the article body wins when it
	// holds a fair share of the best region's weight.
	if named != nil && namedScore > 0 && namedScore >= namedShare*bestScore {
		return named
	}
	// Prefer a descendant that holds nearly all of the region's weight:
	// the tightest container of the article.
	for {
		var next *html.Node
		for ch := best.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.ElementNode && c.sums[ch].weight >= 0.9*bestScore && bestScore > 0 {
				next = ch
			}
		}
		if next == nil {
			break
		}
		best = next
	}
	return best
}

// namedShare is how much of the best region's weight a container named as
// the article body must hold to be chosen instead.
const namedShare = 0.5

// ownArticle narrows a region that holds several <article> elements (a
// feed: the story, then the next stories in full) to the article that
// holds the page's title, when that article has text of its own.
func (c *classifier) ownArticle(region *html.Node, titleIdx int) *html.Node {
	if region == nil || titleIdx < 0 {
		return region
	}
	var own *html.Node
	for n := c.page.Blocks[titleIdx].Node; n != nil && n != region; n = n.Parent {
		if n.DataAtom == atom.Article {
			own = n
		}
	}
	if own == nil || c.sums[own].pos < 0.2*c.sums[region].pos {
		return region
	}
	sp := c.span[region]
	others := 0
	for i := sp[0]; i <= sp[1]; i++ {
		b := c.page.Blocks[i]
		if isAncestor(own, b.Node) || c.w[i] <= 0 {
			continue
		}
		for n := b.Node; n != nil && n != region; n = n.Parent {
			if n.DataAtom == atom.Article {
				others++
				break
			}
		}
	}
	if others == 0 {
		return region
	}
	return own
}

// isAncestor reports whether a is an ancestor of n (or n itself).
func isAncestor(a, n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// regionSet returns a membership test for the main-content region: the
// region element's subtree plus dense sibling subtrees.
func (c *classifier) regionSet(region *html.Node) func(*html.Node) bool {
	if region == nil {
		return func(*html.Node) bool { return true }
	}
	roots := []*html.Node{region}
	top := c.sums[region].weight
	if c.page.names[region].body {
		// Sites that cut the article into chunks name every chunk alike.
		for _, n := range c.named {
			if n != region && c.sums[n].weight > 0 && !isAncestor(region, n) && !isAncestor(n, region) {
				roots = append(roots, n)
			}
		}
	}
	if region.Parent != nil {
		for s := region.Parent.FirstChild; s != nil; s = s.NextSibling {
			if s == region || s.Type != html.ElementNode {
				continue
			}
			if c.page.names[s].hint < 0 || semanticHint(s.DataAtom) < 0 {
				continue
			}
			if w := c.sums[s].weight; w > 0.2*top && w > 10 {
				roots = append(roots, s)
			}
		}
	}
	return func(n *html.Node) bool {
		for ; n != nil; n = n.Parent {
			for _, r := range roots {
				if n == r {
					return true
				}
			}
		}
		return false
	}
}

// hintWithin is the class/id hint of the nearest hinted ancestor of n
// below the region element (names above the region describe the page
// layout, not this block).
func (c *classifier) hintWithin(n, region *html.Node) int {
	for ; n != nil && n != region; n = n.Parent {
		if n.Type != html.ElementNode {
			continue
		}
		if n.DataAtom == atom.Blockquote {
			// A quotation is quoted content even when the embed that
			// carries it is named "social" or "twitter".
			return 0
		}
		h := c.page.names[n].hint
		if h == 0 {
			h = semanticHint(n.DataAtom)
		}
		if h != 0 {
			return h
		}
	}
	return 0
}

// insideForm reports whether n sits in a <form> below the region: a
// comment, search or newsletter form. (A form that wraps the whole page,
// as ASP.NET pages do, is above the region and does not count, and so
// does a form around <article> elements that hold n: a forum's posts
// wrapped for moderators' check boxes.)
func (c *classifier) insideForm(n, region *html.Node) bool {
	post := false
	for ; n != nil && n != region; n = n.Parent {
		switch n.DataAtom {
		case atom.Article:
			post = true
		case atom.Form, atom.Fieldset:
			if !post {
				return true
			}
		}
	}
	return false
}

// labelInside labels a block of the region. The first case that holds
// decides, so the order is the rules' precedence; reasons.go documents
// each reason and its thresholds.
func (c *classifier) labelInside(b *Block, region *html.Node) {
	ld := b.LinkDensity()
	ew := b.effWords()
	switch {
	// A line of preformatted code is the page's own whatever its
	// container is named and whatever it looks like: an API reference
	// writes its request and response examples in an "aside" column, and
	// a JSON line ("exp_year": 2024,) is no date. On wcxb-dev-even the
	// region's dropped code lines were 1,100 gold words against 52 others;
	// documentation 0.8936 -> 0.8955, no other set changed.
	case b.Kind != Pre && c.hintWithin(b.Node, region) < 0:
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonClassPrefix+b.hintRule, -1)
	case ld > maxLinkDensity && b.Kind != Heading && !(ew >= digestWords && b.punct >= digestPunct && ld <= digestLinkDensity):
		// Long items with sentences may carry many links (a digest of
		// the day's stories); menus and link lists do not have sentences.
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonLinkDensity, -ld)
	case b.Kind == Caption:
		// Captions describe pictures; the benchmarks' gold texts and the
		// readers of a corpus want the article's own text.
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonCaption, -1)
	case c.insideForm(b.Node, region):
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonForm, -1)
	case b.Kind != Heading && b.Kind != TableCell && b.Kind != ListItem && b.Words <= fragmentWords && b.punct == 0:
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonFragment, -1)
	case b.Kind == Paragraph && b.Node.DataAtom == atom.Div && b.punct == 0 && ew < labelWords && b.Words > fragmentWords:
		// A short line in a bare div, neither a heading nor a sentence:
		// a picture's caption or a label, not the article's prose.
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonLabel, -1)
	case b.Kind != Heading && b.Kind != TableCell && b.Kind != Pre && b.Words <= dateWords && dateLike(b.Text):
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonDate, -1)
	case b.Kind != Heading && credit(b.Text):
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonCredit, -1)
	case b.teaser && !(b.trailed && manyItems[c.page.Type]):
		// On a page of many sections, text whose only link is a call to
		// action after it ("Book a consultation", "Get started") is a
		// section of the page, not a pointer to another: wcxb-dev-even
		// service 0.779 -> 0.793. On articles such units are bios and
		// promotions, and stay teasers (the trafilatura set's "without"
		// snippets).
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonTeaser, -1)
	case b.inLink && ew < linkWords:
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonLink, -1)
	default:
		b.Label = Content
		b.Vote(StageDensity, ReasonInRegion, b.weight())
	}
}

// trimEdges removes, at the start and the end of the kept text, short
// blocks that are not sentences: bylines, dates, "By", "Share", "Tags".
// The title and other headings stay; at the start, the trim skips over
// them, so a byline between the title and the body goes too.
func (c *classifier) trimEdges() {
	blocks := c.page.Blocks
	trim := func(b *Block) (cut, stop bool) {
		if b.Label != Content {
			return false, false
		}
		if b.Firm {
			return false, true
		}
		if b.Kind == Heading || isTitleVote(b) {
			return false, false // keep, and look further
		}
		short := b.punct == 0 && b.effWords() < edgeWords
		if !short && !dateLike(b.Text) && !byline(b.Text) {
			return false, true
		}
		b.Label = Boilerplate
		b.Vote(StageDensity, ReasonShortEdge, -1)
		return true, false
	}
	for _, b := range blocks {
		if _, stop := trim(b); stop {
			break
		}
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		b := blocks[i]
		if b.Label != Content {
			continue
		}
		if isTitleVote(b) || b.Firm {
			break
		}
		// After the last paragraph of the article, a heading with nothing
		// under it or a line or two of text is a sign-off: a promotion,
		// "further information", a login prompt.
		short := b.effWords() < tailWords || b.LinkDensity() >= 0.25 && b.effWords() < 3*tailWords
		linkedItem := b.Kind == ListItem && b.LinkDensity() >= 0.25 && b.effWords() < 3*tailWords
		if b.Kind == Heading || short && (b.Kind == Paragraph || b.Kind == Caption) || linkedItem {
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonTail, -1)
			continue
		}
		break
	}
}

// tailWords: shorter blocks after the article's last longer one are cut.
const tailWords = 10

func isTitleVote(b *Block) bool {
	for _, r := range b.Reasons {
		if r.Stage == StageDensity && r.Rule == ReasonTitle {
			return true
		}
	}
	return false
}

// titleBlock finds the article's title: the heading (or "title"-classed
// element) that best matches the page title, an h1 and a place in the
// region breaking ties (see ReasonTitle). It returns -1 when none matches.
func (c *classifier) titleBlock(region *html.Node) int {
	title := normTitle(c.page.Title)
	best, bestScore, bestCover := -1, 0.0, 0.0
	for i, b := range c.page.Blocks {
		if b.Kind != Heading && !(b.Node != nil && strings.Contains(strings.ToLower(attr(b.Node, "class")), "title")) {
			continue
		}
		if b.LinkDensity() > 0.5 && b.Kind != Heading {
			continue
		}
		t := normTitle(b.Text)
		if t == "" || len(t) > 400 || authorLine(t) {
			continue
		}
		s, cover := 0.0, titleMatch(t, title)
		if cover >= 0.3 {
			// "Amsterdam" in "The 7th Amsterdam Light Festival" is a
			// section heading, not the title.
			s = cover + 0.5
		}
		if b.Kind == Heading && b.Level == 1 {
			s += 0.3
		}
		if region != nil && b.Node != nil && isAncestor(region, b.Node) {
			s += 0.1
		}
		if s > bestScore {
			best, bestScore, bestCover = i, s, cover
		}
	}
	if bestScore < 0.5 {
		return -1
	}
	c.weakTitle = bestCover <= 0.3
	return best
}

// titleMatch says how well a heading matches the page title: 0 when they
// do not match, else the share of the longer one that the shorter covers.
// They match when one contains the other, or when nearly all the words of
// the heading occur in the title ("Undead and Unwelcome (Mass Market
// Paperback)" in "Undead and Unwelcome by MaryJanice Davidson (Mass Market
// Paperback): booksamillion.com").
func titleMatch(heading, title string) float64 {
	if heading == "" || title == "" {
		return 0
	}
	if rest, ok := strings.CutPrefix(title, heading); ok && rest != "" {
		// The title's first field: "Lydia's Charm" in "Lydia's Charm:
		// Wanda E. Brunstetter: 9781602600638: Christianbook.com".
		// A dash or slash separates fields only with a space before it
		// ("Foo - Site", not "e-mail").
		r, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, " "))
		if strings.ContainsRune(":|·»", r) || rest[0] == ' ' && strings.ContainsRune("-–—/", r) {
			return 0.8
		}
	}
	if strings.Contains(title, heading) || strings.Contains(heading, title) {
		cover := float64(len(heading)) / float64(len(title))
		if cover > 1 {
			cover = 1 / cover
		}
		return cover
	}
	hw, tw := titleWords(heading), titleWords(title)
	if len(hw) < 2 || len(tw) == 0 {
		return 0
	}
	in := make(map[string]bool, len(tw))
	for _, w := range tw {
		in[w] = true
	}
	shared := 0
	for _, w := range hw {
		if in[w] {
			shared++
		}
	}
	lead := 0 // words the heading and the title both open with
	for lead < len(hw) && lead < len(tw) && hw[lead] == tw[lead] {
		lead++
	}
	if float64(shared) < 0.8*float64(len(hw)) {
		// "Foreign Influence : A Thriller (Hardcover)" under the title
		// "Foreign Influence by Brad Thor (Hardcover): booksamillion.com"
		// is the weakest match that counts.
		if lead >= 2 && 5*lead >= 2*len(hw) {
			return 0.3
		}
		// "Infinity : Chronicles of Nick (Hardcover)" under "Infinity by
		// Sherrilyn Kenyon (Hardcover): booksamillion.com": the heading's
		// first field is the title's opening.
		if first, _, ok := strings.Cut(heading, ":"); ok && lead > 0 && lead == len(titleWords(first)) {
			return 0.3
		}
		return 0
	}
	cover := math.Min(1, float64(len(hw))/float64(len(tw)))
	if lead > 0 {
		cover = math.Max(cover, 0.3)
	}
	return cover
}

// titleWords splits a normalised title into words, each CJK character a
// word of its own.
func titleWords(s string) []string { return textseg.Words(s, textseg.IsCJK) }

func normTitle(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// isHeadingAtom reports whether a is h1-h6.
func isHeadingAtom(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}
