package metadata

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/internal/textseg"
)

// Sources of a field, as Metadata.Sources names them.
const (
	SourceJSONLD    = "json-ld"   // a <script type="application/ld+json"> object
	SourceMicrodata = "microdata" // itemprop attributes (and RDFa property)
	SourceOpenGraph = "opengraph" // og:*, article:* and twitter:* meta tags
	SourceMeta      = "meta"      // other <meta> tags (author, dc.*, citation_*), <link rel>
	SourceTime      = "time"      // a <time> element
	SourceByline    = "byline"    // an author or date line near the headline
	SourceHeadline  = "h1"        // the page's first-level heading
	SourceTitleTag  = "title"     // the document's <title>
	SourceURL       = "url"       // the page address
	SourceText      = "text"      // the page's text
)

// Metadata is what a page says about itself. Empty fields are unknown;
// Sources maps each filled field (by its JSON key) to where it came from.
type Metadata struct {
	// Title is the headline, without the site name a <title> appends.
	Title   string   `json:"title,omitempty" yaml:"title,omitempty"`
	Authors []string `json:"authors,omitempty" yaml:"authors,omitempty"`
	// Published and Modified are calendar days, YYYY-MM-DD, as the page
	// states them (no time-zone conversion); PublishedAt and ModifiedAt
	// are RFC 3339 when the page also gives the time of day.
	Published    string   `json:"published,omitempty" yaml:"published,omitempty"`
	PublishedAt  string   `json:"published_at,omitempty" yaml:"published_at,omitempty"`
	Modified     string   `json:"modified,omitempty" yaml:"modified,omitempty"`
	ModifiedAt   string   `json:"modified_at,omitempty" yaml:"modified_at,omitempty"`
	SiteName     string   `json:"site_name,omitempty" yaml:"site_name,omitempty"`
	Description  string   `json:"description,omitempty" yaml:"description,omitempty"`
	CanonicalURL string   `json:"canonical_url,omitempty" yaml:"canonical_url,omitempty"`
	Image        string   `json:"image,omitempty" yaml:"image,omitempty"`
	Categories   []string `json:"categories,omitempty" yaml:"categories,omitempty"`
	Tags         []string `json:"tags,omitempty" yaml:"tags,omitempty"`
	// Lang is an ISO 639-1 code and LangConfidence how sure the
	// identification is (0-1); see Options.Identify.
	Lang           string            `json:"lang,omitempty" yaml:"lang,omitempty"`
	LangConfidence float64           `json:"lang_confidence,omitempty" yaml:"-"`
	Sources        map[string]string `json:"metadata_sources,omitempty" yaml:"-"`
	// Warnings are faults of the page's metadata a user would want to
	// know about (broken JSON-LD, an absurd date).
	Warnings []string `json:"-" yaml:"-"`
}

// Input is what the caller knows of the page beyond its tree.
type Input struct {
	URL *url.URL // the page's address (nil when unknown)
	// Text is the page's main text, for the language and, when the
	// structured sources give none, the date.
	Text string
	// Closing is the end of the page's main text (its last blocks),
	// where a Chinese news item credits its writers in brackets
	// ("（常书香 马丹阳）"); "" when unknown.
	Closing string
	// ContentLanguage is the HTTP Content-Language header, if any.
	ContentLanguage string
	// PageType is the page's type as package extract names it ("" when
	// unknown). A listing, collection, product, service or documentation
	// page has no author or publication date of its own: the names and
	// dates on it are its items'.
	PageType string
}

// authored says whether a page of this type has an author of its own.
// On wcxb-dev-even, 318 of 403 article and forum pages have a gold author
// and 8 of 269 pages of the other types.
func authored(pageType string) bool {
	switch pageType {
	case "listing", "collection", "product", "service", "documentation":
		return false
	}
	return true
}

// hasDate says whether a page of this type has a publication date of its
// own. Collections, products and documentation pages have none (on
// wcxb-dev-even 2 of 130 have a gold date). Listings and service pages
// keep theirs: 4 of 139 have a gold date there, but the page-type model
// calls 321 of the 1,000 dated news and blog pages of the htmldate set
// listings or services, and leaving their dates out would cost far more
// than it gains.
func hasDate(pageType string) bool {
	switch pageType {
	case "collection", "product", "documentation":
		return false
	}
	return true
}

// front says whether a page of this type may be a site's front: its home,
// a section's front page, a service's landing page. At a short address
// (shortAddress) such a page has no publication date of its own: the
// dates on it are its items' or the site's last edit (on wcxb-dev-even,
// tuned on half 1, date accuracy 0.851 -> 0.877; the held-out half 2
// 0.854 -> 0.888).
func front(pageType string) bool {
	return pageType == "listing" || pageType == "service"
}

// shortAddress says whether the page's address names a site's front
// rather than one document: at most two path segments, each a name of at
// most two words ("/news", "/nfl/schedule", "/about-us"), no digits in
// them or in the query (an article's slug has more words, its id digits:
// "/?p=959"). Only the address the page was fetched at counts: a page's
// canonical link names the home page on some sites' articles.
func shortAddress(u *url.URL) bool {
	if u == nil || u.Host == "" || strings.ContainsAny(u.RawQuery, "0123456789") {
		return false
	}
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if len(segs) > 2 {
		return false
	}
	for _, s := range segs {
		words := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '+' })
		if len(words) > 2 || strings.ContainsAny(s, "0123456789") {
			return false
		}
	}
	return true
}

// Options configure Read. The zero value is ready.
type Options struct {
	// Now is the latest acceptable date (zero: Fetched, or the time of
	// the call without it); a later date is a fault of the page and is
	// not used.
	Now time.Time
	// Fetched is when the page was fetched (zero: unknown; one before
	// 1995 is a fault of the input, warned of and not used). A date the
	// page shows as the time since ("3 hours ago", "vor 2 Tagen", "昨天")
	// is read against it, and only when it is known: the time of a later
	// run would give another day.
	Fetched time.Time
	// Identify names the language of a text with its confidence (0-1),
	// given the ISO 639-1 code of the language the page declares ("" for
	// none) as evidence (langid.Identifier.IdentifyDeclared); nil leaves
	// Lang to what the page declares.
	Identify func(text, declared string) (lang string, confidence float64)
}

// maxField bounds the length of a text field: a description or title
// longer than this is cut at a word boundary.
const maxField = 1000

// Read collects the metadata of a parsed page.
func Read(doc *html.Node, in Input, o Options) Metadata {
	k := NewCollector()
	k.Walk(doc)
	return k.Read(doc, in, o)
}

// A Collector gathers what a page's tree says about itself in one walk,
// and Read makes the page's metadata of it. It is an extract.Visitor, so
// that extract's segmenter walks the tree for it (extract.Options.Visitor):
// the metadata stage then adds no walk of its own. Its zero value is not
// ready: use NewCollector.
type Collector struct {
	c collector
}

// NewCollector returns a Collector that has seen nothing yet.
func NewCollector() *Collector {
	return &Collector{c: newCollector()}
}

// Enter reads an element; false means its subtree says nothing more.
func (k *Collector) Enter(n *html.Node) bool { return k.c.enter(n) }

// Leave ends an element that Enter read.
func (k *Collector) Leave(n *html.Node) { k.c.leave(n) }

// Text reads a text node.
func (k *Collector) Text(n *html.Node) { k.c.text(n) }

// Walk reads the subtree of n.
func (k *Collector) Walk(n *html.Node) { k.c.walk(n) }

// descriptionKeys are the meta keys (and microdata properties) of the
// page's description, most trusted first.
var descriptionKeys = []string{"description", "og:description", "twitter:description", "dc.description"}

// Read is the metadata of the page whose tree doc k followed (Walk, or
// the calls of extract's segmenter), in document order; doc is read again
// only by the rarer checks (a date written nowhere else, the last-resort
// scan). Read leaves k as it was: reading again gives the same.
func (k *Collector) Read(doc *html.Node, in Input, o Options) Metadata {
	w := &k.c
	var faults []string
	if !o.Fetched.IsZero() && dayOf(o.Fetched).before(earliest) {
		// A fetch time before the web (a WARC-Date of 1970) is a fault
		// of the input: it neither bounds the dates nor dates "3 hours
		// ago".
		faults = append(faults, "metadata: fetch time "+o.Fetched.UTC().Format(time.RFC3339)+" before 1995, not used")
		o.Fetched = time.Time{}
	}
	if o.Now.IsZero() {
		o.Now = o.Fetched
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	host := ""
	if in.URL != nil {
		host = in.URL.Hostname()
	}
	c := w.finish(doc, host)
	m := Metadata{Sources: map[string]string{}}
	m.Warnings = append(append(m.Warnings, faults...), c.warnings...)
	base := in.URL
	switch {
	case c.base != nil && base != nil:
		base = base.ResolveReference(c.base)
	case c.base != nil && c.base.IsAbs():
		base = c.base // a page with no address of its own: its <base href> still resolves its links
	}
	m.SiteName = m.pick("site_name", c.site)
	m.Title = m.pick("title", c.title(in.PageType))
	if authored(in.PageType) {
		m.Authors = m.pickList("authors", c.authors(in.PageType, in.Closing))
		if in.PageType == "forum" && len(m.Authors) > 1 {
			// A thread's author is its first post's; the names after
			// it are those who replied.
			m.Authors = m.Authors[:1]
		}
	}
	m.Description = m.pick("description", c.first(c.ld.description, descriptionKeys...))
	m.CanonicalURL = m.pick("canonical_url", c.canonical(base))
	m.Image = m.pick("image", c.image(base))
	m.Categories = m.pickList("categories", c.categories())
	m.Tags = m.pickList("tags", c.tags())
	// The language before the dates: the text's, where it is not the
	// declared one, tells how the page writes a date in digits
	// (dateLang).
	m.lang(c, in, o)
	if m.Sources["lang"] == SourceText && m.Lang != primaryTag(c.htmlLang) {
		c.textLang = m.Lang
	}
	addr := in.URL
	if addr != nil && addr.Scheme == "file" {
		// A file's path is where a crawl was saved, not the page's
		// address: its name's date is the crawl's ("20120106_…"). The
		// page's canonical address stands in, as for a page read
		// without one.
		addr = nil
	}
	// The whole page is searched for a date only on pages that have an
	// author of their own (articles, forums): elsewhere the dates in the
	// page are its items'.
	d := c.dates(addr, in.Text, o.Now, o.Fetched, in.PageType)
	m.Warnings = append(m.Warnings, d.warnings...)
	if d.published.ok() && hasDate(in.PageType) && !(front(in.PageType) && shortAddress(addr)) {
		m.Published, m.PublishedAt = d.published.day(), d.published.stamp()
		m.Sources["published"] = d.published.source
	}
	if d.modified.ok() {
		m.Modified, m.ModifiedAt = d.modified.day(), d.modified.stamp()
		m.Sources["modified"] = d.modified.source
	}
	if len(m.Sources) == 0 {
		m.Sources = nil
	}
	return m
}

// valued is a value with its source.
type valued struct {
	val, source string
}

// listed is a list of values with their source.
type listed struct {
	vals   []string
	source string
}

func (m *Metadata) pick(key string, v valued) string {
	if key != "canonical_url" && key != "image" {
		v.val = unescapeText(v.val)
	}
	v.val = clip(v.val)
	if v.val != "" {
		m.Sources[key] = v.source
	}
	return v.val
}

func (m *Metadata) pickList(key string, l listed) []string {
	var out []string
	for _, v := range l.vals {
		if v = clip(unescapeText(v)); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if len(out) > 0 {
		m.Sources[key] = l.source
	}
	return out
}

// unescapeText repairs a text value a page escaped twice or more:
// entities left in it once the HTML was parsed ("Australia&#039;s",
// "&mdash;", "enth&uuml;llen") are decoded, up to three times; tags
// written as text ("<p> &nbsp;</p>") go, and so do byte-order marks,
// soft hyphens and zero-width spaces (textseg.DropInvisible). A text
// without "&", "<" or one of those comes back as it is. URLs are not
// passed through it: "&copy=2" in a query is no entity.
func unescapeText(s string) string {
	for range 3 { // "&amp;amp;nbsp;" in a JSON-LD string: escaped three times
		if !hasEntity(s) {
			break
		}
		s = html.UnescapeString(s)
	}
	if strings.IndexByte(s, '<') >= 0 {
		s = closingInline.ReplaceAllString(markup.ReplaceAllString(s, " "), "")
	}
	return textseg.DropInvisible(s)
}

// hasEntity says whether s holds an HTML entity: "&", then "#" and
// digits (or "#x" and hex digits) or a letter and letters and digits,
// then ";", 32 bytes at the most.
func hasEntity(s string) bool {
	for i := strings.IndexByte(s, '&'); i >= 0; {
		rest := s[i+1:]
		end := strings.IndexByte(rest, ';')
		if end > 0 && end <= 32 && entityName(rest[:end]) {
			return true
		}
		j := strings.IndexByte(rest, '&')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// entityName says whether n is what stands between "&" and ";" in an
// entity: "#39", "#x27", "mdash".
func entityName(n string) bool {
	digits := func(s string, hex bool) bool {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c >= '0' && c <= '9' || hex && (c|0x20 >= 'a' && c|0x20 <= 'f')) {
				return false
			}
		}
		return s != ""
	}
	switch {
	case n[0] == '#' && len(n) > 1 && (n[1] == 'x' || n[1] == 'X'):
		return digits(n[2:], true)
	case n[0] == '#':
		return digits(n[1:], false)
	}
	c := n[0] | 0x20
	if c < 'a' || c > 'z' {
		return false
	}
	for i := 1; i < len(n); i++ {
		if !asciiAlnum(n[i]) {
			return false
		}
	}
	return true
}

var (
	// The tags of HTML written as text. An inline element's closing tag
	// leaves nothing ("<strong>Mini-SGLang</strong>,"); every other tag
	// leaves a space ("and<a>Read More</a>"). Only HTML's names count:
	// "<The Palace: Tale of Jang Noksu>" is a title in Korean-style
	// brackets.
	closingInline = regexp.MustCompile(`(?i)</(?:a|b|i|u|em|strong|span|font|small|sup|sub|mark|abbr|cite|q)\s*>`)
	markup        = regexp.MustCompile(`(?i)<(?:/?(?:p|br|div|li|ul|ol|h[1-6]|hr|img|blockquote|table|tr|td)|(?:a|b|i|u|em|strong|span|font|small|sup|sub|mark|abbr|cite|q))(?:\s[^<>]*)?/?>`)
)

// clip folds white space and bounds the length.
func clip(s string) string {
	s = fold(s)
	if len(s) <= maxField {
		return s
	}
	cut := strings.LastIndexByte(s[:maxField], ' ')
	if cut < maxField/2 {
		cut = maxField
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
	}
	return s[:cut]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// fold is strings.Join(strings.Fields(s), " "): s with each run of white
// space folded to one space and none at either end. Most values are
// folded already, and come back as they are, without a copy.
func fold(s string) string {
	if folded(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// folded says whether s has no white space but single spaces between
// other characters (unicode.IsSpace, as strings.Fields reads it).
func folded(s string) bool {
	space := true // at the start, a space is one too many
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c == ' ' {
				if space {
					return false
				}
				space = true
				continue
			}
			if '\t' <= c && c <= '\r' {
				return false
			}
			space = false
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsSpace(r) {
			return false
		}
		space = false
	}
	return !space || s == ""
}

// FrontMatter is the metadata as a YAML front-matter block ("---" lines
// around it, a blank line after), for a Markdown document to open with;
// "" when there is none.
func (m Metadata) FrontMatter() string {
	b, err := yaml.Marshal(m) // the fields tagged for it: no sources, confidence or warnings
	if err != nil || string(b) == "{}\n" {
		return ""
	}
	return "---\n" + string(b) + "---\n\n"
}
