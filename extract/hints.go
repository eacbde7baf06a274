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

// negativeParts are matched as substrings of a lower-cased class or id.
var negativeParts = []string{
	"comment", "footer", "sidebar", "breadcrumb", "share", "social", "related",
	"advert", "sponsor", "cookie", "newsletter", "subscribe", "promo", "navbar",
	"navigation", "menu", "pagination", "pager", "widget", "banner", "masthead",
	"copyright", "outbrain", "taboola", "recommend", "popular", "trending",
	"tagcloud", "signup", "toolbar", "disqus", "more-stories", "morestories",
	"login", "skiplink", "skip-link", "dropdown",
	"modal", "popup", "author-bio", "authorbio", "friendlink", "hotnews",
}

// negativeTokens must equal a whole token of the class or id (split on
// non-alphanumerics), because they are too short to match as substrings.
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
		for _, name := range strings.Fields(strings.ToLower(a.Val)) {
			neg := negativeName(name)
			p := containsAny(name, positiveParts)
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

func negativeName(v string) string {
	if p := containsAny(v, negativeParts); p != "" {
		return p
	}
	for _, tok := range strings.FieldsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if negativeTokens[tok] {
			return tok
		}
	}
	return ""
}

func containsAny(v string, parts []string) string {
	for _, p := range parts {
		if strings.Contains(v, p) {
			return p
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
// entry-content, and their common spellings).
var articleBodyParts = []string{
	"articlebody", "article-body", "article_body", "article__body", "articletext",
	"article-text", "article_text", "article-content", "article_content",
	"articlecontent", "article__content", "post-content", "post_content",
	"postcontent", "post-body", "postbody", "post_body", "entry-content",
	"entry_content", "entrycontent", "entry-body", "story-body", "storybody",
	"story_body", "story-content", "storycontent", "news-text", "news_text",
	"newstext", "content-body", "body-text", "bodytext", "field-body",
	"article-detail", "news-content", "news_content", "newscontent", "text-body",
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
			for _, name := range strings.Fields(strings.ToLower(a.Val)) {
				if containsAny(name, articleBodyParts) != "" && negativeName(name) == "" {
					return true
				}
			}
		}
	}
	return false
}
