package metadata

import (
	"slices"
	"strings"
	"testing"
)

// TestUnmarkedBylinesManyLanguages reads a byline no class marks, in 31
// languages: a preposition ("By", "Von", "Door") or a label with its
// colon ("Piše:", "Autorius:", "Συντάκτης:"). Catalan "Per", Danish "Af"
// and Malay "Oleh" are words of other uses too ("Per maggiori
// informazioni", "AF Group", the name Oleh): they do not make an
// unmarked line a byline.
func TestUnmarkedBylinesManyLanguages(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for _, c := range []struct{ lang, byline, want string }{
		{"en", "By Ann Lee", "Ann Lee"},
		{"hr", "Piše: Ivan Horvat", "Ivan Horvat"},
		{"sr", "Autor: Marko Marković", "Marko Marković"},
		{"sl", "Avtor: Janez Novak", "Janez Novak"},
		{"lt", "Autorius: Jonas Jonaitis", "Jonas Jonaitis"},
		{"lv", "Autors: Jānis Bērziņš", "Jānis Bērziņš"},
		{"et", "Autor: Mari Tamm", "Mari Tamm"},
		{"sk", "Autor: Ján Novák", "Ján Novák"},
		{"pl", "Autor: Jan Kowalski", "Jan Kowalski"},
		{"ca", "Per Joan Garcia", ""},
		{"nb", "Av Ola Nordmann", "Ola Nordmann"},
		{"da", "Af Lars Jensen", ""},
		{"sv", "Av Anna Svensson", "Anna Svensson"},
		{"fi", "Kirjoittaja: Matti Virtanen", "Matti Virtanen"},
		{"id", "Penulis: Budi Santoso", "Budi Santoso"},
		{"ms", "Oleh Ahmad Ibrahim", ""},
		{"ro", "Autor: Ion Popescu", "Ion Popescu"},
		{"bg", "Автор: Иван Иванов", "Иван Иванов"},
		{"uk", "Автор: Іван Петренко", "Іван Петренко"},
		{"tr", "Yazar: Ahmet Yılmaz", "Ahmet Yılmaz"},
		{"hu", "Szerző: Kovács János", "Kovács János"},
		{"el", "Συντάκτης: Γιώργος Παπαδόπουλος", "Γιώργος Παπαδόπουλος"},
		{"pt", "Por João Silva", "João Silva"},
		{"nl", "Door Jan de Vries", "Jan de Vries"},
		{"cs", "Autor: Jan Novák", "Jan Novák"},
		{"vi", "Tác giả: Nguyễn Văn An", "Nguyễn Văn An"},
		{"it", "di Mario Rossi", "Mario Rossi"},
		{"es", "Por Ana López", "Ana López"},
		{"fr", "Par Marie Dupont", "Marie Dupont"},
		{"de", "Von Anna Schmidt", "Anna Schmidt"},
		{"ru", "Автор: Иван Петров", "Иван Петров"},
		{"de", "Veröffentlicht von Hans Gruber", "Hans Gruber"},
		{"de", "Geschrieben von Anna Schmidt", "Anna Schmidt"},
		{"fr", "Publié par Marie Dupont", "Marie Dupont"},
		{"es", "Publicado por Ana López", "Ana López"},
		{"de", "Eingestellt von Hans Gruber", "Hans Gruber"},
		{"de", "Erstellt von Andri Bryner", "Andri Bryner"},
		{"fr", "Par Matthieu Hy le 12.03.2021", "Matthieu Hy"},
		{"en", "By Anh Le 12.03.2021", "Anh Le"},
	} {
		m := read(t, `<html lang="`+c.lang+`"><head><meta charset="utf-8"><title>Headline</title></head><body><article><h1>Headline</h1>`+
			`<p>`+c.byline+`</p><p>12.03.2021</p>`+body+`</article></body></html>`, "")
		var want []string
		if c.want != "" {
			want = []string{c.want}
		}
		if !slices.Equal(m.Authors, want) {
			t.Errorf("%s: authors %q; want %q", c.lang, m.Authors, c.want)
		}
	}
}

// TestMenuIsNoByline: what a site's menu says is no byline, whether it
// opens with "By", a class says author, or it links to an author's
// archive; the same line outside a menu is one.
func TestMenuIsNoByline(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for _, c := range []struct {
		menu, want string
	}{
		{`<nav><ul><li><a href="/browse-by-maker/">By Manufacturer</a></li><li><a href="/reviews/">Reviews</a></li></ul></nav>`, ""},
		{`<ul class="sub-menu"><li><a href="/browse-by-maker/">By Manufacturer</a></li></ul>`, ""},
		{`<div role="navigation"><span class="author">Jane Roe Smith</span></div>`, ""},
		{`<ul id="menu-main"><li class="menu-item"><a href="/author/xavierlo/">Hong Kong Actuary</a></li></ul>`, ""},
		{`<div class="meta"><a href="/author/xavierlo/">Xavier Lo</a></div>`, "Xavier Lo"},
		{`<p>By Ann Lee</p>`, "Ann Lee"},
		{`<ul class="post-meta"><li>By Ann Lee</li></ul>`, "Ann Lee"},
		{`<div class="menu"><p>By Ann Lee</p></div>`, "Ann Lee"},              // a div is no menu by its class
		{`<svg role="menu"><text>x</text></svg><p>By Ann Lee</p>`, "Ann Lee"}, // a menu whose children are not read ends with it
	} {
		m := read(t, `<html><head><title>A Park Opens</title></head><body>`+c.menu+`<article><h1>A Park Opens</h1>`+body+`</article></body></html>`, "https://example.org/a-park-opens")
		if got := strings.Join(m.Authors, ", "); got != c.want {
			t.Errorf("%s: authors %q, want %q", c.menu, got, c.want)
		}
	}
}

// TestBrowseLinkIsNoByline: a link whose own text opens with "By" names
// what it leads to ("By Method"), unless it leads to an author's
// archive.
func TestBrowseLinkIsNoByline(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for line, want := range map[string]string{
		`<div><a href="/recipe-category/method">By Method</a> <a href="/recipe-category/diet">By Diet</a></div>`: "",
		`<p><a href="/author/ann-lee/">By Ann Lee</a></p>`:                                                       "Ann Lee",
		`<p>By <a href="/profile/ann-lee/">Ann Lee</a></p>`:                                                      "Ann Lee",
	} {
		m := read(t, `<html><head><title>A Park Opens</title></head><body><article><h1>A Park Opens</h1>`+line+body+`</article></body></html>`, "https://example.org/a-park-opens")
		if got := strings.Join(m.Authors, ", "); got != want {
			t.Errorf("%s: authors %q, want %q", line, got, want)
		}
	}
}

// TestSiteNamedAuthor: a structured source that names the site as the
// author yields to a person a byline names, and stands when none does.
func TestSiteNamedAuthor(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	page := func(head, byline string) string {
		return `<html><head><title>A Park Opens | L'Opinion</title><meta property="og:site_name" content="L'Opinion">` + head +
			`</head><body><article><h1>A Park Opens</h1>` + byline + body + `</article></body></html>`
	}
	for _, c := range []struct{ head, byline, want string }{
		{`<meta name="author" content="L'Opinion">`, `<p>By Emmanuelle Ducros</p>`, "Emmanuelle Ducros"},
		{`<meta name="author" content="lopinion">`, `<p>By Emmanuelle Ducros</p>`, "Emmanuelle Ducros"},
		{`<meta name="author" content="LOPINION.fr">`, `<p>By Emmanuelle Ducros</p>`, "Emmanuelle Ducros"},
		{`<meta name="author" content="publisher">`, ``, ""},
		{`<meta name="author" content="No Author">`, ``, ""},
		{`<meta name="author" content="L'Opinion">`, ``, "L'Opinion"},
		{`<meta name="author" content="Anna Weber">`, `<p>By Emmanuelle Ducros</p>`, "Anna Weber"},
		{`<meta name="author" content="Le Journal (www.lopinion.fr)">`, `<p>By Emmanuelle Ducros</p>`, "Emmanuelle Ducros"},
		{`<meta name="author" content="Lopinion.fr-Redaktion">`, `<p>By Emmanuelle Ducros</p>`, "Emmanuelle Ducros"},
		{`<meta name="author" content="Anna Lopinion.franke">`, `<p>By Emmanuelle Ducros</p>`, "Anna Lopinion.franke"},
	} {
		m := read(t, page(c.head, c.byline), "https://www.lopinion.fr/a-park-opens")
		if got := strings.Join(m.Authors, ", "); got != c.want {
			t.Errorf("%s %s: authors %q, want %q", c.head, c.byline, got, c.want)
		}
	}
}

// TestAuthorBoxWords: an author box's heading and its link to the
// author's other articles are not part of the name, and a label whose
// name is missing is none.
func TestAuthorBoxWords(t *testing.T) {
	for in, want := range map[string]string{
		"Über Steffi":                       "Steffi",
		"About Ann Lee":                     "Ann Lee",
		"Johanna Kropfitsch Alle Artikel":   "Johanna Kropfitsch",
		"Ann Lee View all posts":            "Ann Lee",
		"about us":                          "",
		"Artikel von":                       "",
		"Ludwig van Beethoven":              "Ludwig van Beethoven",
		"Über den Autor Zeige alle Artikel": "Zeige", // one word, which a class's line alone does not make a byline
		"About the author Ann Lee":          "Ann Lee",
	} {
		got := strings.Join(personNames(cleanAuthors([]string{in})), ", ")
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestClassBylineNamesAll: the first line a class calls a byline gives
// every person it lists, not only the first; what a "|" sets after the
// names (the paper, a date) is no author, nor is the day's name before a
// date.
func TestClassBylineNamesAll(t *testing.T) {
	checkBylines(t, []bylineCase{
		{`<p class="autorenzeile">Von Anna Schmidt, Jan Berg und Eva Roth</p>`, "Anna Schmidt|Jan Berg|Eva Roth"},
		{`<div class="byline">By <a href="#">Ann Lee and Bob Stone</a><br><span>Monday, November 18, 2019, 04:05 pm</span></div>`, "Ann Lee|Bob Stone"},
		{`<p class="byline">Carla Ruiz | Diario del Puerto</p>`, "Carla Ruiz"},
		{`<div class="author">Tomas Berg Fr, 18. Oktober 2019</div>`, "Tomas Berg"},
		{`<div class="author">Ann Lee</div><div class="author">Ann Lee</div>`, "Ann Lee"},
		{`<div class="byline-section"><div class="attribution"><span class="who">Kevin Hale and Ann Lee</span> <span class="paper">HARBOUR TODAY</span></div><div class="when">Published 7:07 PM Nov 19, 2019</div></div>`, "Kevin Hale|Ann Lee"},
		{`<div class="author-and-date"><div class="author-wrap"><div class="e">By</div><div class="e">Summer Lake</div><div class="e">-</div></div><div class="e">June 12, 2025</div></div>`, "Summer Lake"},
	})
}

// TestBylineRoles: a German role word that opens or ends a byline's name
// ("Netzphilosophin", "Chefredakteur", a compound "…-Experte") goes, and
// so does a role after a name's comma ("AP Sports Writer"); a role that
// is all the byline names stays.
func TestBylineRoles(t *testing.T) {
	for v, want := range map[string]string{
		"Von Netzphilosophin Lena Berg":        "Lena Berg",
		"Tomas Weber Chefredakteur":            "Tomas Weber",
		"HAFEN-Online-Experte Robin Kahl":      "Robin Kahl",
		"By GREG MILLS, AP Sports Writer":      "GREG MILLS",
		"Ann Lee, MS, RD":                      "Ann Lee|MS|RD",
		"Harbour Contributor":                  "Harbour Contributor",
		"Lena Berg und Tomas Weber, Redakteur": "Lena Berg|Tomas Weber",
	} {
		if got := strings.Join(cleanAuthors([]string{v}), "|"); got != want {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
}

// TestHCardUserName: an hCard byline (WordPress's "author vcard") gives
// its one word, a user name the rules for a person's name refuse; a
// one-word line no hCard marks, a label left alone and an administrator's
// account give none.
func TestHCardUserName(t *testing.T) {
	checkBylines(t, []bylineCase{
		{`<span class="byline"> von <span class="author vcard"><a class="url fn n" href="/author/g1zz/">gizzmo</a></span></span>`, "gizzmo"},
		{`<span class="byline"><span class="author vcard"><a class="url fn n" href="/author/f/">freeman1984</a></span></span>`, "freeman1984"},
		{`<span class="byline"><span class="author">gizzmo</span></span>`, ""},
		{`<span class="author vcard">Autor</span>`, ""},
		{`<span class="author vcard"><a class="url fn n" href="/author/a/">wordpressadmin</a></span>`, ""},
		{`<span class="author vcard"><a class="url fn n" href="/author/a/">Ann Lee</a></span>`, "Ann Lee"},
	})
}

// TestBylineLineForms: a "Von" line ends at its first break after a
// text (a dateline follows), a name a by-word gives after a date that
// opens the line counts ("Posted on … by"), "Autoren" opens a byline
// without a colon, and a heading that opens with that word and an "&"
// ("Autoren & Themen") is none.
func TestBylineLineForms(t *testing.T) {
	checkBylines(t, []bylineCase{
		{`<p>Von <strong><a href="/a">Roland Berg</a></strong> und <strong><a href="/b">Sebastian Kahl</a></strong><br /> <span></span><br /> Kakuma /Kenia</p>`, "Roland Berg|Sebastian Kahl"},
		{`<p><br /> Von Ann Lee</p>`, "Ann Lee"},
		{`<div class="page-meta--author"> Posted on September 21, 2020 by Adi Kahn </div>`, "Adi Kahn"},
		{`<p>Autoren Jelko Berg und Jutta Kahl</p>`, "Jelko Berg|Jutta Kahl"},
		{`<h3 class="widgettitle">Autoren &amp; Themen</h3>`, ""},
	})
}

// bylineCase is a byline's markup below a headline and the authors read
// from it, joined with "|" ("" for none).
type bylineCase struct{ byline, want string }

// checkBylines reads each case's byline on a page with a headline and a
// paragraph of text.
func checkBylines(t *testing.T, cases []bylineCase) {
	t.Helper()
	const body = `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for _, c := range cases {
		page := `<html><head></head><body><h1>Harbour wall is done at last</h1>` + c.byline + body + `</body></html>`
		if m := read(t, page, ""); strings.Join(m.Authors, "|") != c.want {
			t.Errorf("%s: authors %q, want %q", c.byline, m.Authors, c.want)
		}
	}
}
