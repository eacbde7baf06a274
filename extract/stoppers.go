package extract

import "strings"

// Section titles that open boilerplate after an article: related stories,
// comments, "read also". Seed 000 lists recommendation blocks among the
// boilerplate; these titles are how sites in the languages winnow's users
// crawl introduce them. A short block that starts with one of them, after
// the article text has begun, ends the article.
var stopperTitles = []string{
	// English
	"related", "you may also like", "you might also like", "you may like",
	"you might like", "more from", "more stories", "more news",
	"read next", "recommended", "comments", "leave a comment", "leave a reply",
	"post a comment", "add a comment", "share this", "trending", "most read",
	"most popular", "also read", "more on this", "top rated comments",
	"what to read next", "popular posts", "recent posts", "latest news",
	"about the author", "join the discussion", "related articles",
	// German
	"ähnliche", "das könnte sie", "kommentare", "weitere artikel",
	"mehr zum thema", "lesen sie auch", "auch interessant", "verwandte",
	"mehr aus", "neueste artikel", "schreibe einen kommentar", "zum weiterlesen",
	"weitere informationen", "weiterführende", "könnte dich auch", "könnte sie auch",
	"das thema könnte", "auch auf ", "wählen sie ihren zugang", "jetzt abonnieren",
	"newsletter",
	// French
	"à lire aussi", "lire aussi", "articles similaires", "commentaires",
	"sur le même sujet", "vous aimerez aussi", "à voir aussi", "laisser un commentaire",
	// Spanish, Portuguese, Italian, Polish
	"noticias relacionadas", "te puede interesar", "comentarios", "lee también",
	"mire:", "lee más", "también te puede", "zobacz również", "czytaj również",
	"artículos relacionados", "más noticias", "você pode gostar", "veja também",
	"leia também", "comentários", "notícias relacionadas", "articoli correlati",
	"potrebbe interessarti", "commenti", "leggi anche", "zobacz także",
	"komentarze", "czytaj także", "polecamy", "zobacz też",
	// Russian, Ukrainian
	"читайте также", "похожие", "комментарии", "смотрите также", "другие новости",
	"новости по теме", "материалы по теме", "еще по теме", "ещё по теме",
	"популярное", "обсуждение", "читайте еще", "читайте ещё", "самое читаемое",
	"последние новости", "новости партнеров", "реклама", "читайте також",
	"коментарі", "схожі",
	// Chinese, Japanese
	"相关新闻", "相关阅读", "相关文章", "相关链接", "延伸阅读", "推荐阅读", "热门",
	"网友评论", "评论", "相關新聞", "相關閱讀", "相關文章", "延伸閱讀", "熱門",
	"関連記事", "コメント",
}

// isStopper reports whether a short block is the title of a boilerplate
// section.
func isStopper(b *Block) bool {
	if b.effWords() > 8 || (b.Kind != Heading && b.Words > 6) {
		return false
	}
	t := strings.ToLower(strings.TrimSpace(b.Text))
	t = strings.TrimLeft(t, "#>-–—•·*:| ")
	for _, s := range stopperTitles {
		if strings.HasPrefix(t, s) {
			return true
		}
	}
	return false
}

// bylinePrefixes open an author line in the languages of the data sets.
var bylinePrefixes = []string{"by ", "von ", "par ", "por ", "di ", "door ", "av ", "autor", "автор", "от ", "作者", "记者", "記者", "文/", "文／"}

// byline reports whether a short text is an author line ("By Jane Doe |
// Nov. 18, 2019").
func byline(s string) bool {
	if len(s) > 160 {
		return false
	}
	t := strings.ToLower(strings.TrimSpace(s))
	for _, p := range bylinePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if len(t) <= 80 {
		for _, j := range bylineTitles {
			if strings.HasSuffix(t, j) {
				return true // "Robert Burns, AP National Security Writer"
			}
		}
	}
	return false
}

// authorRoles name who else a book's credit line lists.
var authorRoles = []string{"edited", "illustrated", "translated", "compiled", "written", "selected", "introduced", "read"}

// authorLine reports whether a text opens with "by" and a name: "by Fern
// Michaels", "By: Craig Groeschel", "Edited By: Carrie Turansky".
func authorLine(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, role := range authorRoles {
		if r, ok := strings.CutPrefix(t, role); ok && strings.HasPrefix(r, " by") {
			t = r[1:]
			break
		}
	}
	rest, ok := strings.CutPrefix(t, "by")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, ": ")
	return len(rest) < len(t)-2 && rest != "" && !strings.ContainsAny(rest[:1], "0123456789")
}

// bylineTitles end an author line that names the author's job.
var bylineTitles = []string{"writer", "correspondent", "reporter", "editor", "staff",
	"корреспондент", "журналист", "redakteur", "korrespondent", "journalist", "journaliste"}

// creditWords mark a picture credit ("Photo: Hau Dinh, AP", "Natalie
// Naccache | Bloomberg | Getty Images").
var creditWords = []string{"photo:", "photo by", "photograph", "getty images", "image:", "image credit",
	"credit:", "foto:", "bild:", "фото:", "фото ", "图片来源", "摄影", "图/", "圖/", "©"}

// captionMarks mark a picture's caption whatever its length: wire
// services sign their captions so.
var captionMarks = []string{"file photo", "(ap photo", "ap photo/", "(reuters/", "(photo:", "(photo by", "(фото:"}

// credit reports whether a text is a picture credit or a signed caption.
func credit(s string) bool {
	t := strings.ToLower(s)
	if len(s) <= 400 {
		for _, w := range captionMarks {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	if len(s) > 100 {
		return false
	}
	for _, w := range creditWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
