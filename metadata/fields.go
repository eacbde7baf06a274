package metadata

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/language"

	"github.com/winnow-go/winnow/internal/textseg"
)

// Meta keys (and microdata properties) of the site's name: its own, and
// its app's.
var (
	siteNameKeys = []string{"og:site_name"}
	appNameKeys  = []string{"application-name", "al:android:app_name", "al:ios:app_name"}
)

// siteName is the site's own name for itself.
func (c *collector) siteName() valued {
	if v := c.first("", siteNameKeys...); v.val != "" {
		return v
	}
	if c.ld.siteName != "" {
		return valued{c.ld.siteName, SourceJSONLD}
	}
	if c.ld.publisher != "" {
		return valued{c.ld.publisher, SourceJSONLD}
	}
	return c.first("", appNameKeys...)
}

// siteFromTitle is the site's name on a page that does not state it: a
// segment of its <title> after the first that is also its first <h1>
// ("What is Ownership? - The Rust Programming Language" over an <h1> of
// "The Rust Programming Language": a book's or a blog's name in its page
// header). When the first segment has less than half the words of that
// segment, it is the site's or a section's name and the <h1> the
// headline ("PaiNs Blog : Silkroad Roc Mountain Quests und NPC's",
// "News | Elder: Aus dem Ghetto nach Augusta"), unless the <h1>'s class
// or id names it the site's (siteHeading: "blog | Echte Demokratie
// Jetzt! Occupy" over <h1 id="site-title">). Nor is it the site's name
// when a structured title names it the headline (headlineNamed).
func (c *collector) siteFromTitle() valued {
	if len(c.heads) == 0 {
		return valued{}
	}
	segs := titleSegments(c.titleTag)
	for _, s := range segs[min(1, len(segs)):] {
		if sameText(s, c.heads[0].text) {
			if 2*len(words(segs[0])) < len(words(s)) && !siteHeading(c.heads[0].node) || c.headlineNamed(s) {
				return valued{}
			}
			return valued{clip(s), SourceTitleTag}
		}
	}
	return valued{}
}

// headlineNamed says whether the page's JSON-LD headline, og:title or
// twitter:title is h as a whole: then h is the page's headline, not its
// site's name ("Pluralsight Tech Blog | Managing Python Environments"
// over an <h1> and an og:title "Managing Python Environments").
func (c *collector) headlineNamed(h string) bool {
	if sameText(c.ld.headline, h) {
		return true
	}
	for _, k := range []string{"og:title", "twitter:title"} {
		if vs := c.metas[k]; len(vs) > 0 && sameText(vs[0], h) {
			return true
		}
	}
	return false
}

// titleSeparatorMarks are the marks of the separators that split a
// <title> or og:title into the headline and the site's name (see
// separatorAt). White space around them may be a no-break space ("IAM
// overview\u00a0|\u00a0Identity and Access Management").
const titleSeparatorMarks = "|-–—:·»/•~"

// title is the headline: the <h1> headline picked when a structured
// title agrees with it, otherwise the structured title; either with the
// site's name cut off. A service page's <h1> is more often a slogan
// ("Moving made simple") than the page's name, which its structured
// title gives ("Local Movers in Springfield | Acme"): there the
// structured title wins unless one of its segments is the heading, or
// the heading is the page's own entry in its JSON-LD breadcrumbs (the
// name the site's navigation gives it).
func (c *collector) title(pageType string) valued {
	t := c.headlineOrRef(pageType)
	if homeLabel(t.val) && c.site.val != "" {
		// "Home", the site's navigation's name for its front page, says
		// nothing of it; the site's name does.
		return c.site
	}
	return t
}

// homeLabel says whether a title is only a navigation's word for a
// front page.
func homeLabel(t string) bool {
	switch strings.Join(words(t), " ") {
	case "home", "homepage", "home page", "startseite", "accueil", "inicio", "главная", "首页":
		return true
	}
	return false
}

// headlineOrRef is the title as the headline or a structured title
// gives it (see title).
func (c *collector) headlineOrRef(pageType string) valued {
	refs := c.refs
	if c.agreed {
		h := unnumbered(unlabelled(c.anchorCut), refs)
		h = c.restored(h)
		h = c.asWritten(h)
		if pageType != "service" || len(refs) == 0 || segmentOf(h, refs[0].val) || sameText(h, c.ld.crumb) {
			return valued{h, SourceHeadline}
		}
	}
	var cuts, whole []valued
	for i, r := range refs {
		if t := c.refCut(i); t != "" {
			cuts = append(cuts, valued{t, r.source})
			whole = append(whole, r)
		}
	}
	if len(cuts) == 0 {
		return valued{}
	}
	return cuts[c.arbitrate(whole, cuts)]
}

// arbitrate picks among the structured titles when the most trusted
// and the <title> name different things (whole, they do not agree, and
// neither is one of the other's segments): a
// site's og:title is often its slogan on every page ("Build software
// better, together" over "Trending repositories today"), or a brand's
// campaign line. The one whose cut (the site's name cut off) shares most
// words with the page's <h1>s wins; without a heading to tell, the most
// trusted. It returns an index into cuts.
func (c *collector) arbitrate(whole, cuts []valued) int {
	first, last := whole[0].val, whole[len(whole)-1].val
	if len(cuts) < 2 || agrees(first, last) || segmentOf(cuts[0].val, last) || segmentOf(cuts[len(cuts)-1].val, first) {
		return 0
	}
	var hw []string
	for _, h := range c.heads {
		hw = append(hw, words(h.text)...)
	}
	best, most := 0, 0
	for i, t := range cuts {
		if n := textseg.Common(uniq(words(t.val)), hw); n > most {
			best, most = i, n
		}
	}
	return best
}

// uniq is ws without repeats, in order.
func uniq(ws []string) []string {
	out := ws[:0:0]
	for _, w := range ws {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// restored is the heading h with the characters the page lost put back
// from a structured title: a page whose text went through the wrong
// character set shows "?" for each character it could not write
// ("Event Planning? Beginner? Guide" over an og:title "Event Planning:
// Beginner's Guide"). When a title (its site's name cut) reads as h with
// each "?" one to three other characters, that title is h.
func (c *collector) restored(h string) string {
	if !strings.Contains(h, "?") {
		return h
	}
	parts := strings.Split(h, "?")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	re, err := regexp.Compile(`(?i)^` + strings.Join(parts, `(.{1,3}?)`) + `$`)
	if err != nil {
		return h
	}
	for i := range c.refs {
		t := c.refCut(i)
		m := re.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		for _, g := range m[1:] {
			if g != "?" {
				return t
			}
		}
		return h
	}
	return h
}

// asWritten is the heading h as a structured title writes it when the
// heading's markup lost a separator the title has: a label and the
// headline set in two elements ("Info" "Ultimate Guide" under a title
// "Info - Ultimate Guide"). The title (its site's name cut) must read as
// h, character for character, but for white space and more separator
// marks; a dash or quotes written otherwise, capitals or an emoji keep
// the heading's text.
func (c *collector) asWritten(h string) string {
	var hs string
	hn := -1
	for i, r := range c.refs {
		if strings.Contains(r.val, h) {
			continue // the title writes h as it is: the usual page
		}
		if hn < 0 {
			hs, hn = bare(h)
		}
		t := c.refCut(i)
		if ts, tn := bare(t); tn > hn && ts == hs {
			return t
		}
	}
	return h
}

// refCut is c.refs[i] with the site's name cut off (cutSite), cut once.
func (c *collector) refCut(i int) string {
	if c.refCuts[i] == "" {
		c.refCuts[i] = cutSite(c.refs[i].val, c.site.val, c.host)
	}
	return c.refCuts[i]
}

// bare is s without white space and separator marks
// (titleSeparatorMarks), and how many separator marks it had.
func bare(s string) (string, int) {
	n := 0
	b := strings.Map(func(r rune) rune {
		if strings.ContainsRune(titleSeparatorMarks, r) {
			n++
			return -1
		}
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	return b, n
}

// titleLabel opens a heading that labels its text as the title, as a
// catalogue's or a paper's page does ("Title: On Tides").
var titleLabel = regexp.MustCompile(`(?i)^(?:title|titel|titre|título|titolo|tytuł|название|标题|標題)\s*[:：]\s*`)

// unlabelled is h without a leading title label (titleLabel).
func unlabelled(h string) string {
	if m := titleLabel.FindStringIndex(h); m != nil && m[1] < len(h) {
		return h[m[1]:]
	}
	return h
}

// sectionNumber is a heading's leading section number: dotted ("3.1",
// "2.4.1.") or set off by a separator ("15 - "). A count that opens a
// headline ("9 Common Food Myths") is neither.
var sectionNumber = regexp.MustCompile(`^(\d+(?:\.\d+)+)\.?\s+|^(\d+)\s+[-–—:|]\s+`)

// unnumbered is the heading h without its section number when no
// structured title of the page writes that number: a book's or a
// manual's chapter numbering ("3.1 Branches in a Nutshell" under a
// <title> "Git - Branches in a Nutshell") is the table of contents'
// order, not the headline's words.
func unnumbered(h string, refs []valued) string {
	if h == "" || !isDigit(h[0]) { // every section number opens with a digit
		return h
	}
	m := sectionNumber.FindStringSubmatchIndex(h)
	if m == nil || m[1] == len(h) {
		return h
	}
	var num string
	if m[2] >= 0 {
		num = h[m[2]:m[3]]
	} else {
		num = h[m[4]:m[5]]
	}
	for _, r := range refs {
		if slices.Contains(numbers.FindAllString(r.val, -1), num) {
			return h
		}
	}
	return h[m[1]:]
}

var numbers = regexp.MustCompile(`\d+(?:\.\d+)*`)

// segmentOf says whether h is one of the segments of the title t
// (titleSegments), or all of it.
func segmentOf(h, t string) bool {
	for _, s := range titleSegments(t) {
		if sameText(s, h) {
			return true
		}
	}
	return false
}

// siteHints are the class and id words of a heading that holds the
// site's name in its page header ("site-title", WordPress's).
var siteHints = []string{"site-title", "site_title", "sitetitle", "site-name", "site_name", "sitename", "logo", "brand"}

// siteHeading says whether n's class or id names it the site's heading.
func siteHeading(n *html.Node) bool {
	h := hint(n)
	return h != "" && slices.ContainsFunc(siteHints, func(w string) bool { return strings.Contains(h, w) })
}

// titleRefs are the page's structured titles, most trusted first: the
// JSON-LD headline, og:title and its kin, the <title>.
func (c *collector) titleRefs() []valued {
	var refs []valued
	if c.ld.headline != "" {
		refs = append(refs, valued{c.ld.headline, SourceJSONLD})
	}
	for _, k := range []string{"og:title", "twitter:title", "dc.title", "citation_title"} {
		if vs := c.metas[k]; len(vs) > 0 && vs[0] != "" {
			refs = append(refs, valued{vs[0], metaSource(k)})
		}
	}
	if c.titleTag != "" {
		refs = append(refs, valued{c.titleTag, SourceTitleTag})
	}
	return refs
}

// agrees says whether a heading is the headline a structured title
// names: most of the heading's words are in the title, and the heading
// is a large part of the title once a site name is cut.
func agrees(h, title string) bool {
	hw, tw := words(h), words(title)
	if len(hw) == 0 || len(tw) == 0 {
		return false
	}
	common := textseg.Common(tw, hw)
	return 2*float64(common) >= agreeF1*float64(len(hw)+len(tw))
}

// agreeF1 is the overlap at which a heading and a structured title name
// one headline. On the half 1 of wcxb-dev-even's sites (CRC-32 of the
// domain even) title exact was best at 0.4 (0.788; 0.769 at 0.3, 0.785
// at 0.5); the former rule (80% of the heading's words in the title,
// half of the title's in the heading) gave 0.731.
const agreeF1 = 0.4

// words are the lower-cased word tokens of s: `\w+` runs, as the
// metrics split text.
func words(s string) []string { return textseg.Words(strings.ToLower(s), nil) }

// sameText says whether a and b have the same words, whatever their
// case.
func sameText(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if isASCII(a) && isASCII(b) {
		return sameASCIIWords(a, b)
	}
	return strings.EqualFold(strings.Join(words(a), " "), strings.Join(words(b), " "))
}

// sameASCIIWords is sameText for ASCII texts, without copies: their runs
// of letters, digits and "_" are compared one by one.
func sameASCIIWords(a, b string) bool {
	for {
		a, b = skipNonWord(a), skipNonWord(b)
		if a == "" || b == "" {
			return a == b
		}
		i, j := wordEnd(a), wordEnd(b)
		if !strings.EqualFold(a[:i], b[:j]) {
			return false
		}
		a, b = a[i:], b[j:]
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func asciiWordByte(c byte) bool { return c == '_' || asciiAlnum(c) }

func skipNonWord(s string) string {
	for i := 0; i < len(s); i++ {
		if asciiWordByte(s[i]) {
			return s[i:]
		}
	}
	return ""
}

func wordEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if !asciiWordByte(s[i]) {
			return i
		}
	}
	return len(s)
}

// cutSite cuts the site's name from a title: the segments (split at " | ",
// " - " and the like) that name the site go, and those after the first
// that name its host (a leading brand stays: "Talkspace - #1 Rated Online
// Therapy" is a home page's headline on WCXB); when none does, a short
// last segment after a longer first one goes.
func cutSite(t, site, host string) string { return cutSiteAs(t, site, host, true) }

// cutHeading is cutSite for a heading's text. A segment that names the
// site goes; a short last segment that names nothing known (or all but
// the first of three) goes only when no structured title of the page
// has it: a heading's "… – Zeugenaufruf" is its own when the page's
// <title> says "… – Zeugenaufruf | Hildesheimer Presse".
func (c *collector) cutHeading(t, site string) string {
	sure := cutSiteAs(t, site, c.host, false)
	guess := cutSiteAs(t, site, c.host, true)
	if guess == sure {
		return sure
	}
	ws := " " + strings.Join(words(sure), " ") + " "
	for _, r := range c.refs {
		if strings.Contains(" "+strings.Join(words(r.val), " ")+" ", ws) {
			return sure
		}
	}
	return guess
}

func cutSiteAs(t, site, host string, guess bool) string {
	orig := t // the segments are cut from t, and joined again as orig has them
	if hasHan(t) {
		// Chinese and Japanese titles join the site's name without
		// spaces: "海滨小城举办首届风筝节_沿海新闻网", "…失事--国内频道",
		// "…上榜-《财经网》".
		t = hanDashes(hanSeparators.Replace(t))
	}
	segs := titleSegments(t)
	if len(segs) < 2 {
		return orig
	}
	var kept []string
	names := func(s, n string) bool { return n != "" && (sameText(s, n) || siteLike(s, n)) }
	for i, s := range segs {
		if s == "" || names(s, site) || i > 0 && (names(s, host) || siteVariant(s, site)) || cjkSiteSegment(segs, i) {
			continue
		}
		kept = append(kept, s)
	}
	if guess && len(kept) == len(segs) && len(segs) >= 2 {
		// No segment is the known site name: a short last segment after
		// a longer headline is the site's name or a section.
		first, lastSeg := segs[0], segs[len(segs)-1]
		if size(lastSeg) <= 4 && size(first) > size(lastSeg) {
			kept = segs[:len(segs)-1]
		}
	}
	if guess && len(segs) >= 3 && len(kept) >= 2 && longest(kept) == 0 {
		// A headline, a section and the site ("Thread / Board / Forum"):
		// the headline is the first segment, the longest.
		kept = kept[:1]
	}
	if len(kept) == 0 {
		return orig
	}
	return joinSegments(orig, kept)
}

// cjkSiteSegment says whether segs[i] is a Chinese or Japanese site's
// name, told without a known one (their pages seldom give og:site_name,
// and their hosts are no words of it): an organisation's name (cjkOrg:
// "自由電子報", "中時電子報", "…政府门户网站"), alone or before a short
// section ("自由電子報 即時新聞"), and not the title's longest segment (a
// headline may end as such a name does). daniel-zh: 11 of its 246
// <title>s kept one at either end.
func cjkSiteSegment(segs []string, i int) bool {
	name, rest, _ := strings.Cut(segs[i], " ")
	return cjkOrg(name) && size(rest) <= 2 && longest(segs) != i
}

// longest is the index of the longest of segs by size, -1 when two
// share the greatest size.
func longest(segs []string) int {
	best, tie := 0, false
	for i := 1; i < len(segs); i++ {
		switch n, b := size(segs[i]), size(segs[best]); {
		case n > b:
			best, tie = i, false
		case n == b:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

// titleSegments splits a title at its separators (separatorAt).
func titleSegments(t string) []string {
	if !strings.ContainsAny(t, titleSeparatorMarks) { // no separator can match
		return []string{strings.TrimSpace(t)}
	}
	var segs []string
	last := 0
	for i := 0; i < len(t); {
		if end := separatorAt(t, i); end > i {
			segs = append(segs, strings.TrimSpace(t[last:i]))
			last, i = end, end
			continue
		}
		_, n := utf8.DecodeRuneInString(t[i:])
		i += n
	}
	return append(segs, strings.TrimSpace(t[last:]))
}

// separatorAt is the end of the title separator that starts at t[i:], i
// when none does. The separators, tried in this order: a mark among
// titleSeparatorMarks with white space on both sides, white space before
// a "|", a "|" before white space, and "::" with or without white space
// around it. White space is that of the regexp class [\s\p{Zs}] (the
// no-break and ideographic spaces count, U+0085 does not);
// TestTitleSegmentsPrefilter holds this to the regexp.
func separatorAt(t string, i int) int {
	ws := spaces(t, i)
	if ws > i {
		if r, n := utf8.DecodeRuneInString(t[ws:]); strings.ContainsRune(titleSeparatorMarks, r) {
			if end := spaces(t, ws+n); end > ws+n {
				return end
			}
			if r == '|' {
				return ws + n
			}
		}
	} else if t[i] == '|' {
		if end := spaces(t, i+1); end > i+1 {
			return end
		}
	}
	if strings.HasPrefix(t[ws:], "::") {
		return spaces(t, ws+2)
	}
	return i
}

// spaces is the end of the run of white space ([\s\p{Zs}]) at t[i:].
func spaces(t string, i int) int {
	for i < len(t) {
		switch c := t[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r':
			i++
		case c < utf8.RuneSelf:
			return i
		default:
			r, n := utf8.DecodeRuneInString(t[i:])
			if !unicode.Is(unicode.Zs, r) {
				return i
			}
			i += n
		}
	}
	return i
}

// size is a title segment's length in words, a Han character counting
// as half a word.
func size(s string) int {
	if !hasHan(s) {
		return len(words(s))
	}
	return (len(textseg.Words(s, textseg.IsCJK)) + 1) / 2
}

// hanDashes makes a separator of each run of "-" in a Chinese or
// Japanese title that joins two other characters than ASCII letters and
// digits ("失事--国内频道", "(图)-雅虎新闻"), and leaves those in a
// name or a number ("COVID-19", "2020-2021", "Wi-Fi").
func hanDashes(t string) string {
	if !strings.Contains(t, "-") {
		return t
	}
	var b strings.Builder
	for i := 0; i < len(t); {
		if t[i] != '-' {
			b.WriteByte(t[i])
			i++
			continue
		}
		j := i
		for j < len(t) && t[j] == '-' {
			j++
		}
		if i > 0 && j < len(t) && !asciiAlnum(t[i-1]) && !asciiAlnum(t[j]) && t[i-1] != ' ' && t[j] != ' ' {
			b.WriteString(" | ")
		} else {
			b.WriteString(t[i:j])
		}
		i = j
	}
	return b.String()
}

// asciiAlnum says whether c is an ASCII letter or digit.
func asciiAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

var hanSeparators = strings.NewReplacer("_", " | ", "－", " | ", "丨", " | ", "｜", " | ", "——", " | ")

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// joinSegments puts kept segments back together with the separators the
// title had between them.
func joinSegments(t string, kept []string) string {
	if len(kept) == 1 {
		return kept[0]
	}
	start := strings.Index(t, kept[0])
	end := strings.LastIndex(t, kept[len(kept)-1])
	if start >= 0 && end >= start {
		return strings.TrimSpace(t[start : end+len(kept[len(kept)-1])])
	}
	return strings.Join(kept, " - ")
}

// siteLike says whether a title segment names the site: it is the site's
// name with its domain ending, or the name without spaces.
func siteLike(seg, site string) bool {
	a := strings.Join(words(seg), "")
	b := strings.Join(words(site), "")
	for _, tld := range []string{"com", "org", "net", "de", "co", "uk", "io"} {
		a = strings.TrimSuffix(a, tld)
		b = strings.TrimSuffix(b, tld)
	}
	return a != "" && a == b
}

// siteVariant says whether a title segment after the first is the
// site's name written longer or shorter: one of the two opens with the
// other's words and has at most two words more ("Thrive Internet
// Marketing" for "Thrive Internet Marketing Agency", "Parkview Health"
// for "Parkview").
func siteVariant(seg, site string) bool {
	a, b := words(seg), words(site)
	if len(a) == 0 || len(b) == 0 || len(a) == len(b) {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(b)-len(a) <= 2 && slices.Equal(a, b[:len(a)])
}

// authors are the page's authors, most trusted source first. A
// structured source that names the site itself as the author ("L'Opinion"
// in the JSON-LD of lopinion.fr, "Die FURCHE" in a meta tag) names the
// publisher: a person a byline or a later source names is the author
// then, and the site only when none is named.
func (c *collector) authors(pageType, closing string) listed {
	l := c.authorsBy(pageType, closing, false)
	if c.siteNamed(l.vals) {
		if person := c.authorsBy(pageType, closing, true); len(person.vals) > 0 {
			return person
		}
	}
	return l
}

// siteNamed says whether every one of names is the site's name or its
// domain's, with or without its suffix (letters and digits compared, in
// any case: "unocero" for unocero.com, "ORF.at" for orf.at); false for
// none.
func (c *collector) siteNamed(names []string) bool {
	if len(names) == 0 {
		return false
	}
	site, label, domain := alnumKey(c.site.val), "", ""
	if c.host != "" {
		label, domain = alnumKey(strings.Split(c.host, ".")[0]), alnumKey(c.host)
	}
	for _, n := range names {
		if k := alnumKey(n); k == "" || k != site && k != label && k != domain && !writesDomain(n, c.host) {
			return false
		}
	}
	return true
}

// writesDomain says whether the name n writes the registered domain
// host as a word of its own ("Deutsche Welle (www.dw.com)" on dw.com,
// "JuraForum.de-Redaktion" on juraforum.de): the publisher's name.
func writesDomain(n, host string) bool {
	if host == "" || !strings.Contains(host, ".") {
		return false
	}
	l := strings.ToLower(n)
	for from := 0; ; {
		i := strings.Index(l[from:], host)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(host)
		if (i == 0 || !asciiAlnum(l[i-1]) && l[i-1] != '-') && (end == len(l) || !asciiAlnum(l[end])) {
			return true
		}
		from = i + 1
	}
}

// alnumKey is s lower-cased, its letters and digits alone.
func alnumKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// authorsBy is authors; with skipSite the structured sources' values
// that name the site (siteNamed) count as none.
func (c *collector) authorsBy(pageType, closing string, skipSite bool) listed {
	structured := func(v []string) []string {
		l := cleanAuthors(v)
		if skipSite && c.siteNamed(l) {
			return nil
		}
		return l
	}
	if l := structured(c.ld.authors); len(l) > 0 {
		return listed{l, SourceJSONLD}
	}
	forum := pageType == "forum"
	if forum {
		// A forum's members go by user names ("JGD", "josh_wilmot90"),
		// which the rules for a person's name refuse.
		for _, a := range c.ld.authors {
			if a = fold(a); memberName(a) {
				return listed{[]string{a}, SourceJSONLD}
			}
		}
	}
	if l := firstOfMany(structured(c.item("author"))); len(l) > 0 {
		return listed{l, SourceMicrodata}
	}
	if forum {
		if s := c.starter(); s != "" {
			return listed{[]string{s}, SourceByline}
		}
	}
	// A scholarly page's citation tags (citation_author, or the
	// citation_authors some write) name every author; its other tags
	// often only the first.
	cited := cleanAuthors(citationNames(append(c.metas["citation_author"], c.metas["citation_authors"]...)))
	var orgs listed // a meta tag's authors that are all organisations
	for _, k := range []string{"author", "article:author", "parsely-author", "sailthru.author", "dc.creator",
		"dcterms.creator", "byl", "dc.contributor"} {
		if l := structured(c.metas[k]); len(l) > 0 {
			if len(l) == 1 && len(cited) > 1 && cited[0] == l[0] {
				return listed{cited, SourceMeta}
			}
			if !slices.ContainsFunc(l, func(n string) bool { return !cjkOrg(n) }) {
				// "云南日报报业集团, 云南网": the publisher, named where
				// the reporter is not; a byline in the text may name him.
				if orgs.vals == nil {
					orgs = listed{l, metaSource(k)}
				}
				continue
			}
			return listed{l, metaSource(k)}
		}
	}
	if len(cited) > 0 {
		return listed{cited, SourceMeta}
	}
	if l := structured(c.labelled("written by", "author", "by")); len(l) > 0 {
		return listed{l, SourceOpenGraph}
	}
	for _, b := range c.prefixed {
		if l := personNames(cleanAuthors([]string{b})); len(l) > 0 {
			return listed{l, SourceByline}
		}
	}
	// The first line a class names a byline that names a person gives
	// the authors: every name it lists ("Von Anna Schmidt, Jan Berg
	// und Eva Roth").
	for _, by := range c.bylines {
		var line []string
		b := by.text
		if i := strings.IndexByte(b, '|'); i > 0 { // "Galo Ramírez | El Sol de México": the name, then the paper, a role or a date
			b = b[:i]
		}
		if by.card {
			// An hCard's one word is a user name ("gizzmo",
			// "freeman1984"), which the rules for a person's name refuse;
			// a label left without its name ("Autor") and a site's
			// administrator account ("wordpressadmin") name no one.
			v := strings.TrimSpace(byPrefix.ReplaceAllString(fold(b), ""))
			if lv := strings.ToLower(v); len(strings.Fields(v)) == 1 && memberName(v) && !byWords[lv] && !strings.Contains(lv, "admin") {
				return listed{[]string{v}, SourceByline}
			}
		}
		for _, n := range personNames(cleanAuthors([]string{b})) {
			// A class alone is weak evidence: a one-word line is a label
			// or a button, unless a byline's label names it.
			if (len(words(n)) >= 2 || isCJKName(n) && cjkLabelled(b) || isHangulName(n)) && !slices.Contains(line, n) {
				line = append(line, n)
			}
		}
		if len(line) > 0 {
			return listed{firstOfMany(line), SourceByline}
		}
	}
	for _, b := range c.datedBy {
		if l := personNames(cleanAuthors([]string{b})); len(l) > 0 {
			return listed{l, SourceByline}
		}
	}
	if l := cleanAuthors(c.ld.refAuthors); len(l) > 0 {
		return listed{l, SourceJSONLD}
	}
	// A link to an author's archive names its author ("Posted by <a
	// href="/author/colin-watson.html">Colin Watson</a>"); the first
	// such link of a page is its byline's (archiveName).
	if a := c.archiveName(); a != "" {
		if l := personNames(cleanAuthors([]string{a})); len(l) > 0 {
			return listed{l, SourceByline}
		}
	}
	if l := closingCredit(closing); len(l) > 0 {
		return listed{l, SourceByline}
	}
	// A Chinese news page credits its editor where it names no writer
	// ("责任编辑：魏喆"), and that credit is the page's author, as the
	// CleanEval Chinese gold and GNE's author patterns take it.
	if len(c.editor) > 0 {
		return listed{slices.Clone(c.editor), SourceByline}
	}
	// No person is named anywhere: the organisation JSON-LD or a meta
	// tag names as the author is the page's author.
	if l := cleanAuthors(c.ld.orgAuthors); len(l) > 0 {
		return listed{l, SourceJSONLD}
	}
	return orgs
}

// personNames keeps the parts of a byline that are written as a
// person's name: every word capitalised (particles such as "van" or "de"
// aside), no sentence punctuation, not all in capitals. Page text is weak
// evidence; structured sources are trusted as they are.
func personNames(l []string) []string {
	var out []string
	for _, n := range l {
		if looksLikePerson(n) {
			out = append(out, n)
		}
	}
	if len(out) < len(l) {
		return nil // a line that is partly a sentence is no byline
	}
	return out
}

var particles = set("van", "von", "de", "der", "den", "da", "di", "du", "del", "la", "le", "bin", "ibn", "al", "y", "dos", "das", "ter", "zu")

func looksLikePerson(n string) bool {
	if isCJKName(n) || isHangulName(n) {
		return true
	}
	if strings.ContainsAny(n, "!?;:") {
		return false
	}
	fs := strings.Fields(n)
	if len(fs) == 0 || len(fs) > 5 {
		return false
	}
	if particles[fs[len(fs)-1]] {
		return false // "Artikel von": a particle opens a surname, never ends a name
	}
	upper, letters := 0, 0
	for _, f := range fs {
		r := []rune(f)
		if particles[f] {
			continue
		}
		if !unicode.IsUpper(r[0]) {
			return false
		}
		for _, c := range r {
			if unicode.IsLetter(c) {
				letters++
				if unicode.IsUpper(c) {
					upper++
				}
			}
		}
	}
	return letters <= 3 || upper < letters
}

// firstOfMany keeps the first name when a page names more than three
// authors in the same way: a thread or a comment list, whose first
// author is the page's.
func firstOfMany(l []string) []string {
	if len(l) > 3 {
		return l[:1]
	}
	return l
}

// citationNames turns "Family, Given" (citation_author) into "Given Family".
func citationNames(vs []string) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		if f, g, ok := strings.Cut(v, ","); ok && !strings.Contains(g, ",") {
			v = strings.TrimSpace(g) + " " + strings.TrimSpace(f)
		}
		out = append(out, v)
	}
	return out
}

// labelled reads Twitter's label/data pairs (twitter:label1 "Written by",
// twitter:data1 "Ann Lee") for the given labels.
func (c *collector) labelled(labels ...string) []string {
	for i, key := range twitterLabels {
		l := strings.ToLower(strings.TrimSpace(firstOf(c.metas[key])))
		for _, want := range labels {
			if l == want {
				return c.metas[twitterData[i]]
			}
		}
	}
	return nil
}

// twitterLabels and twitterData are the keys of Twitter's first four
// label/data pairs.
var (
	twitterLabels = [...]string{"twitter:label1", "twitter:label2", "twitter:label3", "twitter:label4"}
	twitterData   = [...]string{"twitter:data1", "twitter:data2", "twitter:data3", "twitter:data4"}
)

// byLabelPrefix are the labels of a byline in languages whose word for
// "by" is no preposition, with their colon: "Piše: Ivan Horvat"
// (Croatian), "Avtor:" (Slovenian), "Autorius:" (Lithuanian), "Autors:"
// (Latvian), "Kirjoittaja:" (Finnish), "Penulis:" (Indonesian), "Yazar:"
// (Turkish), "Szerző:" (Hungarian), "Συντάκτης:" (Greek), "Tác giả:"
// (Vietnamese).
const byLabelPrefix = `(?:piše|avtor|autorius|autors|kirjoittaja|penulis|yazar|szerző|συντάκτης|tác giả)\s*[:：]\s*`

var (
	byPrefix    = regexp.MustCompile(`(?i)^\s*(?:(?:(?:written|posted|published|reviewed|edited|reported|text|story|words|photos?|analysis|opinion|commentary|interview|veröffentlicht|geschrieben|verfasst|eingestellt|erstellt|publié|écrit|publicado|escrito)\s+)?(?:by|von|par|por|di|door|av|af|de|του|της|от|автор(?:ы)?|autor(?:in|en)?|auteur|author|written by)\s*[:\-]?\s+|` + byLabelPrefix + `|` + cjkByPrefix + `)`)
	authorLabel = regexp.MustCompile(`(?i)^\s*(?:authors?|autor(?:en|in|/in)?|auteurs?|автор(?:ы)?|текст|text|texte|tekst|teksti|yazar|szerző|tác giả|forfatter|författare|oleh|piše|avtor|autorius|autors|kirjoittaja|penulis|συντάκτης|作者|by)\s*[:：]\s*`)
	// trailingDateLabel is the label of the date a byline ends with, or
	// the preposition alone before it, in small letters ("Par Matthieu
	// Hy le 07 Mai 2020"; "Anh Le" is a name).
	trailingDateLabel = regexp.MustCompile(`(?i)(?:\s*(?:` + updateLabels + `\pL*|published|posted|publicado|publié|veröffentlicht|erschienen|опубликовано)\s*(?:on|am|le|el|em|il)?|(?-i:\s+(?:on|am|le|el|em|il)))\s*[:：]?\s*$`)
	// byAfterDate is the name a by-word names after a date that opens a
	// byline ("… 2020 by Ann Lee"), and postedLabel the label before such
	// a date ("Posted on").
	byAfterDate = regexp.MustCompile(`(?i)\s(?:by|von|par|por)\s+(\S.*)$`)
	postedLabel = regexp.MustCompile(`(?i)^\s*(?:posted|published|veröffentlicht|publié|publicado)?(?:\s+(?:on|am|le|el))?\s*`)
	// trailingWeekday is the day's name that ends the text before a
	// date, written out or, before a comma or a full stop, cut short.
	trailingWeekday = regexp.MustCompile(`(?i)[\s,]*\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tue|wed|thu|fri|sat|sun)\.?,|` +
		`montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|(?:mo|di|mi|do|fr|sa|so)[.,]|` +
		`lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo)[\s,.]*$`)
	authorSplit = regexp.MustCompile(`\s*(?:,|&|;|\||\band\b|\bund\b|\bet\b|\by\b|\bи\b|、)\s*`)
	emailRe     = regexp.MustCompile(`\S+@\S+\.\S+`)
	handleRe    = regexp.MustCompile(`(^|\s)@\w+`)
)

// trimPart trims the separators and brackets around a part of an
// author value, but keeps a closing bracket whose opener the part holds:
// "Deutsche Welle (www.dw.com)" keeps its ")".
func trimPart(p string) string {
	t := strings.Trim(p, " \t-–—:|·•/()[]")
	for _, b := range [...]struct{ open, close string }{{"(", ")"}, {"[", "]"}} {
		if strings.Count(t, b.open) > strings.Count(t, b.close) && strings.HasSuffix(strings.TrimRight(p, " \t"), b.close) {
			t += b.close
		}
	}
	return t
}

// cleanAuthors turns author values into names: no "By", no e-mail, no
// date or role after the name, several names split, values that are no
// names (addresses, long text) left out. Credentials after a name ("Dylan
// Bailey, MS, RD", "Ann Lee, PhD") stay, each a part of its own, as the
// page writes them (WCXB's gold keeps them); a credential alone is no
// name.
func cleanAuthors(vals []string) []string {
	var out []string
	for _, v := range vals {
		v = fold(v)
		if v == "" || looksLikeURL(v) {
			continue
		}
		before := len(v)
		if strings.ContainsAny(v, ":：") { // authorLabel ends with one
			v = authorLabel.ReplaceAllString(v, "")
		}
		if mayOpenByline(v) {
			v = byPrefix.ReplaceAllString(v, "")
			if t := strings.TrimSpace(v); strings.HasPrefix(t, "&") || hasPrefixFold(t, "und ") || hasPrefixFold(t, "and ") {
				continue // a heading that opens with the word ("Autoren & Themen"), no byline
			}
		}
		v = authorBoxWords(v)
		if name, ok := koreanReporter(v); ok { // "홍길동 기자"
			out = append(out, name)
			continue
		}
		if len(v) < before && cjkAfterLabel(v) {
			out = append(out, cjkNames(v)...) // a labelled Chinese or Japanese byline
			continue
		}
		if describes(v) {
			continue
		}
		if d, ok := findDateAt(v); ok {
			// "Ann Lee | Published: 2 May 2021", "Mike Lee Monday, May 3,
			// 2021", "Tomas Spahn Fr, 18. Oktober 2019"
			before := trailingDateLabel.ReplaceAllString(trailingWeekday.ReplaceAllString(v[:d], ""), "")
			if m := byAfterDate.FindStringSubmatch(v[d:]); m != nil && strings.Trim(postedLabel.ReplaceAllString(before, ""), " |·•-–—,") == "" {
				before = m[1] // "Posted on September 21, 2020 by Ann Lee"
			}
			v = before
		}
		if i := strings.Index(v, " - "); i > 0 { // a role or a team after the name
			v = v[:i]
		}
		if strings.IndexByte(v, '@') >= 0 { // both have one
			v = emailRe.ReplaceAllString(v, "")
			v = handleRe.ReplaceAllString(v, "$1")
		}
		named := false // a name of this value stands before
		kept := len(out)
		parts := []string{v}
		if maySplit(v) {
			parts = authorSplit.Split(v, -1)
		}
		for _, part := range parts {
			part = trimPart(part)
			if mayOpenByline(part) {
				part = byPrefix.ReplaceAllString(part, "")
			}
			part = withoutRole(part)
			if legalEntity(part) {
				// "Ann Lee, Acme Media GmbH"; what follows a company is
				// its address ("Olympia-Verlag GmbH, Nürnberg, Germany"),
				// and a legal form alone ends the company's name ("Acme,
				// Inc.").
				if !strings.Contains(part, " ") {
					out = out[:kept]
				}
				break
			}
			switch {
			case named && roleOnly(part): // "GREG BEACHAM, AP Sports Writer"
			case named && isCredential(part) && len(words(part)) == 1:
				out = append(out, part)
			case isName(part):
				out = append(out, part)
				named = true
			}
		}
	}
	return out
}

// legalEntity says whether v names a company by its legal form: a
// suffix ("SmartEtailing Inc", "wegewerk GmbH", "Interline Pro Co.",
// "NATURSTROM AG"), the form alone ("Inc." after "Acme,"), or a Russian
// form before the name ("ООО «Ромашка»").
// A meta tag's author of this kind is the site's owner, its publisher or
// the agency that built it, no writer (no gold author of wcxb-dev-even
// and one of the trafilatura set's 500 is one), and a page with no
// writer has no author.
func legalEntity(v string) bool {
	fs := strings.Fields(strings.TrimRight(v, " ,;)"))
	if len(fs) == 0 {
		return false
	}
	if len(fs) > 1 && legalPrefixes[fs[0]] {
		return true
	}
	last := fs[len(fs)-1]
	return legalSuffixes[last] || legalSuffixesFold[strings.ToLower(strings.TrimRight(last, "."))]
}

// legalSuffixes are legal forms written as they are (an "Ag" or a "Co"
// without its stop ends a person's name: "Emily Co"); legalSuffixesFold
// are compared in small letters, without a final stop; legalPrefixes
// stand before the name.
var (
	legalSuffixes     = set("AG", "Co.", "KG", "SE", "S.A.", "SA", "B.V.", "N.V.", "S.p.A.", "S.r.l.", "e.V.", "Oy", "AB", "ASA", "A/S")
	legalSuffixesFold = set("inc", "llc", "l.l.c", "ltd", "gmbh", "corp", "plc", "sarl", "s.a.s", "pty", "kft", "sp. z o.o", "s.a.r.l")
	legalPrefixes     = set("ООО", "ОАО", "ЗАО", "ПАО", "АО", "ТОВ", "ПрАТ")
)

// roleStems end a word that names a writer's role in German, alone or
// in a compound ("Chefredakteur", "FOCUS-Online-Experte",
// "Netzphilosophin"); roleWords are the English words of a role that
// ends a byline's part ("AP Sports Writer", "CNN Editor-at-large").
var (
	roleStems = []string{"experte", "expertin", "redakteur", "redakteurin", "korrespondent", "korrespondentin",
		"kolumnist", "kolumnistin", "philosoph", "philosophin", "journalist", "journalistin", "reporterin"}
	roleWords = set("writer", "reporter", "correspondent", "editor", "editor-at-large", "columnist", "contributor")
)

// roleWord says whether w names a role: one of roleStems ends it, alone
// or as a compound's last part.
func roleWord(w string) bool {
	w = strings.ToLower(w)
	return slices.ContainsFunc(roleStems, func(s string) bool { return strings.HasSuffix(w, s) })
}

// withoutRole is a byline's part without the German role word that opens
// or ends it ("FOCUS-Online-Experte Robin Tschöpe", "Christoph Hein
// Chefredakteur"), when two words or more are left.
func withoutRole(p string) string {
	ws := strings.Fields(p)
	switch {
	case len(ws) < 3:
	case roleWord(ws[0]):
		return strings.Join(ws[1:], " ")
	case roleWord(ws[len(ws)-1]):
		return strings.Join(ws[:len(ws)-1], " ")
	}
	return p
}

// roleOnly says whether a part after a name is the name's role (its last
// word is one of roleWords or roleStems' words), which is no one's name.
func roleOnly(p string) bool {
	ws := strings.Fields(p)
	if len(ws) == 0 || len(ws) > 5 {
		return false
	}
	last := ws[len(ws)-1]
	return roleWords[strings.ToLower(last)] || roleWord(last)
}

// authorBoxOpeners open an author box's heading ("Über Steffi", "About
// Ann Lee"), and authorBoxLinks end a byline with the link to the
// author's other articles ("Johanna Kropfitsch Alle Artikel"; a label
// before any that ends with it).
var (
	authorBoxOpeners = []string{"about the author ", "über den autor ", "über die autorin ", "à propos de l'auteur ",
		"sobre el autor ", "about ", "über ", "à propos de "}
	authorBoxLinks = []string{" view all posts", " alle artikel", " alle beiträge", " all posts", " all articles",
		" more posts", " weitere artikel", " mehr artikel", " tous ses articles", " tous les articles"}
)

// authorBoxWords is v without the words of an author box around the
// name: an opener before a capitalised name (the box's heading, "About
// the author", goes whatever follows), a link's label after it.
func authorBoxWords(v string) string {
	for _, o := range authorBoxOpeners {
		if rest, ok := cutPrefixFold(v, o); ok && rest != "" {
			if r, _ := utf8.DecodeRuneInString(rest); unicode.IsUpper(r) || strings.Count(o, " ") > 1 {
				v = rest
			}
			break
		}
	}
	for _, l := range authorBoxLinks {
		if len(v) > len(l) && strings.EqualFold(v[len(v)-len(l):], l) {
			return strings.TrimSpace(v[:len(v)-len(l)])
		}
	}
	return v
}

// maySplit says whether authorSplit may match s: it has one of the
// separators, or the letters of one of the words.
func maySplit(s string) bool {
	return strings.ContainsAny(s, ",&;|yи、") || strings.Contains(s, "and") || strings.Contains(s, "und") ||
		strings.Contains(s, "et")
}

// findDateAt is where the first date in s starts.
func findDateAt(s string) (int, bool) {
	_, at, ok := findDatePos(s)
	return at, ok
}

// isName says whether a cleaned part reads as a person's or an
// organisation's name rather than a credential, a role or a sentence.
func isName(s string) bool {
	if s == "" || len(s) > 80 || strings.ContainsAny(s, "<>{}=:：") || looksLikeURL(s) ||
		strings.ContainsAny(s, "0123456789") && !isHandle(s) {
		return false
	}
	w := words(s)
	if len(w) == 0 || len(w) > 6 {
		return false
	}
	if len(w) == 1 && isCredential(s) {
		return false
	}
	return mayBeName(s)
}

// notNames are the words a page puts where a name stands that name no
// one: a role, a button, an unfilled field, a newsroom ("Redaktion",
// "Redacción").
var notNames = set("admin", "administrator", "anonymous", "unknown", "null", "none", "guest", "editor", "author",
	"publisher", "no author", "topic author", "cancel", "share", "follow", "more", "posts", "reply", "member", "moderator",
	"contributor", "staff", "staff writer", "team", "user", "гость", "аноним", "undefined", "category", "categories",
	"newsroom", "editorial", "editorial team", "editorial staff", "redaktion", "die redaktion", "redacción",
	"redazione", "rédaction", "la rédaction", "redactie", "redakcja", "redakce", "редакция", "редакція", "編集部", "编辑部")

// mayBeName says whether s, which stands where a name does, may be one:
// it is none of notNames, no template variable and no month or day name.
func mayBeName(s string) bool {
	if notNames[strings.ToLower(s)] {
		return false
	}
	if strings.Contains(s, "{{") || templateVar.MatchString(s) { // page.head.extra.author
		return false
	}
	if _, month := months[strings.ToLower(strings.Trim(s, "."))]; month || weekdays[strings.ToLower(strings.Trim(s, "."))] {
		return false
	}
	return true
}

// templateVar is an unfilled template variable left in a page.
var templateVar = regexp.MustCompile(`^\w+(?:\.\w+){2,}$`)

// weekdays are day names and abbreviations that open a date line.
var weekdays = set("mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "tuesday", "wednesday", "thursday",
	"friday", "saturday", "sunday", "mo", "di", "mi", "do", "fr", "sa", "so", "montag", "dienstag", "mittwoch",
	"donnerstag", "freitag", "samstag", "sonntag")

// isHandle recognises a user name with a number ("user447274",
// "LingoLover94"), a forum's or a Q&A site's name for its members: one
// word of ASCII letters that ends in digits. Letters and digits mixed
// throughout ("q6vkpg2ma0ci") are a machine's identifier.
func isHandle(s string) bool {
	letters := strings.TrimRight(s, "0123456789")
	if len(s) > 30 || letters == "" || letters == s {
		return false
	}
	for i := 0; i < len(letters); i++ {
		if c := letters[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isCredential recognises a degree or title written after a name: a short
// word in capitals ("MS", "RD", "FAND") or one of the common mixed ones.
func isCredential(s string) bool {
	s = strings.Trim(s, ". ")
	switch strings.ToLower(strings.ReplaceAll(s, ".", "")) {
	case "phd", "md", "mba", "jr", "sr", "esq", "msc", "bsc", "ma", "ba", "rn", "mph", "dds", "dvm", "cpa", "ii", "iii":
		return true
	}
	if len(s) > 6 {
		return false
	}
	for _, r := range s {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// canonical is the page's canonical address, absolute.
func (c *collector) canonical(base *url.URL) valued {
	if u := absolute(c.canon, base); u != "" {
		return valued{u, SourceMeta}
	}
	if vs := c.metas["og:url"]; len(vs) > 0 {
		if u := absolute(vs[0], base); u != "" {
			return valued{u, SourceOpenGraph}
		}
	}
	if u := absolute(c.ld.url, base); u != "" {
		return valued{u, SourceJSONLD}
	}
	return valued{}
}

// image is the page's lead image, absolute.
func (c *collector) image(base *url.URL) valued {
	for _, k := range []string{"og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"} {
		if vs := c.metas[k]; len(vs) > 0 {
			if u := absolute(vs[0], base); u != "" {
				return valued{u, SourceOpenGraph}
			}
		}
	}
	if u := absolute(c.ld.image, base); u != "" {
		return valued{u, SourceJSONLD}
	}
	if vs := c.item("image"); len(vs) > 0 {
		if u := absolute(vs[0], base); u != "" {
			return valued{u, SourceMicrodata}
		}
	}
	return valued{}
}

// absolute resolves a reference against the page's address; only http(s)
// addresses are kept.
func absolute(ref string, base *url.URL) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return u.String()
}

// categories are the sections the page is filed under.
func (c *collector) categories() listed {
	if len(c.ld.categories) > 0 {
		return listed{c.ld.categories, SourceJSONLD}
	}
	if vs := c.metas["article:section"]; len(vs) > 0 {
		return listed{vs, SourceOpenGraph}
	}
	if vs := c.item("articlesection"); len(vs) > 0 {
		return listed{vs, SourceMicrodata}
	}
	return listed{}
}

// tags are the page's keywords.
func (c *collector) tags() listed {
	if vs := c.metas["article:tag"]; len(vs) > 0 {
		return listed{splitKeywords(vs), SourceOpenGraph}
	}
	if len(c.ld.tags) > 0 {
		return listed{c.ld.tags, SourceJSONLD}
	}
	for _, k := range []string{"news_keywords", "keywords"} {
		if vs := c.metas[k]; len(vs) > 0 {
			return listed{splitKeywords(vs), SourceMeta}
		}
	}
	if vs := c.item("keywords"); len(vs) > 0 {
		return listed{splitKeywords(vs), SourceMicrodata}
	}
	if len(c.relTags) > 0 {
		return listed{c.relTags, SourceByline}
	}
	return listed{}
}

// splitKeywords parts keyword lists at commas and semicolons, in ASCII
// and full width, and a list of three or more at "、" or "|" (Chinese
// pages write "企业|安全|工作" and "新聞、生活、民生"): a headline given
// as a keyword may hold one "、" ("乾眼病患增 醫師：注意濕度、多休息").
func splitKeywords(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, k := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune(",;，；", r) }) {
			parts := strings.FieldsFunc(k, func(r rune) bool { return strings.ContainsRune("、|｜", r) })
			if len(parts) < 3 {
				parts = []string{k}
			}
			for _, p := range parts {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// lang sets the page's language: identified from the text when
// Options.Identify is set and sure enough, else as the page declares it
// (<html lang>, Content-Language, JSON-LD inLanguage, og:locale); see
// chooseLang.
func (m *Metadata) lang(c *collector, in Input, o Options) {
	declared, source := primaryTag(c.htmlLang), SourceMeta
	for _, v := range []valued{{in.ContentLanguage, SourceMeta}, {c.ld.lang, SourceJSONLD}, {firstOf(c.metas["og:locale"]), SourceOpenGraph}} {
		if declared == "" {
			declared, source = primaryTag(v.val), v.source
		}
	}
	lang, conf, fromText := chooseLang(declared, in.Text, o.Identify)
	if fromText {
		source = SourceText
	}
	if lang != "" {
		m.Lang, m.LangConfidence = lang, conf
		m.Sources["lang"] = source
	}
}

func firstOf(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// primaryTag is the language subtag of a BCP 47 tag or a locale, lower
// case ("en-US", "en_US" -> "en"), its ISO 639-1 code when it has one
// ("deu" -> "de"); "" when it is not two or three letters, names no
// language of the registry (a charset in the place of a language:
// lang="utf-8", "xx") or names none in particular ("und", "mul",
// "zxx", "mis").
func primaryTag(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "-_,; "); i >= 0 {
		s = s[:i]
	}
	s = strings.ToLower(s)
	if len(s) < 2 || len(s) > 3 {
		return ""
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return ""
		}
	}
	b, err := language.ParseBase(s)
	if err != nil {
		return ""
	}
	switch code := b.String(); code {
	case "und", "mul", "zxx", "mis":
		return ""
	default:
		return code
	}
}
