package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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

// classHint returns +1 for a content-like class or id, -1 for a
// boilerplate-like one and 0 when the element has neither, with the name
// that decided. Each class name (and the id) is judged alone: a name that
// says only boilerplate wins; else a name that says only content wins
// ("entry-content entry-content-read-more" is content); a name that says
// both ("post-comments") counts as boilerplate.
func classHint(n *html.Node) (int, string) {
	var pos, mixed string
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			continue
		}
		for _, name := range strings.Fields(a.Val) {
			toks := nameTokens(name)
			neg := negativeName(toks)
			p := prefixIn(toks, positiveParts)
			switch {
			case neg != "" && p == "":
				return -1, a.Key + "~" + neg
			case neg != "" && neg != "header":
				// "entry-header" holds the article's own title: not mixed.
				if mixed == "" {
					mixed = a.Key + "~" + neg
				}
			case p != "" && pos == "":
				pos = a.Key + "~" + p
			}
		}
	}
	switch {
	case pos != "":
		return 1, pos
	case mixed != "":
		return -1, mixed
	}
	return 0, ""
}

// nameTokens splits a class or id into lower-case words at punctuation
// and at camelCase boundaries: "articleComments_list" is article,
// comments, list. Matching whole words (or their beginnings) keeps
// "_reachbanner_" from reading as a banner.
func nameTokens(name string) []string {
	var toks []string
	start := -1
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		upper := c >= 'A' && c <= 'Z'
		if start >= 0 && (!alnum || upper && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z') {
			toks = append(toks, strings.ToLower(name[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	if start >= 0 {
		toks = append(toks, strings.ToLower(name[start:]))
	}
	return toks
}

func negativeName(toks []string) string {
	if p := prefixIn(toks, negativeParts); p != "" {
		return p
	}
	for _, t := range toks {
		for _, p := range negativeSuffixes {
			if strings.HasSuffix(t, p) || strings.HasSuffix(t, p+"s") {
				return p
			}
		}
	}
	for _, tok := range toks {
		if negativeTokens[tok] {
			return tok
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

// articleBodyName reports whether n is named (class, id or itemprop) as an
// article body, and not also as boilerplate.
func articleBodyName(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "itemprop":
			if strings.EqualFold(strings.TrimSpace(a.Val), "articleBody") {
				return true
			}
		case "class", "id":
			for _, name := range strings.Fields(a.Val) {
				toks := nameTokens(name)
				joined := strings.Join(toks, "-")
				for _, p := range articleBodyParts {
					if strings.Contains(joined, p) && negativeName(toks) == "" {
						return true
					}
				}
			}
		}
	}
	return false
}
