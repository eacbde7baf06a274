package metadata

import (
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/valyala/fastjson"
)

// ldInfo is what the page's JSON-LD says of the page itself.
type ldInfo struct {
	headline, name, description string
	authors                     []string
	orgAuthors                  []string // organisations named as the author
	published, modified         string
	siteName, publisher         string
	image, url                  string
	categories, tags            []string
	crumb                       string // the page's own (last) entry of its BreadcrumbList
	lang                        string
	types                       []string // @type of the main object
	refAuthors                  []string // people the main object's author refers to by @id (see summarize)
	// pagePublished: published is the date of the page's WebPage
	// object, not of an article-like one.
	pagePublished bool
}

// Kinds of schema.org object, from the most to the least telling about
// the page's own content.
var (
	ldArticle = set("Article", "NewsArticle", "BlogPosting", "Report", "ScholarlyArticle", "TechArticle",
		"AnalysisNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "BackgroundNewsArticle",
		"ReviewNewsArticle", "LiveBlogPosting", "SocialMediaPosting", "DiscussionForumPosting",
		"Review", "Recipe", "HowTo", "Guide", "Posting", "MedicalWebPage", "QAPage", "Question",
		"Product", "Event", "Course", "JobPosting", "VideoObject", "PodcastEpisode", "Book", "Thesis")
	ldPerson  = set("Person")
	ldOrg     = set("Organization", "NewsMediaOrganization", "Corporation", "WebSite", "Brand", "LocalBusiness")
	ldWebSite = set("WebSite")
	ldCrumbs  = set("BreadcrumbList")
	ldPage    = set("WebPage", "ItemPage", "AboutPage", "ContactPage", "CollectionPage", "ProfilePage",
		"SearchResultsPage", "FAQPage", "CheckoutPage", "RealEstateListing")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// ldObject is one typed object found in the page's JSON-LD.
type ldObject struct {
	types []string
	v     *fastjson.Value // an object
}

// kind is v's JSON type; a missing value (nil) is null.
func kind(v *fastjson.Value) fastjson.Type {
	if v == nil {
		return fastjson.TypeNull
	}
	return v.Type()
}

// object is v if it is an object, else nil.
func object(v *fastjson.Value) *fastjson.Value {
	if kind(v) == fastjson.TypeObject {
		return v
	}
	return nil
}

// items are the members of an array, or nil.
func items(v *fastjson.Value) []*fastjson.Value {
	if kind(v) != fastjson.TypeArray {
		return nil
	}
	a, _ := v.Array()
	return a
}

// parseLD reads the page's JSON-LD scripts, leniently: comments and CDATA
// wrappers, trailing commas, raw line breaks in strings and HTML entities
// are repaired, several values in one script are all read. A script that
// cannot be read, or the bytes over maxLDText, give a warning.
func parseLD(texts []string, warnings *[]string) ldInfo {
	var ps ldParsers
	defer ps.release()
	var objs []ldObject
	budget := maxLDText
	for i, t := range texts {
		if len(t) > budget {
			*warnings = append(*warnings, fmt.Sprintf("json-ld: script %d of %d bytes over the %d-byte limit, not read", i+1, len(t), maxLDText))
			continue
		}
		budget -= len(t)
		vals, err := ps.decodeLD(t)
		if err != nil {
			*warnings = append(*warnings, fmt.Sprintf("json-ld: script %d unreadable: %v", i+1, err))
		}
		for _, v := range vals {
			gather(v, &objs, 0)
		}
	}
	return summarize(objs)
}

// ldParsers lends the parsers of one page's scripts. A value read lives
// in its parser's buffers, so every parser used stays out of the pool
// until the page's JSON-LD is summarized (into strings of its own).
type ldParsers struct{ used []*fastjson.Parser }

var parserPool fastjson.ParserPool

func (ps *ldParsers) parse(s string) (*fastjson.Value, error) {
	p := parserPool.Get()
	ps.used = append(ps.used, p)
	return p.Parse(s)
}

func (ps *ldParsers) release() {
	for _, p := range ps.used {
		parserPool.Put(p)
	}
	ps.used = nil
}

var (
	trailingComma = regexp.MustCompile(`,\s*([}\]])`)
	ldWrapper     = strings.NewReplacer("<!--", "", "-->", "", "<![CDATA[", "", "]]>", "", "//<![CDATA[", "", "//]]>", "")
)

// decodeLD decodes every JSON value of one script, repairing what it can
// (raw control characters in strings need no repair: the parser takes
// them).
func (ps *ldParsers) decodeLD(t string) ([]*fastjson.Value, error) {
	if wrapped(t) {
		t = ldWrapper.Replace(t) // the replacer reads every byte even when it has nothing to do
	}
	t = strings.TrimSpace(t)
	vals, err := ps.decodeAll(t)
	if err == nil {
		return vals, nil
	}
	r := trailingComma.ReplaceAllString(t, "$1")
	if strings.Contains(r, "&quot;") || strings.Contains(r, "&#") {
		r = html.UnescapeString(r)
	}
	if vals2, err2 := ps.decodeAll(r); err2 == nil {
		return vals2, nil
	}
	return vals, err
}

// wrapped says whether t has "<!", "-->" or "]]>", one of which each of
// ldWrapper's strings has. It looks only at the '<' and '>' of t, which
// a JSON-LD script seldom has, where it has many a '-' (dates, URLs).
func wrapped(t string) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(t[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if i+1 < len(t) && t[i+1] == '!' {
			return true
		}
	}
	for i := 0; ; i++ {
		j := strings.IndexByte(t[i:], '>')
		if j < 0 {
			return false
		}
		i += j
		if i >= 2 && (t[i-2:i] == "--" || t[i-2:i] == "]]") {
			return true
		}
	}
}

// decodeAll decodes the values of t one after another (a script may
// hold several, as JSON lines); it returns those read before an error.
func (ps *ldParsers) decodeAll(t string) ([]*fastjson.Value, error) {
	v, err := ps.parse(t)
	if err == nil { // the usual script: one value
		return []*fastjson.Value{v}, nil
	}
	var sc fastjson.Scanner
	sc.Init(t)
	var out []*fastjson.Value
	for sc.Next() {
		// The scanner's value lives until its next one: it is read
		// again by a parser of its own.
		v, err := ps.parse(string(sc.Value().MarshalTo(nil)))
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	if err := sc.Error(); err != nil {
		return out, err
	}
	if len(out) == 0 {
		return nil, err // no value at all: the parser's word for it
	}
	return out, nil
}

// gather collects the typed objects of a value: the value itself, the
// members of @graph and of arrays, and the main entity.
func gather(v *fastjson.Value, objs *[]ldObject, depth int) {
	if depth > 8 {
		return
	}
	switch kind(v) {
	case fastjson.TypeArray:
		for _, e := range items(v) {
			gather(e, objs, depth+1)
		}
	case fastjson.TypeObject:
		if ts := types(v.Get("@type")); len(ts) > 0 {
			*objs = append(*objs, ldObject{ts, v})
		}
		if g := v.Get("@graph"); g != nil {
			gather(g, objs, depth+1)
		}
		if me := object(v.Get("mainEntity")); me != nil && len(types(me.Get("@type"))) > 0 {
			gather(me, objs, depth+1)
		}
	}
}

// types reads an @type: a string or an array of strings, with any
// schema.org prefix removed.
func types(v *fastjson.Value) []string {
	var out []string
	add := func(b []byte) {
		s := string(b)
		s = strings.TrimPrefix(strings.TrimPrefix(s, "http://schema.org/"), "https://schema.org/")
		s = strings.TrimPrefix(s, "schema:")
		if s != "" {
			out = append(out, s)
		}
	}
	switch kind(v) {
	case fastjson.TypeString:
		add(v.GetStringBytes())
	case fastjson.TypeArray:
		for _, e := range items(v) {
			if kind(e) == fastjson.TypeString {
				add(e.GetStringBytes())
			}
		}
	}
	return out
}

func anyOf(ts []string, kinds map[string]bool) bool {
	for _, t := range ts {
		if kinds[t] {
			return true
		}
	}
	return false
}

// summarize picks the page's main object (an article-like one first,
// then a web page) and the site's name.
func summarize(objs []ldObject) ldInfo {
	var info ldInfo
	var main, page *fastjson.Value
	ids := &ldIDs{objs: objs}
	for _, o := range objs {
		switch {
		case main == nil && anyOf(o.types, ldArticle):
			main = o.v
			info.types = o.types
		case page == nil && anyOf(o.types, ldPage):
			page = o.v
		}
		switch {
		case anyOf(o.types, ldWebSite):
			if info.siteName == "" {
				info.siteName = str(o.v.Get("name"))
			}
		case anyOf(o.types, ldCrumbs):
			if len(info.categories) == 0 {
				var own string
				info.categories, own = crumbs(o.v)
				if info.crumb == "" {
					info.crumb = own
				}
			}
		}
	}
	var entity *fastjson.Value // what the main object is about: a QAPage's Question
	if main != nil {
		entity = object(main.Get("mainEntity"))
	}
	for i, m := range []*fastjson.Value{main, entity, page} {
		if m == nil {
			continue
		}
		isMain := i == 0
		fill(&info.headline, str(m.Get("headline")))
		fill(&info.name, str(m.Get("name")))
		fill(&info.description, str(m.Get("description")))
		people, orgs := names(m.Get("author"), nil)
		if len(people) == 0 {
			people, _ = names(m.Get("creator"), nil)
		}
		if len(people) == 0 && len(info.refAuthors) == 0 {
			// An author named by a reference to a Person of the @graph
			// (Yoast SEO) is the CMS's account that posted the page: on
			// news sites often a web producer, not the writer the byline
			// names. It stands in when no byline does (see authors).
			var refOrgs []string
			info.refAuthors, refOrgs = names(m.Get("author"), ids)
			if len(orgs) == 0 {
				orgs = refOrgs
			}
		}
		if len(info.authors) == 0 {
			info.authors = people
		}
		if len(info.orgAuthors) == 0 {
			info.orgAuthors = orgs
		}
		had := info.published != ""
		fill(&info.published, str(m.Get("datePublished")))
		fill(&info.published, str(m.Get("dateCreated")))
		fill(&info.published, str(m.Get("uploadDate")))
		if !had && info.published != "" && i == 2 {
			info.pagePublished = true
		}
		fill(&info.modified, str(m.Get("dateModified")))
		fill(&info.image, imageURL(m.Get("image"), ids))
		fill(&info.image, imageURL(m.Get("thumbnailUrl"), nil))
		fill(&info.url, str(m.Get("url")))
		fill(&info.lang, str(m.Get("inLanguage")))
		if p := object(ids.resolve(m.Get("publisher"))); p != nil {
			fill(&info.publisher, str(p.Get("name")))
		}
		if len(info.tags) == 0 {
			info.tags = keywords(m.Get("keywords"))
		}
		if s := strList(m.Get("articleSection")); len(s) > 0 && isMain {
			info.categories = s
		}
		if page != nil && isMain && isNull(main.Get("headline")) && isNull(main.Get("name")) {
			fill(&info.headline, str(page.Get("headline")))
		}
	}
	if main == nil && page != nil {
		// A web page's name is often the <title>, site name and all; keep
		// it as the name, not the headline.
		info.headline = str(page.Get("headline"))
	}
	return info
}

// isNull says whether a value is missing or null.
func isNull(v *fastjson.Value) bool { return kind(v) == fastjson.TypeNull }

// isRef says whether a value is only a reference to another object of
// the page's JSON-LD: an object with its @id alone ({"@id":
// "#/schema/person/1"}, as Yoast SEO writes an article's author and
// publisher into its @graph).
func isRef(v *fastjson.Value) bool {
	o, err := v.Object()
	return err == nil && o.Len() == 1 && o.Get("@id") != nil
}

// ldIDs are the typed objects of a page's JSON-LD by their @id, indexed
// on the first reference resolve meets.
type ldIDs struct {
	objs []ldObject
	byID map[string]*fastjson.Value
}

// resolve returns the object v refers to, or v itself when it is no
// reference or refers to no object; a nil ldIDs resolves nothing.
func (ids *ldIDs) resolve(v *fastjson.Value) *fastjson.Value {
	if ids == nil || kind(v) != fastjson.TypeObject || !isRef(v) {
		return v
	}
	if ids.byID == nil {
		ids.byID = map[string]*fastjson.Value{}
		for _, o := range ids.objs {
			if k := str(o.v.Get("@id")); k != "" {
				if _, dup := ids.byID[k]; !dup {
					ids.byID[k] = o.v
				}
			}
		}
	}
	if o, ok := ids.byID[str(v.Get("@id"))]; ok {
		return o
	}
	return v
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// str reads a text value: a string, a number, or the first of an array,
// HTML entities decoded and tags left out.
func str(v *fastjson.Value) string {
	switch kind(v) {
	case fastjson.TypeString:
		return fold(unescapeText(string(v.GetStringBytes())))
	case fastjson.TypeNumber:
		f, err := v.Float64()
		if err != nil {
			return ""
		}
		return fmt.Sprint(f)
	case fastjson.TypeArray:
		for _, e := range items(v) {
			if s := str(e); s != "" {
				return s
			}
		}
	case fastjson.TypeObject:
		return str(v.Get("@value"))
	}
	return ""
}

// isOrg says whether an object is an organisation, not a person.
func isOrg(v *fastjson.Value) bool {
	ts := types(v.Get("@type"))
	return len(ts) > 0 && !anyOf(ts, ldPerson) && anyOf(ts, ldOrg)
}

// names reads an author value: a string, an object with a name, or an
// array of them, each resolved by ids when it refers to another object
// (nil ids: references name nobody). People and organisations come
// apart: an organisation as the author is the site, not a byline, and
// stands in only when no person is named anywhere on the page.
func names(v *fastjson.Value, ids *ldIDs) (people, orgs []string) {
	v = ids.resolve(v)
	switch kind(v) {
	case fastjson.TypeString:
		if s := str(v); s != "" && !looksLikeURL(s) {
			people = []string{s}
		}
	case fastjson.TypeObject:
		s := str(v.Get("name"))
		switch {
		case isOrg(v):
			if s != "" {
				orgs = []string{s}
			}
		case s != "":
			people = []string{s}
		default:
			if s := strings.TrimSpace(str(v.Get("givenName")) + " " + str(v.Get("familyName"))); s != "" {
				people = []string{s}
			}
		}
	case fastjson.TypeArray:
		for _, e := range items(v) {
			p, o := names(e, ids)
			people, orgs = append(people, p...), append(orgs, o...)
		}
	}
	return people, orgs
}

// imageURL reads an image value: a URL, an ImageObject, or the first of
// an array of them, resolved by ids as names is.
func imageURL(v *fastjson.Value, ids *ldIDs) string {
	v = ids.resolve(v)
	switch kind(v) {
	case fastjson.TypeString:
		return strings.TrimSpace(string(v.GetStringBytes()))
	case fastjson.TypeObject:
		if s := str(v.Get("url")); s != "" {
			return s
		}
		return str(v.Get("contentUrl"))
	case fastjson.TypeArray:
		for _, e := range items(v) {
			if s := imageURL(e, ids); s != "" {
				return s
			}
		}
	}
	return ""
}

func strList(v *fastjson.Value) []string {
	switch kind(v) {
	case fastjson.TypeString:
		if s := str(v); s != "" {
			return []string{s}
		}
	case fastjson.TypeArray:
		var out []string
		for _, e := range items(v) {
			if s := str(e); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// keywords reads a keywords value: an array, or one comma-separated string.
func keywords(v *fastjson.Value) []string {
	if kind(v) == fastjson.TypeString {
		var out []string
		for k := range strings.SplitSeq(string(v.GetStringBytes()), ",") {
			if k = strings.TrimSpace(fold(unescapeText(k))); k != "" {
				out = append(out, k)
			}
		}
		return out
	}
	return strList(v)
}

// crumbs reads a BreadcrumbList's names, the home entry and the page's
// own entry (the last, own) left out.
func crumbs(v *fastjson.Value) (sections []string, own string) {
	var out []string
	for _, m := range items(v.Get("itemListElement")) {
		if kind(m) != fastjson.TypeObject {
			continue
		}
		n := str(m.Get("name"))
		if n == "" {
			if item := object(m.Get("item")); item != nil {
				n = str(item.Get("name"))
			}
		}
		if n != "" {
			out = append(out, n)
		}
	}
	if len(out) > 0 && isHome(out[0]) {
		out = out[1:]
	}
	if len(out) > 0 {
		out, own = out[:len(out)-1], out[len(out)-1]
	}
	return out, own
}

func isHome(s string) bool {
	switch strings.ToLower(s) {
	case "home", "homepage", "start", "startseite", "accueil", "inicio", "главная", "首页", "home page":
		return true
	}
	return false
}

func looksLikeURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "/")
}
