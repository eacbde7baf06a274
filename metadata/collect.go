package metadata

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/publicsuffix"

	"github.com/winnow-go/winnow/internal/ascii"
)

// Bounds of what the walk keeps: a page is read in one pass, and these
// keep a hostile page from making the pass hold much.
const (
	maxKept = 32 // bylines and dated lines kept
	// maxShown is how many time elements and date lines are kept: a
	// news page's sidebars and players may show dozens before the
	// article's own, just above its headline (rus.ruvr.ru's pages of
	// daniel-ru: 32 <time>s of the latest news before it).
	maxShown  = 256
	maxLDText = 1 << 20  // JSON-LD bytes parsed in all
	maxLine   = 200      // a byline or dated line longer than this is text
	maxValues = 64       // values kept per meta key
	maxTotal  = 64 << 10 // bytes of meta values kept in all
	// afterH1Text is how much of the text after the headline is read for
	// a date line: the headline, a standfirst and the byline.
	afterH1Text = 400
	// maxDateLine: a longer text is a sentence, whose dates are what it
	// tells of, not when it was written.
	maxDateLine = 80
)

// collector is what one walk of the tree found.
type collector struct {
	doc      *html.Node
	comments *html.Node          // the comment section the walk is in (see kinds), nil outside one
	menu     *html.Node          // the menu the walk is in (kinds.menu), nil outside one: its links are no bylines
	metas    map[string][]string // <meta> by lower-cased name, property, itemprop, http-equiv
	micro    map[string][]string // itemprop (and RDFa property) of other elements
	ld       ldInfo
	ldTexts  []string
	titleTag string
	htmlLang string
	textLang string // the language identified from the text where the page declares another or none
	canon    string
	base     *url.URL
	bylines  []byline // author lines, by their class
	prefixed []string // lines that open with "By"
	// datedBy are date lines that name their author first ("Von Anna
	// Schmidt | 12. März 2021" in a class "meta"): the last resort of a
	// byline, after those a class names.
	datedBy []string
	// editor is the first editor's credit of a Chinese page
	// (editorCredit): the last resort of its author.
	editor []string
	// cardEnd is the text position (pos) where the last minor heading
	// after the headline ended, 0 for none (see cardByline).
	cardEnd      int
	shown        []shown    // <time> elements and short lines whose class says date, in document order
	heads        []*heading // the first maxHeads <h1>s, with the text below each
	homeHeads    int        // how many of heads link to a front page (homeLink)
	subs         []*heading // on a page without an <h1> so far but the site's name, its first maxHeads <h2>s
	anchor       *heading   // the headline among them (see headline)
	anchorCut    string     // its text with the site's name cut off
	refs         []valued   // the structured titles (titleRefs)
	refCuts      []string   // each of refs with the site's name cut off, once refCut has cut it
	agreed       bool       // a structured title names the anchor (or the page has none)
	site         valued     // the site's own name (siteName)
	host         string     // the page's registered domain ("newegg.com" for promotions.newegg.com), else its host name without "www."
	pos          int        // bytes of text walked so far
	labelledDate string     // the first text a "Date:"/"Published:" label names a date with
	labelWait    int        // text nodes still to look at after a label that stood alone
	aloneLabel   string     // a Chinese author's label that stood alone in the last text ("作者：")
	aloneIn      *html.Node // the element that holds it
	relTags      []string
	kept         int // bytes of meta values kept
	warnings     []string
	buf          []byte     // the texts folded (textBytes), reused
	byText       *html.Node // the text opensWithWord read last
	byOK         bool       // whether it opens with a by-word
}

// shown is a date the page shows: a <time> element (its datetime, else
// its text) or a short line whose class says date or time.
type shown struct {
	text  string
	value bool   // text is a datetime attribute
	hint  string // class, id and itemprop of the element (and a <time>'s parent)
	pos   int    // bytes of the page's text before it
}

// maxHeads is how many <h1>s are followed: a page's first <h1> is often
// its logo, and the headline the second or third.
const maxHeads = 5

// heading is an <h1> and what its next afterH1Text bytes of text say.
type heading struct {
	node     *html.Node
	text     string // its text, without the kicker that opens it (afterKicker)
	size     int    // bytes of its whole text, the kicker's too
	sub      string // the subtitle that ends it (trailingSubtitle), cut from text
	withSub  string // text with the subtitle
	home     string // the address of the front page the heading links to as a whole, "" for none (homeLink)
	pos      int    // bytes of text before it
	after    []byte // the text below it
	lines    []byte // the texts of after that are not sentences (see sentence)
	line     string // the first short text with a date in after: a date line
	prevText string // the text before the current one in after: a label such as "Updated"
}

// follow adds one text below the heading.
func (h *heading) follow(t string) {
	if len(h.after) >= afterH1Text {
		return
	}
	if h.line == "" && len(t) <= maxDateLine && strings.ContainsAny(t, "0123456789") &&
		!opensWithUpdate(h.prevText) && !opensWithMember(h.prevText) { // "Updated" <span>January 8, 2026</span>, "Joined:" <span>…
		if _, ok := findDate(t); ok {
			h.line = t
		}
	}
	h.prevText = t
	h.after = append(append(h.after, t...), ' ')
	if !sentence(t) {
		h.lines = append(append(h.lines, t...), ' ')
	}
}

// headline picks the page's headline among its first <h1>s, with the
// site's name cut off: the first that agrees with a structured title (see
// titleRefs) or, on a page without one, the first; an <h1> that is the
// site's name is passed over. Without such a one it is the first <h1>,
// not agreed: the dates are still placed against it.
//
// cut is the headline's text with the site's name cut off (cutSite).
func (c *collector) headline(site string) (h *heading, cut string, agreed bool) {
	var siteHead [maxHeads]bool // the headings that name the site (namesSite), asked once
	named := 0
	for i, h := range c.heads {
		if siteHead[i] = c.namesSite(h); siteHead[i] {
			named++
		}
	}
	if named == len(c.heads) {
		// A page without an <h1> (a phpBB thread, a landing page whose
		// top heading is an <h2>) may head itself with an <h2>: the
		// first that opens or ends a structured title, word for word
		// ("2025-26 Football Season: MLS is Back!" under "Forum • View
		// topic - 2025-26 Football Season: MLS is Back!"), never one
		// that only shares words with it (a teaser's "Why Classic
		// Percale?" under "Classic Percale Core Sheet Set"). Under
		// <h1>s that are the site's name, an older blog theme's, the
		// <h2> must end the title, after the site's name ("Four Years
		// Remaining » Blog Archive » Interning of Small Integers"): a
		// title that opens with the headline has the site's name cut
		// from its end without the heading's help.
		for _, h := range c.subs {
			t := c.cutHeading(h.text, site)
			if sameText(t, site) {
				continue
			}
			for _, r := range c.refs {
				if edgeOf(t, r.val, named == 0) {
					return h, t, true
				}
			}
		}
		if len(c.heads) == 0 {
			return nil, "", false
		}
	}
	refs := c.refs
	var cuts [maxHeads]string // each heading with the site's name cut off, for the second pass
	for i, h := range c.heads {
		t := c.cutHeading(h.text, site)
		cuts[i] = t
		if sameText(t, site) || siteLike(t, site) || siteHead[i] || leadIn(t) {
			continue
		}
		if len(refs) == 0 && i == 0 {
			return h, t, true
		}
		for _, r := range refs {
			if agrees(t, r.val) {
				return h, t, true
			}
		}
	}
	// A title whose first segment is an <h1> names that heading, however
	// little of the rest it shares ("News | National Student Support
	// Accelerator" over an <h1> "News"), unless the heading is the site's
	// name ("Instant Pot - Pressure Cookers" on instantpot.com).
	var firsts []string // the first segment of each ref of two segments or more
	var split []bool    // whether the ref has two segments or more
	for i, h := range c.heads {
		t := cuts[i]
		if sameText(t, site) || siteLike(t, c.host) || siteHead[i] {
			continue
		}
		if firsts == nil {
			firsts, split = make([]string, len(refs)), make([]bool, len(refs))
			for j, r := range refs {
				if segs := titleSegments(r.val); len(segs) >= 2 {
					firsts[j], split[j] = segs[0], true
				}
			}
		}
		for j := range refs {
			if split[j] && sameText(firsts[j], t) {
				return h, t, true
			}
		}
	}
	if len(c.heads) > 0 {
		return c.heads[0], cuts[0], false
	}
	return nil, "", false
}

// leadIn says whether a heading ends with a colon: it leads into what
// follows ("Erik Demaine's Folding and Unfolding:" over the page's
// "The Fold-and-Cut Problem"), and no gold title of wcxb-dev-even or the
// trafilatura set ends with one.
func leadIn(t string) bool {
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")
}

// namesSite says whether the heading h is the site's name: a link to
// the front page of the page's own site (homeLink; its registered
// domain is the page's, or the page has no address), not the headline.
// On wcxb-dev-even and the trafilatura set no <h1> that is such a link
// is the gold title (26 and 82 of them).
func (c *collector) namesSite(h *heading) bool {
	if h.home == "" {
		return false
	}
	u, err := url.Parse(h.home)
	if err != nil || u.Host == "" || c.host == "" {
		return err == nil
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		host = d
	}
	return host == c.host
}

// edgeOf says whether h, of two words or more, is the title t's first
// (when opening is set) or last segments (titleSegments), word for word: "Forum • View topic
// - 2025-26 Football Season: MLS is Back!" ends with "2025-26 Football
// Season: MLS is Back!", but "Vertrieb auslagern - Anders oder gut zu
// Wissen" does not end with a heading "Gut zu Wissen".
func edgeOf(h, t string, opening bool) bool {
	if len(words(h)) < 2 {
		return false
	}
	segs := titleSegments(t)
	for k := 1; k < len(segs); k++ {
		if opening && sameText(strings.Join(segs[:k], " "), h) || sameText(strings.Join(segs[len(segs)-k:], " "), h) {
			return true
		}
	}
	return opening && sameText(t, h)
}

// afterHeadline is the text below the headline ("" without one).
func (c *collector) afterHeadline() string {
	if c.anchor == nil {
		return ""
	}
	return string(c.anchor.after)
}

// linesAfterHeadline is the text below the headline without its
// sentences: the date lines, labels and names ("" without a headline).
func (c *collector) linesAfterHeadline() string {
	if c.anchor == nil {
		return ""
	}
	return string(c.anchor.lines)
}

// placed says where a shown date stands against the headline: after it,
// and near it (up to afterH1Text bytes of text below it, or nearBefore
// above it: a dateline over the headline).
func (c *collector) placed(sh shown) (after, near bool) {
	if c.anchor == nil {
		return false, false
	}
	start := c.anchor.pos
	end := start + c.anchor.size + afterH1Text
	return sh.pos >= start, sh.pos >= start-nearBefore && sh.pos <= end
}

// nearBefore is how much text above the headline a date may stand and be
// the headline's (a section name and a date over it).
const nearBefore = 120

// newCollector is a collector that has walked nothing yet.
func newCollector() collector {
	return collector{metas: make(map[string][]string, 32), micro: map[string][]string{}}
}

// finish completes, on a copy, what the walk of doc found; host is the
// page's host name ("" when unknown), a name of the site in its titles.
// The copy leaves c as the walk left it, so finishing it again gives the
// same.
func (w *collector) finish(doc *html.Node, host string) *collector {
	c := new(collector)
	*c = *w
	c.doc, c.host = doc, strings.TrimPrefix(host, "www.")
	if c.host != "" { // without an address there is nothing to look up, and the error costs more than a lookup
		if d, err := publicsuffix.EffectiveTLDPlusOne(c.host); err == nil {
			c.host = d // a title names the site, not the host: "GAME CHANGER | Newegg.com"
		}
	}
	c.warnings = c.warnings[:len(c.warnings):len(c.warnings)] // appends copy
	c.buf = nil                                               // the walk's own
	c.ld = parseLD(c.ldTexts, &c.warnings)
	c.site = c.siteName()
	c.site.val = clip(c.site.val)
	if c.site.val == "" {
		c.site = c.siteFromTitle()
	}
	c.refs = c.titleRefs()
	c.keepSubtitles()
	c.refCuts = make([]string, len(c.refs))
	c.anchor, c.anchorCut, c.agreed = c.headline(c.site.val)
	return c
}

func (c *collector) add(m map[string][]string, key, val string) {
	key = strings.ToLower(strings.TrimSpace(key))
	val = strings.TrimSpace(val)
	if key == "" || val == "" || len(m[key]) >= maxValues || c.kept+len(val) > maxTotal {
		return
	}
	c.kept += len(val)
	m[key] = append(m[key], val)
}

// walk visits the subtree of n in document order, as extract's
// segmenter shows a tree to a Visitor (see Collector).
func (c *collector) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		c.text(n)
		return
	case html.ElementNode:
		if !c.enter(n) {
			return
		}
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.walk(ch)
	}
	if n.Type == html.ElementNode {
		c.leave(n)
	}
}

// text reads a text node. Below an element whose class names a comment
// section the texts are the commenters': no date line is read there.
func (c *collector) text(n *html.Node) {
	t := strings.TrimSpace(n.Data)
	if t == "" {
		return
	}
	if len(c.prefixed) < maxKept {
		if w := openingWord(t); w != "" && startsByWord(w) {
			c.byLines(n)
		}
	}
	if c.comments == nil {
		if c.labelledDate == "" {
			c.dateLabel(t)
		}
		if len(c.prefixed) < maxKept {
			c.credit(n, t)
		}
		for _, h := range c.heads {
			h.follow(t)
		}
		if len(c.heads) == c.homeHeads {
			for _, h := range c.subs {
				h.follow(t)
			}
		}
	}
	c.pos += len(t) + 1
}

// heading is the heading element n with its text, nil when it has none.
func (c *collector) heading(n *html.Node) *heading {
	f := folder{b: c.buf[:0], max: maxTotal, runOn: true}
	f.walk(n)
	c.buf = f.b
	// Documentation generators end a heading with its permalink, a
	// pilcrow (Sphinx, MkDocs).
	t := strings.TrimSpace(strings.TrimRight(string(f.b), "¶"))
	if t == "" {
		return nil
	}
	h := &heading{node: n, text: t, size: len(t), pos: c.pos, home: homeLink(n)}
	body := headingBody(n)
	start := body.FirstChild
	if rest, named := afterKicker(body); rest != nil {
		r := c.headingPart(rest, nil)
		if nr := len(words(r)); nr >= 2 && (named || len(words(t))-nr < nr) { // an unnamed kicker has fewer words
			h.text, start = r, rest
		}
	}
	// What ends the heading's element and is no part of its title: a
	// count of its comments, the page's date line (end: the first of
	// them; nil for none).
	var end *html.Node
	if n := trailingCount(body, nil); n != nil {
		if r := c.headingPart(start, n); len(words(r)) >= 2 {
			h.text, end = r, n
		}
	}
	h.text = withoutSourceNote(h.text)
	if d := trailingDate(body, end); d != nil {
		if r := c.headingPart(start, d); len(words(r)) >= 2 {
			h.text, end = r, d
			if len(c.shown) < maxShown {
				c.shown = append(c.shown, shown{text: c.shortText(d, maxDateLine), hint: hint(d), pos: c.pos})
			}
		}
	}
	if sub := trailingSubtitle(body, end); sub != nil {
		if r := c.headingPart(start, sub); len(words(r)) >= 2 {
			h.withSub, h.text = h.text, r
			h.sub = c.headingPart(sub, sub.NextSibling)
		}
	}
	return h
}

// withoutSourceNote is a heading's text t without the note of the site
// its story comes from, which a news aggregator sets after the headline
// ("… Guarantee Jobs (latimes.com)"), when two words or more are left.
func withoutSourceNote(t string) string {
	if !strings.HasSuffix(t, ")") {
		return t
	}
	i := strings.LastIndexByte(t, '(')
	if i <= 0 || !domainName.MatchString(strings.TrimSpace(t[i+1:len(t)-1])) {
		return t
	}
	if rest := strings.TrimRight(t[:i], " \u00a0"); len(words(rest)) >= 2 {
		return rest
	}
	return t
}

// lastBefore is the last element among the children of n before end
// (nil: of them all) when some text stands before it; nil otherwise.
func lastBefore(n, end *html.Node) *html.Node {
	last := shownBack(n.LastChild)
	if end != nil {
		last = shownBack(end.PrevSibling)
	}
	if last == nil || last.Type != html.ElementNode || shownBack(last.PrevSibling) == nil {
		return nil
	}
	return last
}

// trailingDate is the last element of a heading's element n before end
// (nil: of them all) when it is a date line alone ("<h1>Вагон сошел с
// рельсов&nbsp;<span> 06.01.12 08:49</span></h1>"): the page's date, set
// in its headline, and no part of the title; nil when there is none.
func trailingDate(n, end *html.Node) *html.Node {
	last := lastBefore(n, end)
	if last == nil {
		return nil
	}
	f := folder{max: maxDateLine}
	if f.walk(last) && dateOnly(string(f.b)) {
		return last
	}
	return nil
}

// trailingCount is the last element of a heading's element n before end
// when it counts the page's comments: its class or id, or the fragment
// it (or the link it wraps) links to, names them, and its short text has
// a number
// ("…<a class=\"count-comments-link\" href=\"#comment\">Комментарии: 12</a></h1>").
func trailingCount(n, end *html.Node) *html.Node {
	last := lastBefore(n, end)
	if last == nil {
		return nil
	}
	link := last
	if only := soleElement(last); only != nil {
		link = only // <span><a href="/story/1#comments">87</a></span>
	}
	href := strings.ToLower(attr(link, "href"))
	if !strings.Contains(hint(last), "comment") && !strings.Contains(href, "#comment") {
		return nil
	}
	f := folder{max: 40}
	if f.walk(last) && strings.ContainsAny(string(f.b), "0123456789") {
		return last
	}
	return nil
}

// dateOnly says whether t is a date line and nothing more: a date (two
// digits of a year will do, "06.01.12"), a time, a weekday's or a
// month's name and a label, at most three words of letters.
func dateOnly(t string) bool {
	if _, ok := findDate(t); !ok && !shortYearRe.MatchString(t) {
		return false
	}
	letters := 0
	for range strings.FieldsFuncSeq(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if letters++; letters > 3 {
			return false
		}
	}
	return true
}

// keepSubtitles gives back their subtitle to the headings whose
// subtitle a structured title of the page has too ("What Tutoring Is -
// Choosing a Good Tutor" over an <h1> and its subtitle): the page names
// itself by both. Where no structured title has it, the subtitle is the
// standfirst set in the headline's element.
func (c *collector) keepSubtitles() {
	for _, hs := range [][]*heading{c.heads, c.subs} {
		for _, h := range hs {
			if h.sub == "" {
				continue
			}
			sub := strings.ToLower(h.sub)
			if slices.ContainsFunc(c.refs, func(r valued) bool { return strings.Contains(strings.ToLower(r.val), sub) }) {
				h.text = h.withSub
			}
		}
	}
}

// headingPart is the text of the nodes of a heading from first up to
// stop (nil: to the end), without the separators that open or end it;
// a guillemet stays, a quotation's mark as often as a separator
// ("»Gute Löhne reichen nicht«").
func (c *collector) headingPart(first, stop *html.Node) string {
	f := folder{b: c.buf[:0], max: maxTotal, runOn: true}
	f.walkFrom(first, stop)
	c.buf = f.b
	return strings.Trim(strings.TrimRight(string(f.b), "¶"), partMarks)
}

// partMarks are the marks headingPart trims: the separators but the
// guillemet, and white space.
var partMarks = strings.ReplaceAll(titleSeparatorMarks, "»", "") + " "

// headingBody is the element that holds a heading's text: the heading
// n, or the element it wraps whole (<h1><span itemprop="headline">…),
// down to three levels.
func headingBody(n *html.Node) *html.Node {
	for range 3 {
		only := soleElement(n)
		if only == nil {
			return n
		}
		n = only
	}
	return n
}

// soleElement is the one element n holds when it shows nothing else
// (blank nodes aside), nil otherwise.
func soleElement(n *html.Node) *html.Node {
	only := shownFrom(n.FirstChild)
	if only == nil || only.Type != html.ElementNode || shownFrom(only.NextSibling) != nil {
		return nil
	}
	return only
}

// homeLink is the address a heading n links to when the heading is that
// one link as a whole and the address names a front page, a site's root
// ("/", "https://blog.example.org/"): the site's name in its page
// header, which a blog's or a small site's theme sets as an <h1>
// (WordPress's, Blogger's) above the post's own <h1> or <h2>. "" for any
// other heading. Whether an absolute address is the page's own site is
// told once the page's address is known (namesSite).
func homeLink(n *html.Node) string {
	for range 4 {
		only := soleElement(n)
		if only == nil {
			return ""
		}
		if only.DataAtom == atom.A {
			href := strings.TrimSpace(attr(only, "href"))
			if u, err := url.Parse(href); err == nil && u.RawQuery == "" && u.Fragment == "" &&
				(u.Path == "/" || u.Host != "" && u.Path == "") && (u.Scheme == "" || u.Scheme == "http" || u.Scheme == "https") {
				return href
			}
			return ""
		}
		n = only
	}
	return ""
}

// shownFrom is n or the first sibling after it that is no blankNode;
// shownBack is n or the first one before it. Nil when there is none.
func shownFrom(n *html.Node) *html.Node {
	for n != nil && blankNode(n) {
		n = n.NextSibling
	}
	return n
}

func shownBack(n *html.Node) *html.Node {
	for n != nil && blankNode(n) {
		n = n.PrevSibling
	}
	return n
}

// blankNode says whether n adds nothing to a heading's text: white
// space, a comment, a style sheet or a script.
func blankNode(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		return strings.TrimFunc(n.Data, unicode.IsSpace) == "" // a no-break space too
	case html.CommentNode:
		return true
	case html.ElementNode:
		return n.DataAtom == atom.Style || n.DataAtom == atom.Script
	}
	return false
}

// trailingSubtitle is the subtitle that ends a heading's element n: its
// last element when its class or id says subtitle ("<small
// class=\"article-subtitle\">", Amazon's "productSubtitle"), or a
// <small> set below the headline by a <br> (a date and the categories);
// nil when there is none. A date line that ends the heading (end, nil
// for none) stands after the subtitle.
func trailingSubtitle(n, end *html.Node) *html.Node {
	last := shownBack(n.LastChild)
	if end != nil {
		last = shownBack(end.PrevSibling)
	}
	if last == nil || last.Type != html.ElementNode {
		return nil
	}
	if strings.Contains(hint(last), "subtitle") {
		return last
	}
	if last.DataAtom != atom.Small {
		return nil
	}
	if prev := shownBack(last.PrevSibling); prev != nil && prev.DataAtom == atom.Br {
		return last
	}
	return nil
}

// kickerWords name, in a class or id, the kicker that opens a heading:
// the topic line set above the headline in the same element ("<span
// class=\"dachzeile\">Interne Unterlagen im Netz</span> <span
// class=\"headline\">Daten von Rheinmetall gehackt</span>"). The
// headline is what follows it. A forum thread's prefix label ("News",
// "Question") is no kicker: as many titles keep it as drop it.
var kickerWords = []string{"kicker", "dachzeile", "roofline", "overline", "topline", "toptitle",
	"supertitle", "eyebrow", "subtitle", "subheadline", "subheading", "sub-heading"}

// afterKicker is the first node of heading n after the kicker that opens
// it and the separators after the kicker; nil when n opens with no
// kicker. The kicker is n's first element when kicker says so (named),
// or when an element of its own sets a separator after it ("<span
// class=\"visually-hidden\"> – </span>"): then the heading takes the
// rest only when the kicker has fewer words.
func afterKicker(n *html.Node) (rest *html.Node, named bool) {
	k := shownFrom(n.FirstChild)
	if k == nil || k.Type != html.ElementNode {
		return nil, false
	}
	named = kicker(k)
	set := endsWithSeparator(k) // or an element of its own sets a separator after k
	for ch := k.NextSibling; ch != nil; ch = ch.NextSibling {
		switch {
		case blankNode(ch), ch.DataAtom == atom.Br,
			ch.Type == html.TextNode && strings.Trim(ch.Data, titleSeparatorMarks+" \t\r\n\u00a0") == "":
		case ch.Type == html.ElementNode:
			if sep, ok := separatorOnly(ch); ok {
				set = set || sep
				continue
			}
			fallthrough
		default:
			if !named && !set {
				return nil, false
			}
			return ch, named
		}
	}
	return nil, false
}

// endsWithSeparator says whether the text of n ends with a separator
// mark: a section's name set with its separator in one element before
// the headline ("<div class=\"entry-section\"><a>Local News | </a></div>").
func endsWithSeparator(n *html.Node) bool {
	f := folder{max: 200}
	if !f.walk(n) {
		return false
	}
	t := strings.TrimRight(string(f.b), " \t\r\n\u00a0")
	r, _ := utf8.DecodeLastRuneInString(t)
	return t != "" && strings.ContainsRune(titleSeparatorMarks, r)
}

// kicker says whether the element that opens a heading is its kicker
// (see afterKicker).
func kicker(n *html.Node) bool {
	if n.DataAtom == atom.Small {
		next := shownFrom(n.NextSibling)
		return next != nil && next.DataAtom == atom.Br
	}
	h := hint(n)
	return h != "" && slices.ContainsFunc(kickerWords, func(w string) bool { return strings.Contains(h, w) })
}

// separatorOnly says whether the text below n is only separator marks
// (a visually hidden ": " between a kicker and its headline), or none
// (ok); sep reports that it has a mark.
func separatorOnly(n *html.Node) (sep, ok bool) {
	f := folder{max: 16}
	if !f.walk(n) || strings.Trim(string(f.b), titleSeparatorMarks+"\u00a0") != "" {
		return false, false
	}
	return len(f.b) > 0, true
}

// reporterCredit is a Chinese news text's credit of its reporters in
// brackets, at the end of the text or after the dateline: "（记者 胡晓蓉）",
// "据新华社拉萨电（记者 格桑边觉）", "（总台记者 张倩）"; the newsroom may
// stand before the title.
var reporterCredit = regexp.MustCompile(`[（(]\s*[\p{Han}·・]{0,12}?(?:记者|記者)[\s:：]*([^（()）]{2,60})[）)]`)

// maxLabelLine is the longest text (in bytes) whose author label after
// other fields is read: a line of a page's fields, not a paragraph.
const maxLabelLine = 120

// reporterLine is a text that opens with a newsroom's reporter credit:
// "光明日报记者 王建宏 张文攀", "新华日报·交汇点记者 徐睿翔", "□ 本报记者
// 葛灵丹", "顶端新闻·河南商报记者马俊峰/文", "新华网黑龙江频道  记者  伊琳"
// (with no-break spaces). What stands before the title names a
// newspaper, an agency, a station or a site (it has one of cjkOrgEnds):
// "他告诉记者" opens a sentence. A name written right after the title must
// end at a "/".
var reporterLine = regexp.MustCompile(`^[□■●◎\s\p{Zs}]*([\p{Han}·・]{0,12}?)[\s\p{Zs}]*(?:记者|記者)[\s\p{Zs}:：]*`)

// credit keeps a reporter credit of the text t (reporterCredit,
// reporterLine) as a byline: "记者 " and the names, "、" between them. A
// short text with an author's label after its other fields gives the
// byline from the label on; a label alone, with the next text.
func (c *collector) credit(n *html.Node, t string) {
	if c.aloneLabel != "" {
		// The name after a label that stood alone, in the same element,
		// an element within it or one beside it: "作者：" <!--author-->"赵婕",
		// <em>作者：</em><a>孙伟</a>.
		l, p, a := c.aloneLabel+t, n.Parent, c.aloneIn
		c.aloneLabel = ""
		if len(t) <= maxLabelLine && p != nil && a != nil && (p == a || p.Parent == a || p.Parent == a.Parent) && cjkLabelled(l) {
			c.prefixed = append(c.prefixed, l)
			return
		}
	}
	ji := strings.IndexByte(t, 0xe8)              // the first byte of 记 and 記 in UTF-8
	if ji < 0 && strings.IndexByte(t, 0xe4) < 0 { // of 作
		return // most of a page's texts, passed over in two quick scans
	}
	if i := strings.Index(t, "作者"); i >= 0 && len(t) <= maxLabelLine {
		rest := t[i:]
		if loc := byPrefix.FindStringIndex(rest); loc != nil && loc[1] == len(rest) {
			c.aloneLabel, c.aloneIn = rest, n.Parent // the label alone: the name is the next text
			return
		}
		if i > 0 && cjkLabelled(rest) {
			// "时间：2004年10月21日14:18 作者：郭励弘": the label after the
			// line's other fields.
			c.prefixed = append(c.prefixed, rest)
			return
		}
	}
	if c.editor == nil && len(t) <= maxLabelLine {
		if names := editorCredit(t); len(names) > 0 {
			c.editor = names
			return
		}
	}
	if ji < 0 || !strings.Contains(t[ji:], "记者") && !strings.Contains(t[ji:], "記者") {
		return
	}
	var names []string
	if m := reporterCredit.FindStringSubmatch(t); m != nil {
		if !photoCredit(m[1]) {
			names = creditNames(m[1])
		}
	} else if m := reporterLine.FindStringSubmatchIndex(t); m != nil && strings.ContainsAny(t[m[2]:m[3]], cjkOrgEnds) {
		names = creditNames(t[m[1]:])
		if len(names) > 0 && (strings.HasSuffix(t[:m[1]], "记者") || strings.HasSuffix(t[:m[1]], "記者")) && !strings.HasPrefix(t[m[1]+len(names[0]):], "/") {
			// With nothing between the title and the name, only a "/"
			// after it ("马俊峰/文") marks it off as a name: "新华社记者看东北"
			// is a headline.
			names = nil
		}
	}
	if len(names) > 0 {
		c.prefixed = append(c.prefixed, "记者 "+strings.Join(names, "、"))
	}
}

// editorLabels are the labels of a Chinese news page's editor's credit
// ("责任编辑：魏喆", "编辑：苏亮"), longest first.
var editorLabels = []string{"责任编辑", "責任編輯", "责编", "責編", "编辑", "編輯"}

// editorCredit reads the names of an editor's credit in t: one of
// editorLabels, at the start of t or after a character that is no
// ideograph ("总编辑" is the editor-in-chief, "网站编辑" the site's), a
// colon, and names of ideographs (cjkNames); nil for none.
func editorCredit(t string) []string {
	for _, l := range editorLabels {
		i := strings.Index(t, l)
		if i < 0 {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(t[:i]); i > 0 && hanOrKana(r) {
			return nil
		}
		rest := strings.TrimLeft(t[i+len(l):], " \u3000\u00a0")
		if rest, ok := cutColon(rest); ok {
			return cjkNames(rest)
		}
		return nil
	}
	return nil
}

// cutColon cuts the colon, either width, that opens s.
func cutColon(s string) (string, bool) {
	if r, ok := strings.CutPrefix(s, "："); ok {
		return r, true
	}
	return strings.CutPrefix(s, ":")
}

// creditNames reads the names that open s, the text after a reporter's
// title: names of ideographs (isCJKName) apart with white space or "、",
// each followed by one of those, the end, a "/" ("马俊峰/文") or a closing
// bracket; a role title between them goes ("记者 柳德新 通讯员 彭娟"). A
// word followed by anything else opens a sentence ("土豆，听名字就…") and
// ends the names without being one; so do the words of a report ("北京报道",
// "发自北京").
func creditNames(s string) []string {
	var out []string
	for {
		s = strings.TrimLeftFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '、' })
		end := strings.IndexFunc(s, func(r rune) bool { return !hanOrKana(r) && r != '·' && r != '・' })
		if end < 0 {
			end = len(s)
		}
		name, rest := s[:end], s[end:]
		next, _ := utf8.DecodeRuneInString(rest)
		role := slices.Contains(cjkRoles, name) // "记者 柳德新 通讯员 彭娟"
		if name == "" || rest != "" && !unicode.IsSpace(next) && !strings.ContainsRune("、/／)）", next) ||
			!role && (!isCJKName(name) || reportWords.MatchString(name)) {
			return out
		}
		if !role {
			out = append(out, name)
		}
		if rest == "" || !unicode.IsSpace(next) && next != '、' {
			return out
		}
		s = rest
	}
}

// photoCredit says whether a bracketed credit names a photographer
// ("（人民网记者 王泓漓 摄）"), not a writer as well ("文/摄").
func photoCredit(s string) bool {
	s = strings.TrimSpace(s)
	return (strings.HasSuffix(s, "摄") || strings.HasSuffix(s, "攝")) && !strings.Contains(s, "文")
}

// reportWords are the words of a dateline that follow a reporter's name.
var reportWords = regexp.MustCompile(`报道|報道|报导|報導|发自|發自|电$|電$|摄$|攝$`)

// enter reads an element; false skips its subtree.
func (c *collector) enter(n *html.Node) bool {
	inComments := c.comments != nil
	k, children := c.element(n, inComments)
	if !children {
		return false
	}
	if !inComments && k.comments {
		c.comments = n
	}
	return true
}

// leave ends an element that enter read.
func (c *collector) leave(n *html.Node) {
	if c.comments == n {
		c.comments = nil
	}
	if c.menu == n {
		c.menu = nil
	}
	switch n.DataAtom {
	case atom.H3, atom.H4, atom.H5, atom.H6:
		if len(c.heads) > 0 {
			c.cardEnd = c.pos
		}
	}
}

// cardLine is how much text may stand between a minor heading and the
// byline of the item it heads.
const cardLine = 200

// cardByline says whether t, a Chinese or Japanese byline (cjkLabelled)
// that starts here, follows a minor heading (<h3> to <h6>) after the
// page's headline closely: the author of an item the page lists or
// promotes ("<h3>話語操縱術</h3><div class="author">作者：凱倫．伯格</div>" in a
// news page's box of books: 13 of daniel-zh's pages), not the page's.
// Bylines in other scripts are left alone: on the trafilatura set the
// test took the right author from 14 pages whose headline an <h3>
// follows.
func (c *collector) cardByline(t string) bool {
	return c.cardEnd > 0 && c.pos-c.cardEnd <= cardLine && cjkLabelled(t)
}

// element records what n says and returns what its attributes say
// (readKinds); false skips its children. The elements of the head,
// scripts and styles are read by their tag and their attributes'
// kinds are not asked.
func (c *collector) element(n *html.Node, inComments bool) (kinds, bool) {
	switch n.DataAtom {
	case atom.Html:
		c.htmlLang = strings.TrimSpace(attr(n, "lang"))
		if c.htmlLang == "" {
			c.htmlLang = strings.TrimSpace(attr(n, "xml:lang"))
		}
	case atom.Title:
		if c.titleTag == "" {
			c.titleTag = c.textOf(n)
		}
		return kinds{}, false
	case atom.Meta:
		// One pass over the attributes: a page has hundreds of <meta>.
		var content, value, itemprop string
		var keys [3]string // name, property, http-equiv
		var seen [6]bool
		for i := range n.Attr {
			a := &n.Attr[i]
			j, v := -1, &content
			switch a.Key {
			case "content":
				j = 0
			case "value":
				j, v = 1, &value
			case "itemprop":
				j, v = 2, &itemprop
			case "name":
				j, v = 3, &keys[0]
			case "property":
				j, v = 4, &keys[1]
			case "http-equiv":
				j, v = 5, &keys[2]
			}
			if j >= 0 && !seen[j] { // the first of its key, as attr reads it
				seen[j], *v = true, a.Val
			}
		}
		if content == "" {
			content = value
		}
		for _, k := range keys {
			for key := range strings.FieldsSeq(k) {
				c.add(c.metas, key, content)
			}
		}
		for key := range strings.FieldsSeq(itemprop) {
			if itemRead(key) {
				c.add(c.micro, key, content)
			}
		}
		return kinds{}, false
	case atom.Link:
		rel := strings.ToLower(attr(n, "rel"))
		if c.canon == "" && hasWord(rel, "canonical") {
			c.canon = strings.TrimSpace(attr(n, "href"))
		}
		if ip := attr(n, "itemprop"); ip != "" && itemRead(ip) {
			c.add(c.micro, ip, attr(n, "href"))
		}
		return kinds{}, false
	case atom.Base:
		if c.base == nil {
			if u, err := url.Parse(strings.TrimSpace(attr(n, "href"))); err == nil && attr(n, "href") != "" {
				c.base = u
			}
		}
		return kinds{}, false
	case atom.Script:
		if ascii.ContainsFold(attr(n, "type"), "ld+json") {
			if t := c.textOf(n); t != "" {
				c.ldTexts = append(c.ldTexts, t)
			}
		}
		return kinds{}, false
	case atom.Style, atom.Template, atom.Svg:
		return kinds{}, false
	case atom.H1:
		if len(c.heads) < maxHeads && !inComments {
			if h := c.heading(n); h != nil {
				c.heads = append(c.heads, h)
				if h.home != "" {
					c.homeHeads++
				}
			}
		}
	case atom.H2:
		if len(c.heads) == c.homeHeads && len(c.subs) < maxHeads && !inComments {
			if h := c.heading(n); h != nil {
				c.subs = append(c.subs, h)
			}
		}
	case atom.Time:
		if len(c.shown) < maxShown && !inComments {
			h := hint(n)
			if n.Parent != nil {
				h += " " + hint(n.Parent)
			}
			if _, pub := attrOK(n, "pubdate"); pub {
				h += " pubdate"
			}
			if dt := strings.TrimSpace(attr(n, "datetime")); dt != "" {
				c.shown = append(c.shown, shown{text: dt, value: true, hint: h, pos: c.pos})
			} else if t := c.textOf(n); t != "" {
				c.shown = append(c.shown, shown{text: t, hint: h, pos: c.pos})
			}
		}
	}
	k := readKinds(n)
	if n.DataAtom == atom.A && k.rel != "" && hasWord(strings.ToLower(k.rel), "tag") && len(c.relTags) < maxValues {
		if t := c.textOf(n); t != "" && len(t) < maxLine {
			c.relTags = append(c.relTags, t)
		}
	}
	if k.menu && c.menu == nil {
		c.menu = n // left in leave: an element read here has its children read
	}
	if k.author || k.date {
		k.hint = hint(n) // built only for the few elements that need it
	}
	if k.itemprop != "" {
		c.microdata(n, k.itemprop)
	}
	if k.property != "" && itemRead(k.property) {
		c.add(c.micro, k.property, c.propertyValue(n, k.property)) // RDFa
	}
	if !inComments && c.menu == nil {
		c.lines(n, k)
	}
	return k, true
}

// menuList says whether elements of this kind are a menu when their
// class or id names one ("sub-menu", "menu-item", "dropdown-menu"). A
// site's menu is such a list or list item, a <nav>, or an element whose
// role says navigation or menu (menuRole): readKinds says so
// (kinds.menu) in its one pass over the attributes. What a menu's links
// say ("By Manufacturer", an author's archive among the site's sections)
// is no byline.
func menuList(a atom.Atom) bool { return a == atom.Ul || a == atom.Ol || a == atom.Li }

// menuRole says whether a role attribute's value makes its element a
// menu.
func menuRole(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "navigation", "menu", "menubar":
		return true
	}
	return false
}

// microdata records an itemprop element's value; an author with its own
// item scope is recorded by its name. The author of a comment or an
// answer (an item of schema.org's Comment or Answer type) is a reply's,
// not the page's: a forum thread marks its replies so and its opening
// post often not at all.
func (c *collector) microdata(n *html.Node, props string) {
	_, scoped := attrOK(n, "itemscope")
	for p := range strings.FieldsSeq(props) {
		if !itemRead(p) {
			continue // its value would not be read: an articleBody's text is not copied
		}
		if strings.EqualFold(p, "author") && inReply(n) {
			continue
		}
		var v string
		if !scoped {
			v = c.propertyValue(n, p)
		} else {
			for d := range n.Descendants() {
				if d.Type == html.ElementNode && strings.EqualFold(attr(d, "itemprop"), "name") {
					v = c.itemValue(d, c.room())
					break
				}
			}
			if v == "" && strings.EqualFold(p, "author") {
				v = c.textUpTo(n, c.room())
			}
		}
		c.add(c.micro, p, v)
	}
}

// itemKeys are the microdata and RDFa properties the rules read (item),
// lower case; the values of the others are not collected.
var itemKeys = func() map[string]bool {
	m := set("author", "image", "articlesection", "keywords")
	for _, ks := range [][]string{publishedKeys, modifiedKeys, descriptionKeys, siteNameKeys, appNameKeys} {
		for _, k := range ks {
			m[k] = true
		}
	}
	return m
}()

// itemRead says whether the rules read a microdata or RDFa property's
// values: one of itemKeys, or a publication date in a namespace of its
// own (namespacedDate).
func itemRead(key string) bool {
	key = strings.ToLower(strings.TrimSpace(key))
	return itemKeys[key] || namespacedDate(key)
}

// item are the values of a microdata or RDFa property. The key must be
// one itemRead accepts: the others' values are not collected.
func (c *collector) item(key string) []string {
	if !itemRead(key) {
		panic("metadata: the microdata property " + key + " is read but not collected (itemKeys)")
	}
	return c.micro[key]
}

// inReply says whether the item an itemprop element n belongs to (its
// nearest ancestor with an item scope) is a Comment or an Answer.
func inReply(n *html.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type != html.ElementNode {
			continue
		}
		if _, ok := attrOK(a, "itemscope"); ok {
			for t := range strings.FieldsSeq(attr(a, "itemtype")) { // several types may be named
				t = strings.TrimRight(t, "/")
				t = t[strings.LastIndexByte(t, '/')+1:]
				if strings.EqualFold(t, "Comment") || strings.EqualFold(t, "Answer") {
					return true
				}
			}
			return false
		}
	}
	return false
}

// kinds is what an element's attributes say (readKinds): whether its
// class, id, rel or itemprop name an author line, a date line or a
// comment section, with the hint itself when they name an author or a
// date line; and its itemprop and property.
type kinds struct {
	author, date, comments bool
	menu                   bool // a site's menu (see menuList)
	hint                   string
	itemprop, property     string
	rel                    string // the first rel attribute's value
}

// lines keeps the short author and date lines a page shows near its
// headline, by what their class or id say.
func (c *collector) lines(n *html.Node, k kinds) {
	author, date, h := k.author, k.date, k.hint
	if !author && !date {
		return // a byline by its words: see byLines
	}
	t := c.shortText(n, maxLine)
	if t == "" {
		return
	}
	if author && len(c.bylines) < maxKept && !c.cardByline(t) && !containsAny(h, "author-bio", "authorbio", "about-author", "author-desc") &&
		n.DataAtom != atom.Button && n.DataAtom != atom.Form && n.DataAtom != atom.Input && n.DataAtom != atom.Select {
		c.bylines = append(c.bylines, byline{c.nameIn(n, t), hasClass(n, "vcard")})
	}
	if date && !author && len(c.datedBy) < maxKept && mayOpenByline(t) && byPrefix.MatchString(t) && !c.cardByline(t) {
		c.datedBy = append(c.datedBy, t)
	}
	if (date || author) && len(c.shown) < maxShown && n.DataAtom != atom.Time {
		c.shown = append(c.shown, shown{text: t, hint: h, pos: c.pos})
	}
}

// byline is the text of an element whose class says author; card says
// that the element is an hCard (class "vcard": WordPress's "author
// vcard"), which holds a name or a user name and nothing else.
type byline struct {
	text string
	card bool
}

// hasClass says whether one of n's classes is class, in any case.
func hasClass(n *html.Node, class string) bool {
	v, ok := attrOK(n, "class")
	return ok && slices.ContainsFunc(strings.Fields(v), func(c string) bool { return strings.EqualFold(c, class) })
}

// nameIn is the name in a byline element whose text is t: the text of a
// descendant whose class says name ("author-name", "author__name"), else
// of its first child element when it has several (the name, then a role
// or a date: "Liza Burke" "Marketing Director"), else t.
func (c *collector) nameIn(n *html.Node, t string) string {
	if v, ok := c.namedIn(n); ok {
		return v
	}
	var kids []string
	var first *html.Node
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.ElementNode:
			if v := c.shortText(ch, maxLine); v != "" {
				if first == nil {
					first = ch
				}
				kids = append(kids, v)
			}
		case html.TextNode:
			if strings.TrimSpace(ch.Data) != "" {
				return t // the name is the element's own text, beside its children
			}
		}
	}
	if len(kids) > 1 {
		if !inline(first.DataAtom) {
			// A block of its own holds the names and the paper
			// ("<div><span>Ann Lee</span> <span>USA TODAY</span></div>"
			// above the date): the names are its first child, unless
			// that names no one ("<div>By</div><div>Ann Lee</div>").
			v := c.nameIn(first, kids[0])
			if slices.ContainsFunc(personNames(cleanAuthors([]string{v})), func(n string) bool { return len(words(n)) >= 2 }) {
				return v
			}
		}
		return kids[0]
	}
	return t
}

// namedIn is the text of the first descendant of n whose class or
// itemprop says name, or of the innermost such element within it: a
// "nameContainer" holds the "name" and the "jobTitle" beside it.
func (c *collector) namedIn(n *html.Node) (string, bool) {
	for d := range n.Descendants() {
		if d == n || d.Type != html.ElementNode || !saysName(d) {
			continue
		}
		v := c.shortText(d, maxLine)
		if v == "" {
			continue
		}
		if inner, ok := c.namedIn(d); ok {
			return inner, true
		}
		return v, true
	}
	return "", false
}

// saysName says whether an element's class or itemprop has "name" in it.
func saysName(n *html.Node) bool {
	for _, a := range n.Attr {
		if (a.Key == "class" || a.Key == "itemprop") && strings.Contains(strings.ToLower(a.Val), "name") {
			return true
		}
	}
	return false
}

// dateLabels open a line that gives the page's date: "Datum: 03.11.2021",
// "Published: 4 May 2020", "Mise en ligne 23 mai 2019".
var dateLabels = []string{"date", "datum", "published", "publication date", "posted on", "veröffentlicht",
	"erstellt", "erschienen", "publié", "mise en ligne", "fecha", "publicado", "data", "pubblicato",
	"опубликовано", "дата", "发布时间", "发布日期", "日期",
	// The other languages of langid.DefaultLanguages.
	"gepubliceerd", "geplaatst", "opublikowano", "data publikacji", "publikováno", "zveřejněno", "publikované",
	"zverejnené", "yayınlanma", "yayın tarihi", "tarih", "publicerad", "publicerat", "publiceret", "udgivet",
	"publisert", "julkaistu", "közzétéve", "megjelent", "dátum", "publicat", "опубліковано", "публикувано",
	"δημοσιεύθηκε", "δημοσίευση", "ημερομηνία", "diterbitkan", "dipublikasikan", "tanggal", "ngày đăng", "objavljeno",
	"paskelbta", "publicēts", "datums", "avaldatud", "kuupäev", "פורסם", "تاريخ النشر", "نشر في", "प्रकाशित",
	"เผยแพร่", "公開日", "投稿日", "掲載日", "日付", "등록일", "작성일", "게시일", "입력", "發布時間", "發佈時間",
	"發表時間", "发表时间", "發布日期"}

// dateLabel looks for a date named by a label: in the label's own text,
// or in one of the two texts after a label that stands alone.
func (c *collector) dateLabel(t string) {
	if c.labelWait > 0 {
		c.labelWait--
		if len(t) <= maxDateLine {
			if _, ok := findDate(t); ok {
				c.labelledDate = t
				return
			}
		}
	}
	if len(t) > max(maxDateLine, maxLabelLine) {
		return // a paragraph, not a line of fields
	}
	colon := strings.ContainsRune(t, ':') || strings.Contains(t, "：")
	if len(t) <= maxDateLine && (colon || publishedOn(t)) && c.labelAt(t) {
		return
	}
	if colon && len(t) <= maxLabelLine {
		// A line of labelled fields: "作者： 来源： 发布日期： 7/5/2005
		// 9:23:57 PM", "Author: Ann Lee Date: 03.11.2021". The date's
		// label may follow the other fields, after white space.
		space := false
		for i, r := range t {
			if space && !isSpace(r) && len(dateLabelIndex[t[i]]) > 0 && c.labelAt(t[i:]) {
				return
			}
			space = isSpace(r)
		}
	}
}

// labelAt reads a date label that opens t (dateLabels, then a colon or
// white space): the date after it in t, or in the texts that follow.
func (c *collector) labelAt(t string) bool {
	for _, l := range dateLabelIndex[t[0]] {
		if rest, ok := cutPrefixFold(t, l); ok && (rest == "" || rest[0] == ':' || rest[0] == ' ' || strings.HasPrefix(rest, "：")) {
			if _, ok := findDate(t); ok {
				c.labelledDate = t
			} else {
				c.labelWait = 2
			}
			return true
		}
	}
	return false
}

// publishedOnLabels are labels that name a date without a colon, a verb
// and its preposition: "Veröffentlicht am 16.08.2019", "Published on
// 4 May 2020", "Mise en ligne 23 mai 2019".
var publishedOnLabels = []string{"mise en ligne", "published on", "posted on", "veröffentlicht am", "erschienen am",
	"publié le", "pubblicato il", "publicado el", "publicado em", "опубликовано", "gepubliceerd op", "opublikowano",
	"publicerad", "publiceret", "publisert", "julkaistu", "publicat pe", "опубліковано", "δημοσιεύθηκε",
	"diterbitkan pada", "đăng lúc", "objavljeno", "입력"}

// dateLabelIndex and publishedOnIndex hold dateLabels and
// publishedOnLabels by the first byte of a text that may open with them:
// a cheap test passes over most texts, and the few others are compared
// with the labels of their first byte alone.
var (
	dateLabelIndex   = labelIndex(dateLabels)
	publishedOnIndex = labelIndex(publishedOnLabels)
)

// labelIndex files words by the first bytes they may open a text with,
// in either case (cutPrefixFold), each list in the order of words.
func labelIndex(words []string) (x [256][]string) {
	for _, w := range words {
		for _, b := range firstBytesOf(w) {
			x[b] = append(x[b], w)
		}
	}
	return x
}

// firstBytes has the first bytes of words in either case.
func firstBytes(words []string) (t [256]bool) {
	for _, w := range words {
		for _, b := range firstBytesOf(w) {
			t[b] = true
		}
	}
	return t
}

// firstBytesOf are the first bytes w may open with in either case: a
// capital may open with another byte than its small letter ("Σ", "σ").
func firstBytesOf(w string) []byte {
	var out []byte
	r, _ := utf8.DecodeRuneInString(w)
	for f := r; ; {
		if b := utf8.AppendRune(nil, f)[0]; !slices.Contains(out, b) {
			out = append(out, b)
		}
		if f = unicode.SimpleFold(f); f == r {
			break
		}
	}
	return out
}

// publishedOn says whether t opens with one of publishedOnLabels.
func publishedOn(t string) bool {
	for _, l := range publishedOnIndex[t[0]] {
		if _, ok := cutPrefixFold(t, l); ok {
			return true
		}
	}
	return false
}

// cutPrefixFold is strings.CutPrefix with s in any case (prefix is
// lower case, and its letters have capitals of the same length in UTF-8,
// as those of dateLabels do).
func cutPrefixFold(s, prefix string) (rest string, ok bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// byLines reads, when the text t opens with "By" (or its kin in other
// languages), the elements whose text opens with t: its ancestors, as
// far up as t is the first text they show (opensWithWord). Each whose
// class says neither author nor date (those are read by lines) and
// that is not in a comment section is a byline candidate (byLine),
// the outermost first, as the walk entered them. Starting from the few
// texts that open so costs less than asking every element.
func (c *collector) byLines(t *html.Node) {
	if c.menu != nil || browseLink(t) {
		return // a menu's entry ("By Manufacturer"), no byline
	}
	var found [16]*html.Node
	opening := found[:0]
	for a := t.Parent; a != nil && a.Type == html.ElementNode; a = a.Parent {
		if !c.opensWithWord(a) || c.byText != t {
			break
		}
		opening = append(opening, a)
	}
	// Below the comment section (c.comments, an ancestor of t) lines
	// are not read; the section itself and what holds it are.
	below := c.comments != nil && !slices.Contains(opening, c.comments)
	for i := len(opening) - 1; i >= 0; i-- {
		a := opening[i]
		if k := readKinds(a); !below && !k.author && !k.date {
			c.byLine(a)
		}
		below = below || a == c.comments
	}
}

// browseLink says whether the text t, which opens with "By", is the
// text of a link that leads elsewhere than to an author's archive: the
// link names what it leads to ("By Method", "By Category"), not who
// wrote the page. A byline writes the word before its link ("By <a
// href="/author/ann-lee">Ann Lee</a>"), or links the whole line to the
// author's archive.
func browseLink(t *html.Node) bool {
	for a := t.Parent; a != nil && a.Type == html.ElementNode && inline(a.DataAtom); a = a.Parent {
		if a.DataAtom == atom.A {
			return !authorArchive(attr(a, "href"))
		}
	}
	return false
}

// byLine keeps a short element whose text opens with "By" (or its
// kin in other languages), whatever its class says: "Written by Ann
// Lee", "Von Hans Meier". Only elements whose children are all inline
// are read, so that a line is read once.
func (c *collector) byLine(n *html.Node) {
	if len(c.prefixed) >= maxKept || !inlineOnly(n) {
		return
	}
	// The line ends at its first break after a text: a dateline may
	// follow ("Von Ann Lee und Bob Stone<br>Kakuma").
	var br *html.Node
	text := false // a text stands before ch
	for ch := n.FirstChild; ch != nil && br == nil; ch = ch.NextSibling {
		switch {
		case ch.DataAtom == atom.Br && text:
			br = ch
		case ch.Type == html.TextNode && strings.TrimSpace(ch.Data) != "", ch.Type == html.ElementNode && ch.DataAtom != atom.Br:
			text = true
		}
	}
	f := folder{b: c.buf[:0], max: 100}
	f.walkFrom(n.FirstChild, br)
	c.buf = f.b
	b := f.b // element passes no script here
	if len(b) == 0 || len(b) > 100 || !byPrefix.Match(b) || c.cardByline(string(b)) {
		return
	}
	c.prefixed = append(c.prefixed, string(b))
}

// Words in a class or id that mark an author line and a date line, and
// a comment section, by their first letter (lower case; 0xd0 is the first
// byte of a Cyrillic а-п in UTF-8). valueKinds looks a word up only where a
// value has its first letter.
var hintWords = func() (t [256][]hintWord) {
	for _, w := range []hintWord{
		{"author", hintAuthor}, {"byline", hintAuthor}, {"writer", hintAuthor}, {"autor", hintAuthor},
		{"auteur", hintAuthor}, {"автор", hintAuthor}, {"creator", hintAuthor},
		{"date", hintDate}, {"time", hintDate}, {"publish", hintDate}, {"posted", hintDate},
		{"meta", hintDate}, {"datum", hintDate},
		{"comment", hintComments}, {"respond", hintComments},
	} {
		t[w.word[0]] = append(t[w.word[0]], w)
	}
	return t
}()

// hintSeconds has, for each first letter of hintWords in either case,
// bit b&31 set for each second byte b of a word with that letter (a
// capital has the bits b&31 of its small letter): a cheap test that
// passes over most places of a value, without lower-casing them.
var hintSeconds = func() (t [256]uint32) {
	for f, ws := range hintWords {
		for _, w := range ws {
			t[f] |= 1 << (w.word[1] & 31)
		}
		if 'a' <= f && f <= 'z' {
			t[f-'a'+'A'] = t[f]
		}
	}
	return t
}()

type hintWord struct {
	word string
	kind int
}

const (
	hintAuthor = 1 << iota
	hintDate
	hintComments
)

// readKinds reads an element's attributes once, without allocating
// (hint words compared with ASCII letters in any case).
func readKinds(n *html.Node) kinds {
	k := kinds{menu: n.DataAtom == atom.Nav}
	list := menuList(n.DataAtom)
	found := 0
	for i := range n.Attr {
		a := &n.Attr[i] // not a copy: this runs on every element
		switch a.Key {
		case "class", "id":
			if list && !k.menu {
				k.menu = ascii.ContainsFold(a.Val, "menu")
			}
		case "rel":
			if k.rel == "" {
				k.rel = a.Val
			}
		case "role":
			k.menu = k.menu || menuRole(a.Val)
			continue
		case "itemprop":
			if k.itemprop == "" {
				k.itemprop = a.Val
			}
		case "property":
			if k.property == "" {
				k.property = a.Val
			}
			continue
		default:
			continue
		}
		found |= valueKinds(a.Val)
	}
	k.author, k.date, k.comments = found&hintAuthor != 0, found&hintDate != 0, found&hintComments != 0
	return k
}

// valueKinds are the kinds of hint words in an attribute value.
func valueKinds(v string) int {
	found := 0
	for i := 0; i+1 < len(v); i++ {
		if hintSeconds[v[i]]>>(v[i+1]&31)&1 == 0 {
			continue
		}
		for _, w := range hintWords[lowerByte(v[i])] {
			if found&w.kind == 0 && hasPrefixFold(v[i:], w.word) && !(w.kind == hintComments && statePrefix(v[:i])) {
				found |= w.kind
			}
		}
	}
	return found
}

// statePrefix says whether a class word ends in "has-" or "no-" (and
// their "_" kin): "has-comments" on a post's <article> says that the
// post has comments, not that the element is its comment section.
func statePrefix(before string) bool {
	for _, p := range []string{"has-", "has_", "no-", "no_"} {
		if len(before) >= len(p) && hasPrefixFold(before[len(before)-len(p):], p) &&
			(len(before) == len(p) || !asciiAlnum(before[len(before)-len(p)-1])) {
			return true
		}
	}
	return false
}

func lowerByte(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// hasPrefixFold is strings.HasPrefix with ASCII letters of s in any case
// (w is lower case).
func hasPrefixFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if lowerByte(s[i]) != w[i] {
			return false
		}
	}
	return true
}

// byWords open a byline (byPrefix and authorLabel say the same in full).
var byWords = set("by", "von", "par", "por", "di", "door", "av", "de", "от", "автор", "авторы", "autor", "autorin",
	"autoren", "auteur", "auteurs", "author", "authors", "written", "posted", "published", "reviewed", "edited", "reported",
	"analysis", "opinion", "commentary", "interview",
	"text", "story", "words", "photo", "photos", "veröffentlicht", "geschrieben", "verfasst", "eingestellt", "erstellt", "publié", "écrit",
	"publicado", "escrito", "作者", "著者", "筆者", "执笔", "執筆", "撰文", "文", "撰稿", "记者", "記者",
	"本报记者", "本報記者", "特约记者", "特約記者",
	// Labels that open a byline with a colon (byLabelPrefix).
	"piše", "avtor", "autorius", "autors", "kirjoittaja", "penulis", "yazar", "szerző", "συντάκτης", "tác")

// cjkByWords are the byWords written in ideographs, which a label's
// text may run on from without a space.
var cjkByWords = func() (l []string) {
	for w := range byWords {
		if cjkFirst(w) {
			l = append(l, w)
		}
	}
	slices.Sort(l)
	return l
}()

// byFirsts are the first bytes of byWords, in either case.
var byFirsts = firstBytes(slices.Collect(maps.Keys(byWords)))

// maxByWord is the length in bytes of the longest of byWords.
const maxByWord = len("συντάκτης")

// appendLower appends s lower-cased to buf.
func appendLower(buf []byte, s string) []byte {
	for _, r := range s {
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
	}
	return buf
}

// opensWithWord says whether n's text begins with one of byWords: a
// cheap test before its text is built. The answer for the text found is
// kept: the elements around a text that open with it ask again.
func (c *collector) opensWithWord(n *html.Node) bool {
	d := n.FirstChild
	for d != nil {
		if d.Type == html.ElementNode && d.FirstChild != nil {
			d = d.FirstChild
			continue
		}
		if d == c.byText {
			return c.byOK
		}
		var t string
		if d.Type == html.TextNode {
			t = openingWord(d.Data) // only its first word is read
		}
		if t == "" {
			for d != nil && d.NextSibling == nil && d != n {
				d = d.Parent
			}
			if d == nil || d == n {
				return false
			}
			d = d.NextSibling
			continue
		}
		c.byText, c.byOK = d, startsByWord(t)
		return c.byOK
	}
	return false
}

// mayOpenByline is a cheap test before byPrefix: false only where
// byPrefix cannot match. t's first word, after white space and an opening
// bracket, is one of byWords or of the words byPrefix takes from a line a
// class marks ("Af", "Του", "Της"), or t opens with an ideograph or kana.
func mayOpenByline(t string) bool {
	t = openingWord(t)
	if t == "" {
		return false
	}
	if cjkFirst(t) {
		return true
	}
	if startsByWord(t) {
		return true
	}
	w := leadingLetters(t)
	return strings.EqualFold(w, "af") || strings.EqualFold(w, "του") || strings.EqualFold(w, "της") // Σ folds to ς too
}

// openingWord is t from its first word on: without the white space and
// the opening brackets before it ("[作者：李妍]").
func openingWord(t string) string {
	t = trimLeftSpace(t)
	if t != "" && (t[0] == '[' || t[0] == '(' || strings.HasPrefix(t, "【") || strings.HasPrefix(t, "（")) {
		t = trimLeftSpace(strings.TrimLeft(t, "[(【（"))
	}
	return t
}

// startsByWord says whether t (not "") opens with one of byWords.
func startsByWord(t string) bool {
	if !byFirsts[lowerByte(t[0])] {
		return false
	}
	var buf [maxByWord]byte
	n := 0
	for i := 0; i < len(t); i++ {
		b := t[i]
		if b >= utf8.RuneSelf {
			return startsByWordRunes(t)
		}
		l := b | 0x20 // lower case for a letter; no letter that is none
		if l < 'a' || l > 'z' {
			break
		}
		if n == maxByWord {
			return false
		}
		buf[n] = l
		n++
	}
	return byWords[string(buf[:n])]
}

// startsByWordRunes is startsByWord for a text whose first word may
// have other letters than ASCII ones.
func startsByWordRunes(t string) bool {
	if cjkFirst(t) { // no space after the label: "本报记者王小红"
		for _, w := range cjkByWords {
			if strings.HasPrefix(t, w) {
				return true
			}
		}
		return false
	}
	w := leadingLetters(t)
	if len(w) > maxByWord {
		return false
	}
	var buf [maxByWord]byte
	return byWords[string(appendLower(buf[:0], w))]
}

// leadingLetters is the run of letters t opens with.
func leadingLetters(t string) string {
	if end := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }); end >= 0 {
		return t[:end]
	}
	return t
}

// trimLeftSpace is s without the white space strings.TrimSpace cuts at
// its start.
func trimLeftSpace(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return strings.TrimLeftFunc(s[i:], unicode.IsSpace)
		case c != ' ' && (c < '\t' || c > '\r'):
			return s[i:]
		}
	}
	return ""
}

// inlineOnly says whether every child element of n is inline.
func inlineOnly(n *html.Node) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		if ch.DataAtom != atom.Br && !inline(ch.DataAtom) {
			return false
		}
	}
	return true
}

// inline says whether an element of this kind runs on in its line.
func inline(a atom.Atom) bool {
	switch a {
	case atom.A, atom.Span, atom.Strong, atom.B, atom.Em, atom.I, atom.Small, atom.Time, atom.Abbr, atom.Img, atom.Font, atom.U:
		return true
	}
	return false
}

// room is how many bytes of meta values add still keeps: a longer text
// need not be read whole (textUpTo), add leaves it out.
func (c *collector) room() int { return maxTotal - c.kept }

// itemValue is the value of a microdata property element; a text
// longer than limit bytes is cut after limit bytes or a little more (see
// textUpTo).
func (c *collector) itemValue(n *html.Node, limit int) string {
	switch n.DataAtom {
	case atom.Meta:
		return attr(n, "content")
	case atom.Audio, atom.Embed, atom.Iframe, atom.Img, atom.Source, atom.Track, atom.Video:
		return attr(n, "src")
	case atom.A, atom.Area, atom.Link:
		return attr(n, "href")
	case atom.Object:
		return attr(n, "data")
	case atom.Data, atom.Meter:
		return attr(n, "value")
	case atom.Time:
		if v := attr(n, "datetime"); v != "" {
			return v
		}
	}
	if v, ok := attrOK(n, "content"); ok {
		return v
	}
	return c.textUpTo(n, limit)
}

// hint is an element's class, id, rel and itemprop, lower-cased ("" for
// an element with none of them, without allocating).
func hint(n *html.Node) string {
	var one string
	count := 0
	for _, a := range n.Attr {
		switch a.Key {
		case "class", "id", "rel", "itemprop":
			if a.Val != "" {
				one = a.Val
				count++
			}
		}
	}
	switch count {
	case 0:
		return ""
	case 1:
		return lowerASCII(one)
	}
	var sb strings.Builder
	for _, a := range n.Attr {
		switch a.Key {
		case "class", "id", "rel", "itemprop":
			sb.WriteString(lowerASCII(a.Val))
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

// lowerASCII lower-cases s, allocating only when s has a capital.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(s)
		}
	}
	return s
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// textOf is the white-space-folded text below n, scripts, styles and buttons
// left out (a heading's "Copy item path" button is no part of it).
func (c *collector) textOf(n *html.Node) string { return c.textUpTo(n, maxTotal) }

// shortText is the text below n when, white space folded, it is at most
// limit bytes long; "" otherwise. It stops reading a long text early: it
// runs on every element whose class says author or date, containers of
// a whole article among them.
func (c *collector) shortText(n *html.Node, limit int) string {
	if n.DataAtom == atom.Script {
		if t := c.textUpTo(n, limit); len(t) <= limit {
			return t
		}
		return ""
	}
	b := c.textBytes(n, limit)
	if len(b) > limit {
		return ""
	}
	return string(b)
}

// textUpTo is text that stops reading once it has more than max bytes
// (white space folded): it is then a prefix of text longer than max.
func (c *collector) textUpTo(n *html.Node, max int) string {
	if n.DataAtom == atom.Script {
		if ch := n.FirstChild; ch != nil && ch.NextSibling == nil && ch.Type == html.TextNode {
			return strings.TrimSpace(ch.Data) // the usual script, one text: no copy
		}
		var sb strings.Builder
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.TextNode {
				sb.WriteString(ch.Data)
			}
		}
		return strings.TrimSpace(sb.String())
	}
	return string(c.textBytes(n, max))
}

// textBytes is textUpTo's text of an element other than a script, in
// the collector's buffer: valid until the buffer's next use.
func (c *collector) textBytes(n *html.Node, max int) []byte {
	f := folder{b: c.buf[:0], max: max}
	if n.DataAtom == atom.Title {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.TextNode {
				f.write(ch.Data)
			}
		}
	} else {
		f.walk(n)
	}
	c.buf = f.b
	return f.b
}

// folder builds the text of a subtree with each run of white space
// folded to one space and none at either end, as
// strings.Join(strings.Fields(text), " ") would, without the copies.
type folder struct {
	b     []byte
	space bool // white space stands between the text written and the next
	max   int
	// runOn joins the texts of inline elements as a browser shows them
	// ("C<b>ycle</b>" is "Cycle"); without it every text node stands
	// apart.
	runOn bool
}

// walk writes the text below n, a space between text nodes, scripts,
// styles and buttons left out; false once more than max bytes are written.
func (f *folder) walk(n *html.Node) bool { return f.walkFrom(n.FirstChild, nil) }

// walkFrom is walk over first and the siblings after it, up to stop (nil:
// all of them).
func (f *folder) walkFrom(first, stop *html.Node) bool {
	for ch := first; ch != nil && ch != stop; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			f.write(ch.Data)
			f.space = f.space || !f.runOn
		case html.ElementNode:
			if ch.DataAtom == atom.Script || ch.DataAtom == atom.Style || ch.DataAtom == atom.Button ||
				f.runOn && (ch.DataAtom == atom.Time || // a heading's <time> is its date, not its words
					unshown(ch)) {
				continue
			}
			apart := !f.runOn || !inline(ch.DataAtom)
			f.space = f.space || apart
			if !f.walk(ch) {
				return false
			}
			f.space = f.space || apart
		}
		if len(f.b) > f.max {
			return false
		}
	}
	return true
}

// unshown says whether a browser hides the element whatever its style
// sheets say: the hidden attribute, or an inline display:none or
// visibility:hidden (a heading's bookmark tooltip, "Stay organized with
// collections", waits hidden inside it). aria-hidden is not enough: such
// text is shown, only not read aloud.
func unshown(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "style":
			if ascii.StyleHides(a.Val) {
				return true
			}
		}
	}
	return false
}

// write adds s, its white space folded.
func (f *folder) write(s string) {
	start := -1 // the start of the current run of other characters
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isSpace(r) {
			if start >= 0 {
				f.run(s[start:i])
				start = -1
			}
			f.space = true
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		f.run(s[start:])
	}
}

// run writes a run of characters other than white space.
func (f *folder) run(s string) {
	if f.space && len(f.b) > 0 {
		f.b = append(f.b, ' ')
	}
	f.space = false
	f.b = append(f.b, s...)
}

// isSpace is unicode.IsSpace, quick for ASCII.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

func hasWord(s, w string) bool {
	for f := range strings.FieldsSeq(s) {
		if f == w {
			return true
		}
	}
	return false
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// first returns the first non-empty value of the JSON-LD value given and
// of the meta keys, with its source.
func (c *collector) first(ld string, keys ...string) valued {
	if ld != "" {
		return valued{ld, SourceJSONLD}
	}
	for _, k := range keys {
		if vs := c.metas[k]; len(vs) > 0 {
			return valued{vs[0], metaSource(k)}
		}
		if vs := c.item(k); len(vs) > 0 {
			return valued{vs[0], SourceMicrodata}
		}
	}
	return valued{}
}

// metaSource names the source of a meta key.
func metaSource(key string) string {
	for _, p := range []string{"og:", "article:", "twitter:", "book:", "profile:", "product:"} {
		if strings.HasPrefix(key, p) {
			return SourceOpenGraph
		}
	}
	return SourceMeta
}

// propertyValue is the value of the element n that has the microdata
// or RDFa property p: itemValue's, but for a link whose property is text
// in schema.org (textProperty), whose value is its words. Both markups
// make a link's value its address, yet a template that marks up its
// section or author links so (<a itemprop="articleSection"
// href="/news/nsw/">New South Wales</a>) means their words, and a link
// without words names nothing.
func (c *collector) propertyValue(n *html.Node, p string) string {
	if (n.DataAtom == atom.A || n.DataAtom == atom.Area) && textProperty(p) {
		return c.textUpTo(n, c.room())
	}
	return c.itemValue(n, c.room())
}

// textProperty says whether a microdata property the rules read is
// text in schema.org (an author's name, a section, keywords), not an
// address.
func textProperty(p string) bool {
	switch strings.ToLower(p) {
	case "author", "articlesection", "keywords":
		return true
	}
	return false
}
