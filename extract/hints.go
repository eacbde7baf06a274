package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/winnow-go/winnow/internal/ascii"
)

// Class and id hints. Kohlschütter et al. (WSDM 2010) use no markup names,
// but readability-style extractors and seed 000 ("navigation,
// recommendation and advertising blocks, header and footer") show that
// the names sites give their containers are strong evidence. A name that
// says boilerplate wins over one that says content ("post-comments",
// "article-footer"); the nearest named ancestor decides for its subtree.

// negativeParts are matched as the beginnings of the words of a class or
// id (see nameTokens).
var negativeParts = []string{
	"comment", "footer", "sidebar", "breadcrumb", "share", "social", "related",
	"advert", "sponsor", "cookie", "newsletter", "subscribe", "promo", "navbar",
	"navigation", "menu", "pagination", "pager", "widget", "banner", "masthead",
	"copyright", "outbrain", "taboola", "recommend", "popular", "trending",
	"tagcloud", "signup", "toolbar", "disqus", "more-stories", "morestories",
	"login", "skiplink", "skip-link", "dropdown",
	"modal", "popup", "author-bio", "authorbio", "friendlink", "hotnews",
	"caption", "gallery", "carousel", "slideshow", "slider",
}

// negativeSuffixes also match at the end of a word ("sitefooter",
// "articlecomments"); weaker names such as "banner" do not, since
// "_reachbanner_" marks an article body on one news site.
var negativeSuffixes = []string{
	"comment", "footer", "sidebar", "share", "social", "related", "navigation",
	"navbar", "menu", "breadcrumb", "copyright", "pagination", "newsletter",
	"subscribe", "recommend", "widget",
}

// negativeTokens must equal a whole word of the class or id, because they
// are too short to match as beginnings.
var negativeTokens = map[string]bool{
	"nav": true, "ad": true, "ads": true, "adv": true, "advertising": true,
	"tags": true, "tag": true, "header": true, "aside": true, "foot": true,
	"rss": true, "reply": true, "replies": true, "search": true, "crumbs": true,
	"sitemap": true,
}

// positiveParts mark the main content.
var positiveParts = []string{
	"article", "content", "entry", "post", "story", "body", "text", "main",
	"blog", "hentry", "artikel", "detail", "news", "single", "page-content",
}

// nameInfo is what an element's class, id and itemprop say.
type nameInfo struct {
	hint int    // +1 content-like, -1 boilerplate-like, 0 neither
	rule string // the name that decided the hint, e.g. "class~comment"
	body bool   // named as the article body (articleBodyParts, itemprop=articleBody)
}

// nameVerdict is what one class name or id says on its own.
type nameVerdict struct {
	neg, pos string // the negative and positive parts it contains
	body     bool   // an article-body name
}

// judgeName judges one class name or id; on a page made of widgets
// (widgetBuilt) "widget" says nothing.
func judgeName(name string, builder bool) nameVerdict {
	var buf [16]string
	toks := nameTokens(moduleLocal(name), buf[:0])
	if taxonomyName(toks) || termName(name) {
		return nameVerdict{}
	}
	toks = builderName(toks, builder)
	v := nameVerdict{neg: negativeName(toks), pos: prefixIn(toks, positiveParts)}
	v.body = v.neg == "" && isBodyName(toks)
	return v
}

// builderName drops "widget" from the names of page builders, which call
// every element of a page a widget: Elementor's
// "elementor-widget-theme-post-content" and "elementor-widget-container"
// hold the post itself (22 of the 990 trafilatura pages), and on a page
// made of widgets (builder, see widgetBuilt) a widget is no sidebar
// block. The names' other words still count ("elementor-widget-nav-menu",
// "widget-type-menu").
func builderName(toks []string, builder bool) []string {
	if !builder && (len(toks) < 2 || toks[0] != "elementor") {
		return toks
	}
	out := toks[:0]
	for _, t := range toks {
		if t != "widget" && t != "widgets" {
			out = append(out, t)
		}
	}
	return out
}

// builderWidgets is how many elements named "widget" make a page built of
// widgets (HubSpot's "hs_cos_wrapper_widget" and "widget-span" on every
// module, a theme's "widget" on every box): a sidebar has a handful.
const builderWidgets = 12

// widgetBuilt reports whether at least builderWidgets elements of doc
// have "widget" in a class name.
func widgetBuilt(doc *html.Node) bool {
	n := 0
	var walk func(*html.Node) bool
	walk = func(e *html.Node) bool {
		if e.Type == html.ElementNode {
			for _, a := range e.Attr {
				if a.Key == "class" && ascii.ContainsFold(a.Val, "widget") {
					if n++; n >= builderWidgets {
						return true
					}
					break
				}
			}
		}
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(doc)
}

// moduleLocal strips the hash that CSS Modules append to a class name
// (Next.js's file_local__hash: "mdx-table_root__adKqa",
// "base-layout_root___qiZs"): five characters of base64url after "__",
// in a name that also has the "_" between file and local name. The hash
// is no word of the name, and its letters spell words by chance ("adKqa"
// read as an advertisement and dropped a documentation page's table of
// arguments). A hash of lower-case letters only is left alone: it may
// be a BEM element ("article__share").
func moduleLocal(name string) string {
	n := len(name)
	if n < 9 || name[n-7:n-5] != "__" || !strings.Contains(name[:n-7], "_") {
		return name
	}
	mixed := false
	for i := n - 5; i < n; i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
			mixed = true
		default:
			return name
		}
	}
	if !mixed {
		return name
	}
	return name[:n-7]
}

// taxonomyName reports whether a name labels the post rather than the
// element: WordPress and other CMSs give an article "tag-barbados" and
// "category-news" for its tags and categories, which says nothing about
// the element being a tag list.
func taxonomyName(toks []string) bool {
	if len(toks) < 2 || (toks[0] != "tag" && toks[0] != "category") {
		return false
	}
	switch toks[1] {
	case "cloud", "list", "links", "box", "wrap", "wrapper", "container":
		return false
	}
	return true
}

// termName reports whether a name is a custom taxonomy's term that a
// CMS gives an item, in WordPress's form taxonomy_slug-term
// ("product_tag-4wd-accessories", "product_cat-outdoor-gear"): like
// taxonomyName's, it labels the item, not a tag list.
func termName(name string) bool {
	for _, t := range []string{"_tag-", "_cat-", "_category-"} {
		if i := strings.Index(name, t); i > 0 && i+len(t) < len(name) {
			return true
		}
	}
	return false
}

// readNames judges an element's class, id and itemprop. Each class name
// (and the id) is judged alone: a name that says only boilerplate wins;
// else a name that says only content wins ("entry-content
// entry-content-read-more" is content); a name that says both
// ("post-comments") counts as boilerplate. judge is judgeName, or a
// memoised version of it.
func readNames(n *html.Node, judge func(string) nameVerdict) nameInfo {
	var info nameInfo
	var pos, mixed, neg string
	for _, a := range n.Attr {
		switch a.Key {
		case "itemprop":
			if strings.EqualFold(strings.TrimSpace(a.Val), "articleBody") {
				info.body = true
			}
			continue
		case "class", "id":
		default:
			continue
		}
		for name := range strings.FieldsSeq(a.Val) {
			v := judge(name)
			switch {
			case v.neg != "" && v.pos == "":
				if neg == "" {
					neg = a.Key + "~" + v.neg
				}
			case v.neg != "" && v.neg != "header" && v.neg != "caption":
				// "entry-header" holds the article's own title and
				// "article-caption" its headline and lead: not mixed.
				if mixed == "" {
					mixed = a.Key + "~" + v.neg
				}
			case v.pos != "" && pos == "":
				pos = a.Key + "~" + v.pos
			}
			info.body = info.body || v.body
		}
	}
	switch {
	case neg != "":
		info.hint, info.rule = -1, neg
	case pos != "":
		info.hint, info.rule = 1, pos
	case mixed != "":
		info.hint, info.rule = -1, mixed
	}
	return info
}

// nameTokens splits a class or id into lower-case words at punctuation
// and at camelCase boundaries, appending to dst: "articleComments_list" is
// article, comments, list. Matching whole words (or their beginnings)
// keeps "_reachbanner_" from reading as a banner.
func nameTokens(name string, dst []string) []string {
	start := -1
	lower := true
	flush := func(end int) {
		t := name[start:end]
		if !lower {
			t = strings.ToLower(t)
		}
		dst = append(dst, t)
		start, lower = -1, true
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		upper := c >= 'A' && c <= 'Z'
		alnum := upper || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if start >= 0 && (!alnum || upper && name[i-1] >= 'a' && name[i-1] <= 'z') {
			flush(i)
		}
		if alnum && start < 0 {
			start = i
		}
		if upper {
			lower = false
		}
	}
	if start >= 0 {
		flush(len(name))
	}
	return dst
}

func negativeName(toks []string) string {
	if p := prefixIn(toks, negativeParts); p != "" {
		return p
	}
	for _, t := range toks {
		if negativeTokens[t] {
			return t
		}
		for _, p := range negativeSuffixes {
			if strings.HasSuffix(t, p) || strings.HasSuffix(t, "s") && strings.HasSuffix(t[:len(t)-1], p) {
				return p
			}
		}
	}
	return ""
}

// prefixIn returns the first of parts that begins one of toks.
func prefixIn(toks, parts []string) string {
	for _, t := range toks {
		for _, p := range parts {
			if strings.HasPrefix(t, p) {
				return p
			}
		}
	}
	return ""
}

// semanticHint scores HTML5 sectioning elements.
func semanticHint(a atom.Atom) int {
	switch a {
	case atom.Nav, atom.Aside, atom.Footer, atom.Menu:
		return -1
	case atom.Article, atom.Main:
		return 1
	}
	return 0
}

// articleBodyParts are the names sites and CMSs give the element that
// holds exactly the article text (schema.org's articleBody, WordPress's
// entry-content, and their common spellings), as nameTokens joined by "-".
var articleBodyParts = []string{
	"articlebody", "article-body", "articletext", "article-text", "article-content",
	"articlecontent", "post-content", "postcontent", "post-body", "postbody",
	"entry-content", "entrycontent", "entry-body", "story-body", "storybody",
	"story-content", "storycontent", "news-text", "newstext", "content-body",
	"body-text", "bodytext", "field-body", "article-detail", "news-content",
	"newscontent", "text-body",
}

// isBodyName reports whether the words of a name spell an article body
// name: "article-body", "articleBody", "article_body", "articlebody".
func isBodyName(toks []string) bool {
	for i := range toks {
		for _, p := range articleBodyParts {
			if matchJoined(toks[i:], p) {
				return true
			}
		}
	}
	return false
}

// matchJoined reports whether p is a prefix of the words toks joined by
// "-" (without building the joined string).
func matchJoined(toks []string, p string) bool {
	for k, t := range toks {
		if k > 0 {
			if p == "" {
				return true
			}
			if p[0] != '-' {
				return false
			}
			p = p[1:]
		}
		if len(p) <= len(t) {
			return strings.HasPrefix(t, p)
		}
		if !strings.HasPrefix(p, t) {
			return false
		}
		p = p[len(t):]
	}
	return p == ""
}
