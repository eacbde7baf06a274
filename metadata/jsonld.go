package metadata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
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
	v     map[string]any
}

// parseLD reads the page's JSON-LD scripts, leniently: comments and CDATA
// wrappers, trailing commas, raw line breaks in strings and HTML entities
// are repaired, several values in one script are all read. A script that
// cannot be read, or the bytes over maxLDText, give a warning.
func parseLD(texts []string, warnings *[]string) ldInfo {
	var objs []ldObject
	budget := maxLDText
	for i, t := range texts {
		if len(t) > budget {
			*warnings = append(*warnings, fmt.Sprintf("json-ld: script %d of %d bytes over the %d-byte limit, not read", i+1, len(t), maxLDText))
			continue
		}
		budget -= len(t)
		vals, err := decodeLD(t)
		if err != nil {
			*warnings = append(*warnings, fmt.Sprintf("json-ld: script %d unreadable: %v", i+1, err))
		}
		for _, v := range vals {
			gather(v, &objs, 0)
		}
	}
	return summarize(objs)
}

var (
	trailingComma = regexp.MustCompile(`,\s*([}\]])`)
	ldWrapper     = strings.NewReplacer("<!--", "", "-->", "", "<![CDATA[", "", "]]>", "", "//<![CDATA[", "", "//]]>", "")
)

// decodeLD decodes every JSON value of one script, repairing what it can.
func decodeLD(t string) ([]any, error) {
	if wrapped(t) {
		t = ldWrapper.Replace(t) // the replacer reads every byte even when it has nothing to do
	}
	t = strings.TrimSpace(t)
	vals, err := decodeAll(t)
	if err == nil {
		return vals, nil
	}
	r := trailingComma.ReplaceAllString(t, "$1")
	r = strings.Map(func(c rune) rune {
		if c < 0x20 {
			return ' ' // raw control characters are not allowed in JSON strings
		}
		return c
	}, r)
	if strings.Contains(r, "&quot;") || strings.Contains(r, "&#") {
		r = html.UnescapeString(r)
	}
	if vals2, err2 := decodeAll(r); err2 == nil {
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

// decodeAll decodes the values one after another; it returns those read
// before an error.
func decodeAll(t string) ([]any, error) {
	var one any
	if json.Unmarshal([]byte(t), &one) == nil { // the usual script: one value, read without a decoder's buffering
		return []any{one}, nil
	}
	dec := json.NewDecoder(strings.NewReader(t))
	var out []any
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" && len(out) > 0 {
				return out, nil
			}
			if len(bytes.TrimSpace([]byte(t[dec.InputOffset():]))) == 0 && len(out) > 0 {
				return out, nil
			}
			return out, err
		}
		out = append(out, v)
	}
}

// gather collects the typed objects of a value: the value itself, the
// members of @graph and of arrays, and the main entity.
func gather(v any, objs *[]ldObject, depth int) {
	if depth > 8 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			gather(e, objs, depth+1)
		}
	case map[string]any:
		if ts := types(x["@type"]); len(ts) > 0 {
			*objs = append(*objs, ldObject{ts, x})
		}
		if g, ok := x["@graph"]; ok {
			gather(g, objs, depth+1)
		}
		if me, ok := x["mainEntity"].(map[string]any); ok && len(types(me["@type"])) > 0 {
			gather(me, objs, depth+1)
		}
	}
}

// types reads an @type: a string or an array of strings, with any
// schema.org prefix removed.
func types(v any) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimPrefix(strings.TrimPrefix(s, "http://schema.org/"), "https://schema.org/")
		s = strings.TrimPrefix(s, "schema:")
		if s != "" {
			out = append(out, s)
		}
	}
	switch x := v.(type) {
	case string:
		add(x)
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				add(s)
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
	var main, page map[string]any
	ids := ldIDs{objs: objs}
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
				info.siteName = str(o.v["name"])
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
	var entity map[string]any // what the main object is about: a QAPage's Question
	if main != nil {
		entity, _ = main["mainEntity"].(map[string]any)
	}
	for i, m := range []map[string]any{main, entity, page} {
		if m == nil {
			continue
		}
		isMain := i == 0
		fill(&info.headline, str(m["headline"]))
		fill(&info.name, str(m["name"]))
		fill(&info.description, str(m["description"]))
		people, orgs := names(m["author"])
		if len(people) == 0 {
			people, _ = names(m["creator"])
		}
		if len(people) == 0 && len(info.refAuthors) == 0 {
			// An author named by a reference to a Person of the @graph
			// (Yoast SEO) is the CMS's account that posted the page: on
			// news sites often a web producer, not the writer the byline
			// names. It stands in when no byline does (see authors).
			var refOrgs []string
			info.refAuthors, refOrgs = names(deref(m["author"], &ids))
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
		fill(&info.published, str(m["datePublished"]))
		fill(&info.published, str(m["dateCreated"]))
		fill(&info.published, str(m["uploadDate"]))
		if !had && info.published != "" && i == 2 {
			info.pagePublished = true
		}
		fill(&info.modified, str(m["dateModified"]))
		fill(&info.image, imageURL(deref(m["image"], &ids)))
		fill(&info.image, imageURL(m["thumbnailUrl"]))
		fill(&info.url, str(m["url"]))
		fill(&info.lang, str(m["inLanguage"]))
		if p, ok := deref(m["publisher"], &ids).(map[string]any); ok {
			fill(&info.publisher, str(p["name"]))
		}
		if len(info.tags) == 0 {
			info.tags = keywords(m["keywords"])
		}
		if s := strList(m["articleSection"]); len(s) > 0 && isMain {
			info.categories = s
		}
		if page != nil && isMain && main["headline"] == nil && main["name"] == nil {
			fill(&info.headline, str(page["headline"]))
		}
	}
	if main == nil && page != nil {
		// A web page's name is often the <title>, site name and all; keep
		// it as the name, not the headline.
		info.headline = str(page["headline"])
	}
	return info
}

// deref replaces a reference to another object of the page's JSON-LD
// ({"@id": "#/schema/person/1"}, as Yoast SEO writes an article's author
// and publisher into its @graph) by that object, in v or in the members
// of v; a reference to no object, or an object with more than its @id,
// stays.
func deref(v any, ids *ldIDs) any {
	switch x := v.(type) {
	case map[string]any:
		if isRef(x) {
			if o, ok := ids.get(str(x["@id"])); ok {
				return o
			}
		}
	case []any:
		if !slices.ContainsFunc(x, func(e any) bool { m, ok := e.(map[string]any); return ok && isRef(m) }) {
			return v // the usual array: no member to replace, no copy
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deref(e, ids)
		}
		return out
	}
	return v
}

// isRef says whether an object is only a reference: its @id alone.
func isRef(m map[string]any) bool {
	_, ok := m["@id"]
	return ok && len(m) == 1
}

// ldIDs are the typed objects of a page's JSON-LD by their @id, indexed
// on the first reference deref meets.
type ldIDs struct {
	objs []ldObject
	byID map[string]map[string]any
}

func (ids *ldIDs) get(id string) (map[string]any, bool) {
	if ids.byID == nil {
		ids.byID = map[string]map[string]any{}
		for _, o := range ids.objs {
			if k := str(o.v["@id"]); k != "" {
				if _, dup := ids.byID[k]; !dup {
					ids.byID[k] = o.v
				}
			}
		}
	}
	o, ok := ids.byID[id]
	return o, ok
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// str reads a text value: a string, a number, or the first of an array,
// HTML entities decoded and tags left out.
func str(v any) string {
	switch x := v.(type) {
	case string:
		s := x
		s = unescapeText(s)
		return fold(s)
	case json.Number:
		return x.String()
	case float64:
		return fmt.Sprint(x)
	case []any:
		for _, e := range x {
			if s := str(e); s != "" {
				return s
			}
		}
	case map[string]any:
		if s := str(x["@value"]); s != "" {
			return s
		}
	}
	return ""
}

// isOrg says whether an object is an organisation, not a person.
func isOrg(x map[string]any) bool {
	ts := types(x["@type"])
	return len(ts) > 0 && !anyOf(ts, ldPerson) && anyOf(ts, ldOrg)
}

// names reads an author value: a string, an object with a name, or an
// array of them. People and organisations come apart: an organisation as
// the author is the site, not a byline, and stands in only when no person
// is named anywhere on the page.
func names(v any) (people, orgs []string) {
	switch x := v.(type) {
	case string:
		if s := str(x); s != "" && !looksLikeURL(s) {
			people = []string{s}
		}
	case map[string]any:
		s := str(x["name"])
		switch {
		case isOrg(x):
			if s != "" {
				orgs = []string{s}
			}
		case s != "":
			people = []string{s}
		default:
			if s := strings.TrimSpace(str(x["givenName"]) + " " + str(x["familyName"])); s != "" {
				people = []string{s}
			}
		}
	case []any:
		for _, e := range x {
			p, o := names(e)
			people, orgs = append(people, p...), append(orgs, o...)
		}
	}
	return people, orgs
}

func imageURL(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case map[string]any:
		if s := str(x["url"]); s != "" {
			return s
		}
		return str(x["contentUrl"])
	case []any:
		for _, e := range x {
			if s := imageURL(e); s != "" {
				return s
			}
		}
	}
	return ""
}

func strList(v any) []string {
	switch x := v.(type) {
	case string:
		if s := str(x); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, e := range x {
			if s := str(e); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// keywords reads a keywords value: an array, or one comma-separated string.
func keywords(v any) []string {
	if s, ok := v.(string); ok {
		var out []string
		for _, k := range strings.Split(s, ",") {
			if k = strings.TrimSpace(str(k)); k != "" {
				out = append(out, k)
			}
		}
		return out
	}
	return strList(v)
}

// crumbs reads a BreadcrumbList's names, the home entry and the page's
// own entry (the last, own) left out.
func crumbs(v map[string]any) (sections []string, own string) {
	items, _ := v["itemListElement"].([]any)
	var out []string
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		n := str(m["name"])
		if n == "" {
			if item, ok := m["item"].(map[string]any); ok {
				n = str(item["name"])
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
