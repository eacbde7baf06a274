package metadata

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

var testNow = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

func read(t testing.TB, page, pageURL string) Metadata {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var u *url.URL
	if pageURL != "" {
		u, _ = url.Parse(pageURL)
	}
	return Read(doc, Input{URL: u}, Options{Now: testNow})
}

// readAs reads page as a page of the given type.
func readAs(t testing.TB, page, pageType string) Metadata {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return Read(doc, Input{PageType: pageType}, Options{Now: testNow})
}

func hasWarning(m Metadata, sub string) bool {
	return slices.ContainsFunc(m.Warnings, func(w string) bool { return strings.Contains(w, sub) })
}

func TestBrokenJSONLD(t *testing.T) {
	page := `<html><head>
<script type="application/ld+json"><!-- {"@type":"NewsArticle","headline":"Dams &amp; rivers",
 "datePublished":"2024-03-05","author":{"@type":"Person","name":"Ann Lee"},} --></script>
<script type="application/ld+json">{"@type": "WebSite", "name": "Courier" </script>
</head><body><h1>Dams &amp; rivers</h1></body></html>`
	m := read(t, page, "")
	if m.Published != "2024-03-05" || m.Sources["published"] != SourceJSONLD {
		t.Errorf("published %q from %q, want 2024-03-05 from json-ld", m.Published, m.Sources["published"])
	}
	if !slices.Equal(m.Authors, []string{"Ann Lee"}) || m.Title != "Dams & rivers" {
		t.Errorf("authors %q title %q", m.Authors, m.Title)
	}
	if !hasWarning(m, "json-ld: script 2 unreadable") {
		t.Errorf("no warning for the unreadable script: %q", m.Warnings)
	}
}

func TestAbsurdDates(t *testing.T) {
	page := `<html><head>
<script type="application/ld+json">{"@type":"Article","datePublished":"0000-01-01T00:00:00Z"}</script>
<meta property="article:published_time" content="9999-12-31">
<meta name="date" content="2031-01-01">
</head><body><h1>A page</h1><p class="byline">Published <time datetime="2023-04-05">5 April 2023</time></p></body></html>`
	m := read(t, page, "")
	if m.Published != "2023-04-05" {
		t.Errorf("published %q, want the good date 2023-04-05 (sources %v)", m.Published, m.Sources)
	}
	for _, bad := range []string{"0000-01-01", "9999-12-31", "2031-01-01"} {
		if !hasWarning(m, bad) {
			t.Errorf("no warning for %s: %q", bad, m.Warnings)
		}
	}
}

func TestHugeJSONLD(t *testing.T) {
	big := `{"@type":"Article","articleBody":"` + strings.Repeat("word ", 1<<20) + `","datePublished":"2020-01-01"}`
	page := `<html><head><script type="application/ld+json">` + big + `</script>
<meta property="article:published_time" content="2022-02-02T10:00:00+01:00"></head><body><h1>T</h1></body></html>`
	m := read(t, page, "")
	if m.Published != "2022-02-02" || m.PublishedAt != "2022-02-02T10:00:00+01:00" {
		t.Errorf("published %q at %q, want the meta tag's day and time", m.Published, m.PublishedAt)
	}
	if !hasWarning(m, "over the") {
		t.Errorf("no warning for the 5 MB script: %q", m.Warnings)
	}
	// Nesting 100,000 deep, under the size limit: the decoder stops at
	// its depth limit, and the page's other script is still read.
	deep := strings.Repeat(`{"a":[`, 100000)
	page = `<html><head><script type="application/ld+json">` + deep + `</script>` +
		`<script type="application/ld+json">{"@type":"Article","datePublished":"2020-01-01"}</script></head><body><h1>T</h1></body></html>`
	m = read(t, page, "")
	if m.Published != "2020-01-01" || !hasWarning(m, "json-ld: script 1 unreadable") {
		t.Errorf("published %q, warnings %q; want 2020-01-01 and a warning for the nested script", m.Published, m.Warnings)
	}
}

func TestFindDate(t *testing.T) {
	for in, want := range map[string]string{
		"Veröffentlicht am 12. März 2021":        "2021-03-12",
		"2021年3月12日 10:00":                       "2021-03-12",
		"опубликовано 12 марта 2021 года":        "2021-03-12",
		"Posted March 12th, 2021 by Ann":         "2021-03-12",
		"12 de marzo de 2021":                    "2021-03-12",
		"Tue Jul 30 09:35:14 CEST 2019":          "2019-07-30",
		"Stand: 30.07.2019 09:35 Uhr":            "2019-07-30",
		"Sun, 06 Nov 1994 08:49:37 GMT":          "1994-11-06",
		"on 2020/01/18":                          "2020-01-18",
		"11/22/2020":                             "2020-11-22",
		"22/11/2020 - 04:30":                     "2020-11-22",
		"Business 01.21.2020 07:00 AM":           "2020-01-21",
		"06-18-2025":                             "2025-06-18",
		"<span>2024-02-11T07:30:00+00:00</span>": "2024-02-11",
		"الأربعاء، 07 أكتوبر 2020 - 12:09 م":     "2020-10-07",
		"Δημοσιεύθηκε 12 Μαρτίου 2021":           "2021-03-12",
		"Julkaistu 12. maaliskuuta 2021":         "2021-03-12",
		"2021. március 12.":                      "2021-03-12",
		"Objavljeno 12. siječnja 2021.":          "2021-01-12",
		"12 de març de 2021":                     "2021-03-12",
		// The other languages of langid.DefaultLanguages: abbreviated
		// months, other cases of a month's name, the Baltic languages'
		// year first, Vietnamese's month by its number, the Thai
		// Buddhist era.
		"12 янв 2021":              "2021-01-12",
		"12 янв. 2021 г.":          "2021-01-12",
		"5 дек. 2020":              "2020-12-05",
		"12. Mär. 2021":            "2021-03-12",
		"12 gen 2021":              "2021-01-12",
		"12 mag 2021":              "2021-05-12",
		"12 giu 2021":              "2021-06-12",
		"12 lug 2021":              "2021-07-12",
		"12 set 2021":              "2021-09-12",
		"12 ott 2021":              "2021-10-12",
		"12 fev 2021":              "2021-02-12",
		"12 out 2021":              "2021-10-12",
		"12 mrt 2021":              "2021-03-12",
		"12. mája 2021":            "2021-05-12",
		"12. marec 2021":           "2021-03-12",
		"12. junij 2021":           "2021-06-12",
		"12. julij 2021":           "2021-07-12",
		"12. avgust 2021":          "2021-08-12",
		"12. septembar 2021.":      "2021-09-12",
		"12. oktobar 2021.":        "2021-10-12",
		"12. новембар 2021.":       "2021-11-12",
		"12. децембар 2021.":       "2021-12-12",
		"12. јануар 2021.":         "2021-01-12",
		"12 април 2021 г.":         "2021-04-12",
		"12 декември 2021 г.":      "2021-12-12",
		"12. märts 2021":           "2021-03-12",
		"12. detsember 2021":       "2021-12-12",
		"12. oktoober 2021":        "2021-10-12",
		"12 Ogos 2021":             "2021-08-12",
		"12 Disember 2021":         "2021-12-12",
		"12 Julai 2021":            "2021-07-12",
		"12 Mac 2021":              "2021-03-12",
		"12 मार्च 2021":            "2021-03-12",
		"12 अक्टूबर 2021":          "2021-10-12",
		"12 במרץ 2021":             "2021-03-12",
		"12 בדצמבר 2021":           "2021-12-12",
		"2021 m. kovo 12 d.":       "2021-03-12",
		"2021. gada 12. marts":     "2021-03-12",
		"ngày 12 tháng 3 năm 2021": "2021-03-12",
		"12 tháng 3, 2021":         "2021-03-12",
		"12 sty 2021":              "2021-01-12",
		"12 lis 2021":              "2021-11-12",
		"12 มีนาคม 2564":           "2021-03-12",
		"วันที่ 5 ธันวาคม 2563": "2020-12-05",
		"12 آذار 2021":       "2021-03-12",
		"12 d'abril de 2021": "2021-04-12",
		// Digits of other scripts.
		"١٢ مارس ٢٠٢١":   "2021-03-12",
		"۲۰۲۱/۰۳/۱۲":     "2021-03-12",
		"१२ मार्च २०२१":  "2021-03-12",
		"১২ মার্চ ২০২১":  "2021-03-12",
		"๑๒ มีนาคม ๒๕๖๔": "2021-03-12",
		// The Solar Hijri calendar of Iran and Afghanistan (solar.go).
		"۱۲ خرداد ۱۴۰۰":      "2021-06-02",
		"12 خرداد 1400":      "2021-06-02",
		"1400/03/12":         "2021-06-02",
		"۱۴۰۰/۰۳/۱۲":         "2021-06-02",
		"1 فروردین 1399":     "2020-03-20",
		"۲۹ اسفند ۱۳۹۹":      "2021-03-19",
		"۳۰ اسفند ۱۴۰۳":      "2025-03-20", // 1403 is leap
		"1 دی 1402":          "2023-12-22",
		"۱۲ ارديبهشت ۱۴۰۰":   "2021-05-02", // with an Arabic yeh
		"۱۵ جوزا ۱۴۰۰":       "2021-06-05", // Dari
		"سه‌شنبه ۴ آذر ۱۳۹۹": "2020-11-24",
	} {
		d, ok := findDate(in)
		if !ok || d.day() != want {
			t.Errorf("findDate(%q) = %q, %v; want %q", in, d.day(), ok, want)
		}
	}
	// No such day (1400 is not leap); a lunar Hijri year, before the web.
	for _, in := range []string{"۳۰ اسفند ۱۴۰۰", "1442/10/01"} {
		if d, ok := findDate(in); ok && d.valid(testNow) {
			t.Errorf("findDate(%q) = %q, a day that cannot be right", in, d.day())
		}
	}
	if d, ok := parseValue("1399-05-12T10:00:00+04:30"); !ok || d.stamp() != "2020-08-02T10:00:00+04:30" {
		t.Errorf("parseValue of a Solar Hijri timestamp = %q, want 2020-08-02T10:00:00+04:30", d.stamp())
	}
	// The abbreviations that are also words name a month only after the day.
	for _, in := range []string{"call 0800 123 456, 3 items", "Apple iPad Pro Gen 5 2021", "Sold out 12 2019 units", "Lego Set 12 2019"} {
		if d, ok := findDate(in); ok {
			t.Errorf("found %q in %q, a text without a date", d.day(), in)
		}
	}
}

func TestFirstUnlabelled(t *testing.T) {
	for in, want := range map[string]string{
		"تحديث ١٤ مارس ٢٠٢١ · نشر ١٢ مارس ٢٠٢١":                    "2021-03-12",
		"Updated January 8, 2026 · Published March 3, 2021 by Ann": "2021-03-03",
		"Posted 4 May 2020, updated 5 May 2020":                    "2020-05-04",
		"Zuletzt aktualisiert: 30.12.2016":                         "",
	} {
		d, _ := findDate(firstUnlabelled(in))
		if got := map[bool]string{true: d.day(), false: ""}[d.ok()]; got != want {
			t.Errorf("firstUnlabelled(%q) gives %q, want %q", in, got, want)
		}
	}
}

func TestCleanAuthors(t *testing.T) {
	for in, want := range map[string][]string{
		"By Ann Lee":                             {"Ann Lee"},
		"Dylan Bailey, MS, RD, FAND":             {"Dylan Bailey", "MS", "RD", "FAND"},
		"MS, RD":                                 nil,
		"Redaktion":                              nil,
		"NEWSROOM":                               nil,
		"Michael Rädel, Redaktion":               {"Michael Rädel"},
		"user447274":                             {"user447274"},
		"mdelatorreq6vkpg2ma0ci":                 nil,
		"12 March 2021":                          nil,
		"Ann Lee and Tom Reyes":                  {"Ann Lee", "Tom Reyes"},
		"Von Hans Meier | 12.03.2021":            {"Hans Meier"},
		"Autor: Jan Nowak":                       {"Jan Nowak"},
		"written by Ann Lee, PhD":                {"Ann Lee", "PhD"},
		"Analysis by Chris Lee":                  {"Chris Lee"},
		"SmartEtailing Inc":                      nil,
		"Olympia-Verlag GmbH, Nürnberg, Germany": nil,
		"Ann Lee, Acme Media GmbH":               {"Ann Lee"},
		"ООО Ромашка":                            nil,
		"Emily Co":                               {"Emily Co"},
		"Acme, Inc.":                             nil,
		"Opinion by Ann Lee":                     {"Ann Lee"},
		"https://example.com/author/annlee":      nil,
		"Текст: Венера Ерофеева":                 {"Венера Ерофеева"},
		"Autor/in: Korinna Hennig":               {"Korinna Hennig"},
		"By Daniel | Published: 23. Juli 2017":   {"Daniel"},
		"Por María Reina Actualizado 27/04/2022": {"María Reina"},
		"Frank Bueltge - http://bueltge.de":      {"Frank Bueltge"},
		"Гость":                                  nil,
		"Af Lars Jensen":                         {"Lars Jensen"},
		"Yazar: Ahmet Yılmaz":                    {"Ahmet Yılmaz"},
		"Szerző: Kovács János":                   {"Kovács János"},
		"Oleh: Budi Santoso":                     {"Budi Santoso"},
		"Oleh Lysenko":                           {"Oleh Lysenko"},
		"홍길동 기자":                                 {"홍길동"},
		"[서울=뉴시스] 홍길동 기자 hong@example.com": {"홍길동"},
		"기자 김철수":                  {"김철수"},
		"Auswärtige Autoren (AA)": {"Auswärtige Autoren (AA)"}, // the closing bracket stays with its opener
		"(Maria Lopez)":           {"Maria Lopez"},
	} {
		if got := cleanAuthors([]string{in}); !slices.Equal(got, want) {
			t.Errorf("cleanAuthors(%q) = %q, want %q", in, got, want)
		}
	}
	if got := personNames(cleanAuthors([]string{"By signing up you agree to our Terms"})); got != nil {
		t.Errorf("a sentence read as a byline: %q", got)
	}
}

func TestTitle(t *testing.T) {
	page := `<html><head><title>Rivers in flood | The Courier</title>
<meta property="og:site_name" content="The Courier"></head>
<body><h1>Menu</h1><h1>Rivers in flood</h1></body></html>`
	if m := read(t, page, ""); m.Title != "Rivers in flood" || m.Sources["title"] != SourceHeadline {
		t.Errorf("title %q from %q", m.Title, m.Sources["title"])
	}
	page = `<html><head><title>Rivers in flood after record rain - The Courier</title></head><body></body></html>`
	if m := read(t, page, ""); m.Title != "Rivers in flood after record rain" {
		t.Errorf("title %q, want the site name cut", m.Title)
	}
	page = `<html><head><meta property="og:title" content="IT &amp; Cybersecurity Best Practices to Protect Your Business"></head>
<body><h1>Top 10 IT Security Best Practices for 2025: Protect Your Business</h1></body></html>`
	if m := read(t, page, ""); m.Sources["title"] != SourceHeadline {
		t.Errorf("title %q from %q, want the <h1> that the og:title words apart", m.Title, m.Sources["title"])
	}
	for _, c := range []struct{ name, page, want string }{
		{"a permalink's pilcrow", `<html><head><title>Logging HOWTO — Python 3.14 documentation</title></head>
<body><h1>Logging HOWTO<a class="headerlink" href="#logging-howto">¶</a></h1></body></html>`, "Logging HOWTO"},
		{"the site named in the title and the header", `<html><head><title>What is Ownership? - The Rust Programming Language</title></head>
<body><h1 class="menu-title">The Rust Programming Language</h1><h2>What Is Ownership?</h2></body></html>`, "What is Ownership?"},
		{"the site first in the title", `<html><head><title>Field Notes : Counting Herons on the North Marsh in Spring</title></head>
<body><div class="logo">Field Notes</div><h1>Counting Herons on the North Marsh in Spring</h1></body></html>`, "Counting Herons on the North Marsh in Spring"},
		{"a section first in the title", `<html><head><title>News | Ferry service resumes after the storm</title></head>
<body><h1>Ferry service resumes after the storm</h1></body></html>`, "Ferry service resumes after the storm"},
		{"the site's header <h1> after a section", `<html><head><title>blog | Harbour Friends Association</title></head>
<body><h1 id="site-title">Harbour Friends Association</h1><h1>We painted the boathouse</h1></body></html>`, "blog"},
		{"an <h1> that opens the title", `<html><head><title>Tides | Harbour Research Council of the North Coast</title></head>
<body><h1>Tides</h1></body></html>`, "Tides"},
		{"no-break spaces around a separator", "<html><head><meta property=\"og:title\" content=\"Access overview for teams \u00a0|\u00a0 Accounts \u00a0|\u00a0 Cloud Docs\"></head><body></body></html>", "Access overview for teams"},
		{"a button in the heading", `<html><head><title>ferry - Rust</title></head>
<body><h1>Crate ferry<button>Copy item path</button></h1></body></html>`, "Crate ferry"},
		{"a hidden tooltip in the heading", `<html><head><meta property="og:title" content="Access overview | Accounts | Cloud Docs"></head>
<body><h1>Access overview<span hidden><span>Keep your pages</span> <span>Save pages to read them later.</span></span>` +
			`<span style="display: none">Saved</span></h1></body></html>`, "Access overview"},
		{"a word split by inline markup", `<html><head><title>Tide Tables</title></head>
<body><h1><span class="drop">T</span>ide <em>Tables</em></h1></body></html>`, "Tide Tables"},
		{"block elements in the heading", `<html><head><title>Harbour Tides</title></head>
<body><h1><div>Harbour</div><div>Tides</div></h1></body></html>`, "Harbour Tides"},
		{"a thread, its board and the forum", `<html><head><title>Cron job does not start / Newbie Corner / Arch Linux Forums</title></head>
<body><p>Cron job does not start</p></body></html>`, "Cron job does not start"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.want {
				t.Errorf("title %q, want %q", m.Title, c.want)
			}
		})
	}
	page = `<html><head><title>Residential Electrician Coupons | Blue Collar Electricians</title></head><body></body></html>`
	if m := read(t, page, "https://www.bluecollarelectricians.com/coupons"); m.Title != "Residential Electrician Coupons" {
		t.Errorf("title %q, want the segment that names the host cut", m.Title)
	}
	page = `<html><head><title>Kettleworks - Stove Kettles and Tea Kettles</title></head><body><h1>Kettleworks</h1></body></html>`
	if m := read(t, page, "https://kettleworks.com/"); m.Title != "Kettleworks - Stove Kettles and Tea Kettles" {
		t.Errorf("title %q, want the title over an <h1> that names the host", m.Title)
	}
	page = `<html><head><title>Talkspace - #1 Rated Online Therapy</title></head><body></body></html>`
	if m := read(t, page, "https://www.talkspace.com/"); m.Title != "Talkspace - #1 Rated Online Therapy" {
		t.Errorf("title %q, want the leading brand kept", m.Title)
	}
	page = `<html><head><meta property="og:title" content="Rivers in flood after record rain"></head>
<body><h1>Subscribe to our newsletter</h1></body></html>`
	if m := read(t, page, ""); m.Title != "Rivers in flood after record rain" {
		t.Errorf("title %q, want the og:title over an unrelated <h1>", m.Title)
	}
}

func TestPageTypeLeavesItemsOut(t *testing.T) {
	page := `<html><head><meta name="author" content="Ann Lee"><meta property="article:published_time" content="2024-01-02"></head><body><h1>Shop</h1></body></html>`
	doc, _ := html.Parse(strings.NewReader(page))
	m := Read(doc, Input{PageType: "product"}, Options{Now: testNow})
	if len(m.Authors) > 0 || m.Published != "" {
		t.Errorf("a product page got authors %q and date %q", m.Authors, m.Published)
	}
	m = Read(doc, Input{PageType: "article"}, Options{Now: testNow})
	if len(m.Authors) != 1 || m.Published != "2024-01-02" {
		t.Errorf("an article got authors %q and date %q", m.Authors, m.Published)
	}
	thread := `<html><body><h1>Cron job not running</h1>
<div itemprop="author" itemscope><meta itemprop="name" content="user447274"></div><p>My job does not run.</p>
<div itemprop="author" itemscope><meta itemprop="name" content="glenn jackman"></div><p>Check the PATH.</p></body></html>`
	doc, _ = html.Parse(strings.NewReader(thread))
	if m = Read(doc, Input{PageType: "forum"}, Options{Now: testNow}); !slices.Equal(m.Authors, []string{"user447274"}) {
		t.Errorf("a thread got authors %q, want its first post's", m.Authors)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(`<html><head><script type="application/ld+json">{"@graph":[{"@type":"Article","datePublished":"2020-01-01","author":[{"name":"A B"}]}]}</script></head><body><h1>T</h1><time datetime="2019-02-03">x</time></body></html>`)
	f.Add(`<meta name="date" content="31.04.2020"><h1>By Ann Lee</h1><p class="date">12. März 2021</p>`)
	f.Add(`<html lang="hu"><h1>Cím</h1><div class="author">作者：李明、王红</div><p>[作者：李妍]</p><div class="byline">[서울=뉴시스] 홍길동 기자</div><div class="meta">Von A B | 2021. március 12.</div><p class="date">03/05/2022</p>`)
	f.Add(`<title>Question - Tides | Home :: Site</title><h1><span>Title:</span>Question Tides</h1><p>公园开放。（总台记者 王建宏 张文攀）</p>` +
		`<p>光明日报记者 王建宏 张文攀 土豆，听名字</p><td>时间：2004年10月21日 作者：<!--a-->郭励弘</td><p>河南商报记者马俊峰/文</p>`)
	f.Add(`<html lang="ar"><h1>T</h1><p>تحديث ١٤ مارس ٢٠٢١ · نشر ١٢ مارس ٢٠٢١</p><p>Bijgewerkt: 14 maart 2021</p>` +
		`<p>2021 m. kovo 12 d.</p><p>ngày 12 tháng 3 năm 2021</p><p>๑๒ มีนาคม ๒๕๖๔</p><span>Piše: P. Mucović</span><p>Συντάκτης: Γιώργος</p>`)
	f.Add(`<title>A &amp;#039;b&amp;#039; &amp;mdash; c</title><meta name="description" content="&lt;p&gt;x &lt;b&gt;y&lt;/b&gt; &lt;Z&gt;&amp;#65279;">` +
		`<script type="application/ld+json">{"@graph":[{"@type":"Person","@id":"#p","name":"Ann Lee"},{"@type":"Article","author":{"@id":"#p"},"publisher":{"@id":"#o"}},{"@type":"Organization","@id":"#o","name":"Org"}]}</script>` +
		`<p class="date">01.21.2020</p><h1>失事--国内频道</h1>`)
	f.Add(`<h1>Goats</h1><span class="date">vor einem Tag</span><time>3小时前</time><p class="date">Gestern, 18:02</p><div class="meta">il y a 2 jours</div><p class="date">۱۲ خرداد ۱۴۰۰</p><meta property="article:published_time" content="1399-05-12T10:00:00+04:30">`)
	// The link rules: a thread's starter (read on forum pages), an
	// author's archive (read where nothing else names the author), a
	// list of authors, a date label after other fields.
	f.Add(`<h1>Thread</h1><a href="https://www.youtube.com/user/x">YouTube</a><p>Thread starter <a href="/members/ann_b.12/" class="username">ann_b</a></p>` +
		`<ul><li><a href="/authors/x/">X Y</a></li><li><a href="/authors/z/">Z W</a></li></ul><a href="/author/ann-lee/">Alles von Ann Lee</a><a href="/author/ann-lee/">Ann Lee</a>` +
		`<div itemscope itemtype="https://schema.org/Comment https://schema.org/Thing"><span itemprop="author">Bob</span></div><p>作者： 来源： 发布日期： 7/5/2005 9:23:57 PM</p>`)
	// Headings with a kicker, a subtitle and their separators.
	f.Add(`<title>A – b | S</title><h1><span class="kicker">K</span><span class="x"> – </span><span>A – b</span><small class="subtitle">Sub</small></h1>` +
		`<h1><span itemprop="headline"><small>K</small><br>A b<br><small>01.02.2022</small></span></h1><h1><span class="a">K k</span><span>:</span></h1>`)
	f.Fuzz(func(t *testing.T, page string) {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			return
		}
		for _, pageType := range []string{"", "forum"} {
			m := Read(doc, Input{Text: page, PageType: pageType}, Options{Fetched: testNow}) // relative dates are read against it
			for _, d := range []string{m.Published, m.Modified} {
				if d == "" {
					continue
				}
				day, err := time.Parse("2006-01-02", d)
				if err != nil || day.After(testNow.AddDate(0, 0, 1)) || day.Year() < 1995 {
					t.Fatalf("date %q is no valid day in range", d)
				}
			}
			for k := range m.Sources {
				if k == "" {
					t.Fatal("empty source key")
				}
			}
			if m.Title != strings.TrimSpace(m.Title) {
				t.Fatalf("title %q not trimmed", m.Title)
			}
			for _, a := range m.Authors {
				if a == "" || len(a) > 1<<10 {
					t.Fatalf("author %q", a)
				}
			}
		}
	})
}

// TestTitleHan cuts the site's name or section from a Chinese title at
// the marks such titles join them with, without spaces: an underscore, a
// full-width bar, a dash between two characters that are no ASCII letters
// or digits; a segment written as an organisation's name ("自由電子報")
// goes at either end, unless it is the longest. A dash in a name or a
// number stays, and a title kept whole keeps its marks as they were.
func TestTitleHan(t *testing.T) {
	for title, want := range map[string]string{
		"海滨小城举办首届风筝节_沿海新闻网":                       "海滨小城举办首届风筝节",
		"权威人士谈我国南极考察队直升机失事--国内频道":                 "权威人士谈我国南极考察队直升机失事",
		"北京工商局抽检出14种不合格食品 满记甜品上榜-《财经网》":           "北京工商局抽检出14种不合格食品 满记甜品上榜",
		"女主播视频门 韩版大S炫富 少女时代爆猛料-女主播-东北网娱乐":         "女主播视频门 韩版大S炫富 少女时代爆猛料",
		"[公司]绿景控股料2011年扭亏 净利1900万-2900万-财经频道-千华网": "[公司]绿景控股料2011年扭亏 净利1900万-2900万",
		"新冠COVID-19疫苗接种指南":                        "新冠COVID-19疫苗接种指南",
		"大话四川-[原创]朋友,请正确客观认识凉山、西昌！错误信息[麻辣社区]":     "大话四川-[原创]朋友,请正确客观认识凉山、西昌！错误信息[麻辣社区]",
		"蔡健雅_百度百科": "蔡健雅_百度百科",
		"貧血 小心大腸癌上身 - 自由電子報 即時新聞": "貧血 小心大腸癌上身",
		"自由電子報 - 流感再奪2命 累計20死":    "流感再奪2命 累計20死",
		"多運動 薪水高 ｜即時新聞｜中時電子報":     "多運動 薪水高",
		"全家人周末一起去看国家大剧院_新闻":       "全家人周末一起去看国家大剧院",
	} {
		page := `<html><head><title>` + title + `</title></head><body><p>正文</p></body></html>`
		if m := read(t, page, ""); m.Title != want {
			t.Errorf("title of %q: %q, want %q", title, m.Title, want)
		}
	}
}

func TestRepublished(t *testing.T) {
	ld := `<script type="application/ld+json">{"@type":"NewsArticle","headline":"Goats on the hill","datePublished":"2019-03-04"}</script>`
	for _, c := range []struct {
		name, body, want string
	}{
		{"the structured day written nowhere: the date line wins",
			`<h1>Goats on the hill</h1><p>12 May 2020</p><p>The goats came back.</p>`, "2020-05-12"},
		{"the structured day written on the page",
			`<h1>Goats on the hill</h1><p>12 May 2020</p><p>First published 4 March 2019.</p>`, "2019-03-04"},
		{"written with day and month swapped",
			`<h1>Goats on the hill</h1><p>12 May 2020</p><p>Archive: 03/04/2019</p>`, "2019-03-04"},
		{"no date line below the headline",
			`<h1>Goats on the hill</h1><p>The goats came back.</p>`, "2019-03-04"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := read(t, `<html><head>`+ld+`</head><body>`+c.body+`</body></html>`, "")
			if m.Published != c.want {
				t.Errorf("published %q from %q, want %s", m.Published, m.Sources["published"], c.want)
			}
		})
	}
}

func TestShownDateOtherWayRound(t *testing.T) {
	page := `<html><head><script type="application/ld+json">{"@type":"NewsArticle","headline":"Talks resume","datePublished":"2023-11-02T15:57:00+01:00"}</script></head>
<body><h1>Talks resume</h1><p class="date">02/11/2023</p><p>The talks resumed on Thursday.</p></body></html>`
	if m := read(t, page, ""); m.Published != "2023-11-02" {
		t.Errorf("published %q from %q, want the structured 2023-11-02 that the date line writes day first", m.Published, m.Sources["published"])
	}
}

func TestShownLocalDay(t *testing.T) {
	ld := `<script type="application/ld+json">{"@type":"NewsArticle","headline":"Council votes","datePublished":"2023-11-09T03:28:35Z"}</script>`
	for _, c := range []struct{ name, line, want string }{
		{"the same moment in the page's zone", "Nov. 8, 2023, 10:28 p.m. ET", "2023-11-08"},
		{"another time of day", "Nov. 8, 2023, 10:15 p.m. ET", "2023-11-09"},
		{"no time of day", "Nov. 8, 2023", "2023-11-09"},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := `<html><head>` + ld + `</head><body><h1>Council votes</h1><p>` + strings.Repeat("The council voted. ", 30) + `</p>` +
				`<footer><span class="date">` + c.line + `</span></footer></body></html>`
			if m := read(t, page, ""); m.Published != c.want {
				t.Errorf("published %q from %q, want %s", m.Published, m.Sources["published"], c.want)
			}
		})
	}
}

func TestServiceTitle(t *testing.T) {
	page := `<html><head><title>Local Movers in Springfield | Acme Moving</title>
<meta property="og:site_name" content="Acme Moving"></head>
<body><h1>Moving made simple in Springfield</h1></body></html>`
	doc, _ := html.Parse(strings.NewReader(page))
	if m := Read(doc, Input{PageType: "service"}, Options{Now: testNow}); m.Title != "Local Movers in Springfield" {
		t.Errorf("service page title %q, want the structured title over the slogan <h1>", m.Title)
	}
	if m := Read(doc, Input{PageType: "article"}, Options{Now: testNow}); m.Title != "Moving made simple in Springfield" {
		t.Errorf("article title %q, want the <h1>", m.Title)
	}
	page = `<html><head><title>Local Movers | Springfield Moving Services | Acme</title></head>
<body><h1>Local movers</h1></body></html>`
	doc, _ = html.Parse(strings.NewReader(page))
	if m := Read(doc, Input{PageType: "service"}, Options{Now: testNow}); m.Title != "Local movers" {
		t.Errorf("service page title %q, want the <h1> that is a segment of the title", m.Title)
	}
}

func TestFrontHasNoDate(t *testing.T) {
	page := `<html><head><meta property="article:published_time" content="2024-01-02"></head><body><h1>News</h1></body></html>`
	doc, _ := html.Parse(strings.NewReader(page))
	for _, c := range []struct {
		addr, pageType, want string
	}{
		{"https://example.com/news", "listing", ""},
		{"https://example.com/", "service", ""},
		{"https://example.com/sport/schedule", "listing", ""},
		{"https://example.com/news", "article", "2024-01-02"},
		{"https://example.com/news/rivers-in-flood-after-rain", "listing", "2024-01-02"},
		{"https://example.com/news/2024/floods", "listing", "2024-01-02"},
		{"https://example.com/?p=959", "listing", "2024-01-02"},
		{"https://example.com/a/b/c", "listing", "2024-01-02"},
		{"", "listing", "2024-01-02"},
	} {
		u, _ := url.Parse(c.addr)
		if m := Read(doc, Input{URL: u, PageType: c.pageType}, Options{Now: testNow}); m.Published != c.want {
			t.Errorf("%s %q: published %q, want %q", c.pageType, c.addr, m.Published, c.want)
		}
	}
}

func TestDateLineBelowHeadline(t *testing.T) {
	page := `<html><body><div class="sidebar"><a href="/a">Other story</a><span class="field-date">12/16/2024</span></div>
<h1>Goats on the hill</h1><p>03/01/2017</p><p>The goats came back to the hill this spring, as they did every year.</p></body></html>`
	if m := read(t, page, ""); m.Published != "2017-03-01" {
		t.Errorf("published %q from %q, want the date line below the headline", m.Published, m.Sources["published"])
	}
}

func TestServiceSingleDay(t *testing.T) {
	one := `<html><body><h1>Hazardous goods service</h1><p>` + strings.Repeat("We handle your paperwork. ", 20) +
		`</p><footer><p>19.12.2019</p></footer></body></html>`
	two := `<html><body><h1>Holiday offers</h1><p>` + strings.Repeat("Sunny beaches and long walks. ", 20) +
		`</p><p>Book by 31.12.2019</p><p>Travel until 15.03.2020</p></body></html>`
	for _, c := range []struct{ page, want string }{{one, "2019-12-19"}, {two, ""}} {
		doc, _ := html.Parse(strings.NewReader(c.page))
		if m := Read(doc, Input{PageType: "service"}, Options{Now: testNow}); m.Published != c.want {
			t.Errorf("service page published %q, want %q", m.Published, c.want)
		}
	}
}

func TestNamespacedDateKey(t *testing.T) {
	page := `<html><head><meta property="photos:uploaded" content="2013-02-16T04:36:36-05:00"><meta property="photos:rating" content="93.5"></head><body><h1>Spring</h1></body></html>`
	if m := read(t, page, ""); m.Published != "2013-02-16" || m.Sources["published"] != SourceMeta {
		t.Errorf("published %q from %q, want the site-namespaced upload day", m.Published, m.Sources["published"])
	}
}

func TestScanSkipsSentences(t *testing.T) {
	page := `<html><body><h1>Tax help</h1><p>` + strings.Repeat("Volunteers prepare returns for free. ", 12) + `</p>
<p>Virtual tax assistance will be available to every household in the county beginning Monday, May 6th 2024.</p>
<p>All prices reflect the final price after savings and rebates, and these offers expire 9/30/2017 at 11:59 P.M.</p>
<p>` + strings.Repeat("Bring last year's forms. ", 12) + `</p></body></html>`
	if m := read(t, page, ""); m.Published != "" {
		t.Errorf("published %q from %q, want none: the page's only dates stand in sentences", m.Published, m.Sources["published"])
	}
	dated := strings.Replace(page, "<h1>Tax help</h1>", "<h1>Tax help</h1><p>"+strings.Repeat("Call us. ", 40)+"</p><div>Posted 12 March 2021</div>", 1)
	if m := read(t, dated, ""); m.Published != "2021-03-12" {
		t.Errorf("published %q from %q, want the short date line", m.Published, m.Sources["published"])
	}
}

func TestSentenceBelowHeadline(t *testing.T) {
	page := `<html><body><h1>Terms of the spring offer</h1><p>Discount and gift will be valid from January 16, 2025 at 7:00 AM Eastern Standard Time for every order placed online.</p></body></html>`
	if m := read(t, page, ""); m.Published != "" {
		t.Errorf("published %q from %q, want none: the date below the headline stands in a sentence", m.Published, m.Sources["published"])
	}
}

func TestTitleCutsRegisteredDomain(t *testing.T) {
	page := `<html><head><title>Spring Sale | Acme.com</title></head><body><p>Prices cut on every tool in the shop.</p></body></html>`
	if m := read(t, page, "https://promotions.acme.com/spring/index.html"); m.Title != "Spring Sale" {
		t.Errorf("title %q, want the site's registered domain cut off", m.Title)
	}
}

func TestLastPostIsNoPublication(t *testing.T) {
	ld := `<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Goats on the hill","datePublished":"2025-03-04T10:00:00Z"}</script>`
	page := `<html><head>` + ld + `</head><body><h1>Goats on the hill</h1><p>Last post: 12 May 2025 at 6:49 pm</p><p>Where do the goats go in winter?</p></body></html>`
	if m := read(t, page, ""); m.Published != "2025-03-04" {
		t.Errorf("published %q from %q, want the thread's start, not its last post", m.Published, m.Sources["published"])
	}
}

func TestHeadingTimeIsNoWords(t *testing.T) {
	page := `<html><body><h1><a href="/goats.html"><time datetime="2024-12-18T13:21:19+00:00">Dec <span>18</span> 2024</time> Goats on the hill</a></h1><p>The goats came back.</p></body></html>`
	m := read(t, page, "")
	if m.Title != "Goats on the hill" {
		t.Errorf("title %q, want the heading without its <time>", m.Title)
	}
	if m.Published != "2024-12-18" {
		t.Errorf("published %q, want the heading's <time>", m.Published)
	}
}

func TestCMSPageDate(t *testing.T) {
	graph := func(published, modified string) string {
		return `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[` +
			`{"@type":"WebPage","name":"What is a goat?","datePublished":"` + published + `","dateModified":"` + modified + `"},` +
			`{"@type":"WebSite","name":"Goat Farm"}]}</script>`
	}
	body := `<h1>What is a goat?</h1><p>` + strings.Repeat("A goat is a hoofed animal kept for milk and meat. ", 12) + `</p>`
	for _, c := range []struct {
		name, head, body, pageType, want string
	}{
		{"created, edited later, written nowhere", graph("2020-08-03T18:16:14+00:00", "2024-11-24T10:48:19+00:00"), body, "article", ""},
		{"edited on its publication day", graph("2020-08-03T08:16:14+00:00", "2020-08-03T10:48:19+00:00"), body, "article", "2020-08-03"},
		{"the page shows the day", graph("2020-08-03T18:16:14+00:00", "2024-11-24T10:48:19+00:00"),
			strings.Replace(body, "</h1>", "</h1><p class=\"date\">August 3, 2020</p>", 1), "article", "2020-08-03"},
		{"a meta tag gives the publication", graph("2020-08-03T18:16:14+00:00", "2024-11-24T10:48:19+00:00") +
			`<meta property="article:published_time" content="2020-08-03T18:16:14+00:00">`, body, "article", "2020-08-03"},
		{"a service page", graph("2020-08-03T18:16:14+00:00", "2024-11-24T10:48:19+00:00"), body, "service", "2020-08-03"},
		{"an article object's date", strings.Replace(graph("2020-08-03T18:16:14+00:00", "2024-11-24T10:48:19+00:00"), `"WebPage"`, `"Article"`, 1),
			body, "article", "2020-08-03"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, _ := html.Parse(strings.NewReader(`<html><head>` + c.head + `</head><body>` + c.body + `</body></html>`))
			u, _ := url.Parse("https://goats.example/what-is-a-goat/")
			if m := Read(doc, Input{URL: u, PageType: c.pageType}, Options{Now: testNow}); m.Published != c.want {
				t.Errorf("published %q from %q, want %q", m.Published, m.Sources["published"], c.want)
			}
		})
	}
}

func TestShortYearDateLine(t *testing.T) {
	body := `<p>` + strings.Repeat("The winery sold more wine than ever. ", 12) + `</p>`
	for _, c := range []struct{ name, page, want string }{
		{"a date line by the headline", `<h1>LVMH grows</h1><div class="node__meta">28.01.22 / 0 Kommentare</div>` + body, "2022-01-28"},
		{"above the headline", `<div class="date">Party, 30.10.23</div><h1>Costumes</h1>` + body, "2023-10-30"},
		{"a number far from the headline", `<h1>LVMH grows</h1>` + body + strings.Repeat(body, 3) + `<div class="date">Version 28.01.22</div>`, ""},
		{"a version number by the headline", `<h1>LVMH grows</h1><div class="date">1.28.01.22</div>` + body, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, `<html><body>`+c.page+`</body></html>`, ""); m.Published != c.want {
				t.Errorf("published %q from %q, want %q", m.Published, m.Sources["published"], c.want)
			}
		})
	}
}

func TestAddressReadsDateLine(t *testing.T) {
	page := `<html><body><h1>How many wine types are there?</h1><div class="blog-date">03/10/2023</div><p>` +
		strings.Repeat("Wine comes still, sparkling or fortified. ", 12) + `</p></body></html>`
	for _, c := range []struct{ addr, want string }{
		{"https://wine.example/blog/2023/october/03/how-many-wine-types/", "2023-10-03"},
		{"https://wine.example/blog/2023/10/03/how-many-wine-types/", "2023-10-03"},
		{"https://wine.example/blog/how-many-wine-types/", "2023-03-10"},
		{"https://wine.example/blog/2023/march/10/how-many-wine-types/", "2023-03-10"},
	} {
		if m := read(t, page, c.addr); m.Published != c.want {
			t.Errorf("%s: published %q from %q, want %s", c.addr, m.Published, m.Sources["published"], c.want)
		}
	}
}

func TestTitleArbitrated(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"a slogan og:title against the page's <title>", `<html><head><meta property="og:title" content="Ideas that travel far">
<title>Harbour Tide Tables for the North Coast · Tidewatch</title></head>
<body><h1>Sign in</h1><h1>Read today's tables</h1></body></html>`, "Harbour Tide Tables for the North Coast"},
		{"the og:title the headings side with", `<html><head><meta property="og:title" content="Kettle Care | Kettleworks">
<title>Spring Sale on Everything | Kettleworks</title></head>
<body><h1>Caring for an old kettle at home</h1></body></html>`, "Kettle Care"},
		{"no heading to tell: the og:title", `<html><head><meta property="og:title" content="Ideas that travel far">
<title>Harbour Tide Tables for the North Coast · Tidewatch</title></head><body></body></html>`, "Ideas that travel far"},
		{"titles that agree whole", `<html><head><meta property="og:title" content="Tidewatch">
<title>Tidewatch | Tide tables for sailors</title></head><body><h1>Read today's tables</h1></body></html>`, "Tidewatch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.want {
				t.Errorf("title %q from %q, want %q", m.Title, m.Sources["title"], c.want)
			}
		})
	}
}

func TestTitleSectionNumber(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"a chapter's number the title leaves out", `<html><head><title>Tides - Reading the Tables</title></head>
<body><h1>3.1 Tides - Reading the Tables</h1></body></html>`, "Tides - Reading the Tables"},
		{"a number set off by a separator", `<html><head><title>Reading the Tables | Tide Guide</title></head>
<body><h1>12 - Reading the Tables</h1></body></html>`, "Reading the Tables"},
		{"a number the title writes too", `<html><head><title>2.4. Data Structures — Harbour Manual</title></head>
<body><h1>2.4. Data Structures</h1></body></html>`, "2.4. Data Structures"},
		{"a label that says title", `<html><head><title>[2512.0001] On Tides</title></head>
<body><h1><span class="descriptor">Title:</span>On Tides</h1></body></html>`, "On Tides"},
		{"a count that opens a headline", `<html><head><title>Common Food Myths Debunked</title></head>
<body><h1>9 Common Food Myths Debunked</h1></body></html>`, "9 Common Food Myths Debunked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.want {
				t.Errorf("title %q from %q, want %q", m.Title, m.Sources["title"], c.want)
			}
		})
	}
}

func TestTitleLostCharacters(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"characters the heading lost", `<html><head><meta property="og:title" content="Reading Tides: A Sailor's Guide – Tidewatch"></head>
<body><h1>Reading Tides? A Sailor? Guide</h1></body></html>`, "Reading Tides: A Sailor's Guide"},
		{"a question the title asks too", `<html><head><meta property="og:title" content="When Is High Tide? Read the Tables"></head>
<body><h1>When is high tide? Read the tables</h1></body></html>`, "When is high tide? Read the tables"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.want {
				t.Errorf("title %q from %q, want %q", m.Title, m.Sources["title"], c.want)
			}
		})
	}
}

func TestTitleSeparatorTheHeadingLost(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"a label in its own element", `<html><head><meta property="og:site_name" content="Sailing Forum"><meta property="og:title" content="Question - Which tide table is right? | Sailing Forum"></head>
<body><h1><span class="label">Question</span> Which tide table is right?</h1></body></html>`, "Question - Which tide table is right?"},
		{"a dash written as two hyphens", `<html><head><meta property="og:title" content="Tides Are Not Random--The Moon Sets Them"></head>
<body><h1>Tides Are Not Random—The Moon Sets Them</h1></body></html>`, "Tides Are Not Random--The Moon Sets Them"},
		{"another dash keeps the heading's", `<html><head><meta property="og:title" content="Reading Tides - A Sailor's Guide"></head>
<body><h1>Reading Tides – A Sailor's Guide</h1></body></html>`, "Reading Tides – A Sailor's Guide"},
		{"capitals keep the heading's", `<html><head><meta property="og:title" content="Reading Tides: A Sailor's Guide"></head>
<body><h1>READING TIDES: A SAILOR'S GUIDE</h1></body></html>`, "READING TIDES: A SAILOR'S GUIDE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.want {
				t.Errorf("title %q from %q, want %q", m.Title, m.Sources["title"], c.want)
			}
		})
	}
}

func TestTitleHomeLabel(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"a front page titled Home", `<html><head><meta property="og:site_name" content="The Tide Guide"><meta property="og:title" content="Home">
<title>Home - The Tide Guide</title></head><body><p>Tables.</p></body></html>`, "The Tide Guide"},
		{"no site name to give", `<html><head><title>Home</title></head><body><p>Tables.</p></body></html>`, "Home"},
		{"a headline with the word", `<html><head><meta property="og:site_name" content="The Tide Guide"><title>Home Tides | The Tide Guide</title></head>
<body><h1>Home Tides</h1></body></html>`, "Home Tides"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.want {
				t.Errorf("title %q from %q, want %q", m.Title, m.Sources["title"], c.want)
			}
		})
	}
}

func TestTitleInPostWithComments(t *testing.T) {
	page := `<html><head><meta property="og:title" content="Twenty Herbs for Pest Control"></head>
<body><article class="post has-comments"><h1>My Twenty Herbs for Pest Control in the Garden</h1><p>Text.</p></article>
<div class="comments"><h1>Twenty herbs? Pest control is easy</h1></div></body></html>`
	if m := read(t, page, ""); m.Title != "My Twenty Herbs for Pest Control in the Garden" {
		t.Errorf("title %q from %q, want the <h1> of a post whose class says it has comments", m.Title, m.Sources["title"])
	}
}

func TestServiceTitleBreadcrumb(t *testing.T) {
	page := `<html><head><meta property="og:title" content="Business Payroll Services | Payroll Outsourcing | Ledgerline"><meta property="og:site_name" content="Ledgerline">
<script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home"},
{"@type":"ListItem","position":2,"name":"Services"},{"@type":"ListItem","position":3,"name":"Business Payroll"}]}</script></head>
<body><h1>Business Payroll</h1></body></html>`
	doc, _ := html.Parse(strings.NewReader(page))
	if m := Read(doc, Input{PageType: "service"}, Options{Now: testNow}); m.Title != "Business Payroll" {
		t.Errorf("title %q from %q, want the <h1> that is the page's own breadcrumb", m.Title, m.Sources["title"])
	}
	page = strings.Replace(page, `"name":"Business Payroll"}]`, `"name":"Payroll outsourcing"}]`, 1)
	doc, _ = html.Parse(strings.NewReader(page))
	if m := Read(doc, Input{PageType: "service"}, Options{Now: testNow}); m.Title != "Business Payroll Services" {
		t.Errorf("title %q from %q, want the structured title over an <h1> the breadcrumbs do not name", m.Title, m.Sources["title"])
	}
}

// TestSlashDateByLanguage reads a date in digits with a slash day first
// on a page that declares another language than (American) English.
func TestSlashDateByLanguage(t *testing.T) {
	for lang, want := range map[string]string{"es": "2022-05-03", "en-GB": "2022-05-03", "en": "2022-03-05", "": "2022-03-05"} {
		m := read(t, `<html lang="`+lang+`"><body><article><h1>Un titular</h1><div class="date">03/05/2022 21:44</div>`+
			`<p>El texto del artículo, que cuenta lo que pasó ese día en la ciudad.</p></article></body></html>`, "")
		if m.Published != want {
			t.Errorf("lang %q: published %q, want %q", lang, m.Published, want)
		}
	}
}

// TestEscapedTwice repairs text values a page escaped twice or more: entities
// left after parsing are decoded, HTML tags written as text go (those
// that break a line leave a space), a title in angle brackets that is
// no tag stays, and a URL's query keeps its "&copy=".
func TestEscapedTwice(t *testing.T) {
	page := `<html><head><title>Australian &amp;#039;megablaze&amp;#039; under control</title>` +
		`<meta name="description" content="&lt;p&gt;We&amp;rsquo;re excited to introduce &lt;strong&gt;Mini-SGLang&lt;/strong&gt;, watch &lt;The Palace&gt;&lt;/p&gt;">` +
		`<meta property="og:image" content="https://example.com/a.jpg?x=1&amp;copy=2"></head><body><p>Text.</p></body></html>`
	m := read(t, page, "https://example.com/a")
	if m.Title != "Australian 'megablaze' under control" {
		t.Errorf("title %q", m.Title)
	}
	if want := "We’re excited to introduce Mini-SGLang, watch <The Palace>"; m.Description != want {
		t.Errorf("description %q, want %q", m.Description, want)
	}
	if m.Image != "https://example.com/a.jpg?x=1&copy=2" {
		t.Errorf("image %q", m.Image)
	}
	// A JSON-LD string is no HTML: its "&amp;amp;nbsp;" was escaped three times.
	page = `<html><head><script type="application/ld+json">{"@type":"NewsArticle",` +
		`"description":"Three were held.&amp;amp;nbsp;READ:&amp;amp;nbsp;The mother"}</script></head><body><p>Text.</p></body></html>`
	if m := read(t, page, ""); m.Description != "Three were held. READ: The mother" {
		t.Errorf("description %q", m.Description)
	}
}

// TestBaseWithoutAddress: a page read with no address of its own (a
// JSONL line without a URL, a page piped in) resolves its relative links
// against its absolute <base href>, and leaves them out without one.
func TestBaseWithoutAddress(t *testing.T) {
	head := `<meta property="og:image" content="/img/goats.jpg"><link rel="canonical" href="/2021/03/12/goats">`
	m := read(t, `<html><head><base href="https://news.example.com/">`+head+`</head><body><h1>Goats</h1></body></html>`, "")
	if m.Image != "https://news.example.com/img/goats.jpg" || m.CanonicalURL != "https://news.example.com/2021/03/12/goats" {
		t.Errorf("image %q canonical %q, want them resolved against <base href>", m.Image, m.CanonicalURL)
	}
	m = read(t, `<html><head>`+head+`</head><body><h1>Goats</h1></body></html>`, "")
	if m.Image != "" || m.CanonicalURL != "" {
		t.Errorf("image %q canonical %q from relative links with no base", m.Image, m.CanonicalURL)
	}
}

// TestUnreadItemsNotKept: the text of a microdata property no rule reads
// (an articleBody, a text) is not collected, so long ones do not use up
// the bytes kept for the values and the author after them is still read.
func TestUnreadItemsNotKept(t *testing.T) {
	// With the headline, two values that fill the bytes kept for all
	// values but six.
	page := `<html><body><article itemscope itemtype="https://schema.org/Article"><h1 itemprop="headline">A headline</h1>
<div itemprop="articleBody">` + strings.Repeat("a", 40000) + `</div><div itemprop="text">` + strings.Repeat("b", maxTotal-40000-len("A headline")-6) + `</div>
<p>Written by <span itemprop="author">Ann Lee</span></p></article></body></html>`
	m := readAs(t, page, "article")
	if !slices.Equal(m.Authors, []string{"Ann Lee"}) || m.Sources["authors"] != SourceMicrodata {
		t.Errorf("authors = %q from %q, want [Ann Lee] from microdata", m.Authors, m.Sources["authors"])
	}
	c := newCollector()
	doc, _ := html.Parse(strings.NewReader(page))
	c.walk(doc)
	if _, ok := c.micro["articlebody"]; ok {
		t.Error("the articleBody's text was collected")
	}
}

// TestSameASCIIWords: sameText's path for ASCII texts agrees with its
// general one on random texts of words, digits, "_" and punctuation.
func TestSameASCIIWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"a", "A", "b", "_", " ", "-", "|", "1", "ab", "AB", "  ", ".", "x_y"}
	gen := func() string {
		var sb strings.Builder
		for range rng.IntN(8) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		return sb.String()
	}
	for range 100000 {
		a, b := gen(), gen()
		if a == "" || b == "" {
			continue
		}
		general := strings.EqualFold(strings.Join(words(a), " "), strings.Join(words(b), " "))
		if got := sameASCIIWords(a, b); got != general {
			t.Fatalf("sameASCIIWords(%q, %q) = %v, want %v", a, b, got, general)
		}
	}
}

// TestSiteFromTitle: a <title> segment after the first that is the
// page's first <h1> names the site (a book's name in its header), unless
// a structured title names that <h1> the headline, or the first segment
// is a short section or site name.
func TestSiteFromTitle(t *testing.T) {
	for _, c := range []struct{ name, page, site, title string }{
		{"a book's name in its header", `<html><head><title>What is Ownership? - The Rust Programming Language</title></head>
<body><h1 class="menu-title">The Rust Programming Language</h1><h2>What Is Ownership?</h2></body></html>`,
			"The Rust Programming Language", "What is Ownership?"},
		{"the og:title names the <h1> the headline", `<html><head><title>Harbour Notes Tech Blog | Counting Herons</title>
<meta property="og:title" content="Counting Herons"></head><body><h1>Counting Herons</h1></body></html>`,
			"", "Counting Herons"},
		{"a short section first", `<html><head><title>News | Ferry service resumes after the storm</title></head>
<body><h1>Ferry service resumes after the storm</h1></body></html>`,
			"", "Ferry service resumes after the storm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.SiteName != c.site || m.Title != c.title {
				t.Errorf("site %q title %q, want %q and %q", m.SiteName, m.Title, c.site, c.title)
			}
		})
	}
}

// TestSplitKeywords: commas and semicolons always part a keyword list;
// "、" and "|" only a list of three or more, not a headline given as a
// keyword.
func TestSplitKeywords(t *testing.T) {
	for in, want := range map[string][]string{
		"goats, sheep; cows":                 {"goats", "sheep", "cows"},
		"企业|安全|工作":                           {"企业", "安全", "工作"},
		"新聞、生活、民生，天氣":                        {"新聞", "生活", "民生", "天氣"},
		"乾眼病患增 醫師：注意濕度、多休息":                  {"乾眼病患增 醫師：注意濕度、多休息"},
		"Edibles | Gummy Bears | Sleep Aids": {"Edibles", "Gummy Bears", "Sleep Aids"},
		"Rock | Pop":                         {"Rock | Pop"},
	} {
		if got := splitKeywords([]string{in}); !slices.Equal(got, want) {
			t.Errorf("splitKeywords(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSiteVariant: a title segment after the headline that writes the
// site's name longer or shorter is cut; the headline is never, and a
// segment that only shares a first word with the name stays.
func TestSiteVariant(t *testing.T) {
	for _, c := range []struct{ name, page, title string }{
		{"the name without its last word", `<html><head><title>Website Design Portfolio | Thrive Internet Marketing</title>
<meta property="og:site_name" content="Thrive Internet Marketing Agency"></head><body><h2>Our work</h2></body></html>`,
			"Website Design Portfolio"},
		{"the name with a word more", `<html><head><title>Sleep tips | Parkview Health</title>
<meta property="og:site_name" content="Parkview"></head><body><p>Text.</p></body></html>`,
			"Sleep tips"},
		{"a first word shared, not the name", `<html><head><title>Harbour Lights | Harbour Tours and Sailing School</title>
<meta property="og:site_name" content="Harbour Lights Cafe"></head><body><p>Text.</p></body></html>`,
			"Harbour Lights | Harbour Tours and Sailing School"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, c.page, ""); m.Title != c.title {
				t.Errorf("title %q, want %q", m.Title, c.title)
			}
		})
	}
}

// TestLinkedTextProperties: a link marked up with a text property
// (a section, an author, keywords) gives its words, not its address; an
// address property (image) keeps the address.
func TestLinkedTextProperties(t *testing.T) {
	page := `<html><head><title>Harbour dredging starts</title></head><body>
<article itemscope itemtype="https://schema.org/NewsArticle">
<h1 itemprop="headline">Harbour dredging starts</h1>
<a itemprop="articleSection" href="/news/nsw/">New South Wales</a>
<a itemprop="articleSection" href="/news/"></a>
<p>By <a itemprop="author" href="/author/jane-miller/">Jane Miller</a></p>
<a itemprop="image" href="/img/dredger.jpg">Photo</a>
<p>The dredgers arrived on Monday.</p></article></body></html>`
	m := read(t, page, "https://example.com/news/nsw/harbour-dredging")
	if !slices.Equal(m.Categories, []string{"New South Wales"}) {
		t.Errorf("categories %q", m.Categories)
	}
	if !slices.Equal(m.Authors, []string{"Jane Miller"}) || m.Sources["authors"] != SourceMicrodata {
		t.Errorf("authors %q from %s", m.Authors, m.Sources["authors"])
	}
	if m.Image != "https://example.com/img/dredger.jpg" {
		t.Errorf("image %q", m.Image)
	}
	// RDFa's property on a link reads the same way.
	rdfa := `<html><head><title>Harbour dredging starts</title></head><body vocab="https://schema.org/" typeof="NewsArticle">
<h1 property="headline">Harbour dredging starts</h1><a property="articleSection" href="/news/nsw/">New South Wales</a>
<p>The dredgers arrived on Monday.</p></body></html>`
	if m := read(t, rdfa, "https://example.com/news/nsw/harbour-dredging"); !slices.Equal(m.Categories, []string{"New South Wales"}) {
		t.Errorf("RDFa categories %q", m.Categories)
	}
}

// TestDeclaredLanguageCodes: a declaration is read as its ISO 639-1 code
// when it has one; a charset in the place of a language, an unknown
// code or one that names no language in particular declares nothing.
func TestDeclaredLanguageCodes(t *testing.T) {
	for decl, want := range map[string]string{
		"en-GB": "en", "deu": "de", "pt_BR": "pt", "fil": "fil",
		"utf-8": "", "xx": "", "und": "", "mul": "", "zxx": "",
	} {
		page := `<html lang="` + decl + `"><head><title>Notes</title></head><body><p>Short.</p></body></html>`
		if m := read(t, page, ""); m.Lang != want {
			t.Errorf("lang=%q: Lang %q, want %q", decl, m.Lang, want)
		}
	}
}

// TestInvisibleInFields: a soft hyphen in a headline or a description
// leaves the field.
func TestInvisibleInFields(t *testing.T) {
	page := `<html><head><title>Deutsch&shy;land hilft</title><meta name="description" content="Die Bundes&shy;regierung sagt Hilfe zu."></head>
<body><h1>Deutsch&shy;land hilft</h1><p>Text.</p></body></html>`
	if m := read(t, page, ""); m.Title != "Deutschland hilft" || m.Description != "Die Bundesregierung sagt Hilfe zu." {
		t.Errorf("title %q, description %q", m.Title, m.Description)
	}
}

// TestSecondLevelHeadline: a page without an <h1> is headed by the
// first <h2> that is its structured title's first or last segments
// (a phpBB thread), and the date line below it is its date; an <h2> that
// only shares words with the title, or ends it in the middle of a
// segment, heads nothing.
func TestSecondLevelHeadline(t *testing.T) {
	thread := `<html><head><title>Harbour Forum • View topic - Night ferries to the islands</title></head><body>
<div id="page-body"><h2><a href="./viewtopic.php?t=12">Night ferries to the islands</a></h2>
<p class="author">by <strong>gull_watcher</strong> » Tue Mar 12, 2024 9:14 pm</p>
<div class="content">Does anyone know whether the night ferries run again this summer?</div></div></body></html>`
	m := read(t, thread, "https://forum.example.org/viewtopic.php?t=12")
	if m.Title != "Night ferries to the islands" || m.Published != "2024-03-12" {
		t.Errorf("title %q, published %q", m.Title, m.Published)
	}
	for _, c := range []struct{ name, page string }{
		{"a teaser's heading", `<html><head><title>Classic Percale Core Sheet Set</title></head><body>
<h2>Why Classic Percale?</h2><p>Crisp and cool.</p></body></html>`},
		{"the end of a segment", `<html><head><title>Selling made simple - Better than the rest or good to know</title></head><body>
<h2>Good to know</h2><p>Text.</p></body></html>`},
	} {
		if m := read(t, c.page, ""); m.Title == "Why Classic Percale?" || m.Title == "Good to know" {
			t.Errorf("%s: title %q", c.name, m.Title)
		}
	}
}

// TestTitleKicker: a kicker that opens the headline's element (a topic
// line in an element whose class names it, a <small> set above the
// headline by a <br>, or a shorter element that an element of its own
// parts from the rest with a separator) is no part of the title, nor are
// the separators after it; an element that opens a heading without such a name (a
// product's brand) and a forum thread's prefix label stay.
func TestTitleKicker(t *testing.T) {
	checkTitles(t, []titleCase{
		{"kicker with a hidden colon", ``, `<span class="article-heading__kicker">Harbour works</span><span class="visually-hidden">: </span><span class="article-heading__title">The quay wall is done at last</span>`, "The quay wall is done at last"},
		{"a quotation after the kicker", ``, `<span class="kicker">Löhne</span><span class="visually-hidden">: </span><span>»Gute Löhne reichen nicht«</span>`, "»Gute Löhne reichen nicht«"},
		{"dachzeile", ``, `<span class="dachzeile">Nach dem Sturm</span> <span class="headline">Fähren fahren wieder nach Fahrplan</span>`, "Fähren fahren wieder nach Fahrplan"},
		{"overline and a colon element", ``, `<span class="ts-overline">Tides and storms </span><span class="ts-colon">: </span><span class="ts-headline">How the marsh keeps its birds</span>`, "How the marsh keeps its birds"},
		{"roofline before text", ``, `<span class="header__roofline">Boats</span> Building a dinghy from plywood`, "Building a dinghy from plywood"},
		{"a section with its separator", ``, `<div class="entry-section"><a href="/local-news/">Local News | </a></div> <span class="dfm-title">Dog chases burglars away from the harbour</span>`, "Dog chases burglars away from the harbour"},
		{"a chapter number with its dash", ``, `<span class="autonumber"><span>15 - </span></span>Tutorial: Sweep and Loft`, "Tutorial: Sweep and Loft"},
		{"a date as topline", ``, `<span class="topline">27.01.2022</span>Ferry timetable for the spring season`, "Ferry timetable for the spring season"},
		{"small over a break", ``, `<small>Norway</small><br> New ferry line opens in the fjords`, "New ferry line opens in the fjords"},
		{"a brand link", ``, `<a class="brand-link" href="/brand/acme">Acme</a> <br>Folding Kayak Two Seats`, "Acme Folding Kayak Two Seats"},
		{"a forum prefix label", ``, `<span class="label label--blue">Question</span><span class="label-append">&nbsp;</span>Which paint for a wooden hull?`, "Question Which paint for a wooden hull?"},
		{"one word after the kicker", ``, `<span class="kicker">Boats</span> <span>Dinghies</span>`, "Boats Dinghies"},
		{"small after the headline", ``, `New ferry line opens <small>updated</small>`, "New ferry line opens updated"},
		{"a separator of its own", ``, `<span class="head_a1">Tides and zoonoses</span><span class="head_b2" aria-hidden="true"> – </span><span class="head_c3">How the marsh keeps its wading birds</span>`, "How the marsh keeps its wading birds"},
		{"a separator of its own after the longer part", ``, `<span>Energy, transport and a sustainable harbour economy</span><span> | </span><span>Topic: research</span>`, "Energy, transport and a sustainable harbour economy"},
	})
}

// TestTitleSubtitle: a subtitle that ends the headline's element (its
// class says subtitle, or a <small> below a <br>) is no part of the
// title unless a structured title of the page has it too; a kicker is
// found inside an element the heading wraps whole.
func TestTitleSubtitle(t *testing.T) {
	checkTitles(t, []titleCase{
		{"a subtitle", ``, `<span class="entry-title-primary">The quay wall is done</span> <span class="entry-subtitle">Three years of work on the old harbour</span>`, "The quay wall is done"},
		{"a subtitle the og:title has", `<meta property="og:title" content="The quay wall is done - Three years of work on the old harbour">`, `<span class="entry-title-primary">The quay wall is done</span> <span class="entry-subtitle">Three years of work on the old harbour</span>`, "The quay wall is done - Three years of work on the old harbour"},
		{"a date and categories below a break", ``, `Spectators return to the boathouse<br><small><span class="icon"></span>&nbsp;02.02.2022 • News, Club</small>`, "Spectators return to the boathouse"},
		{"a kicker inside a wrapper", ``, `<span class="post-title" itemprop="headline"><small>Session of the week</small><br>Pyramid of medley laps</span>`, "Pyramid of medley laps"},
		{"a small inline word", ``, `Ferry timetable <small>(spring)</small>`, "Ferry timetable (spring)"},
	})
}

// TestHeadingTail: a heading's short last segment is its own when a
// structured title has it too, and goes as a site's or section's name
// when none has it.
func TestHeadingTail(t *testing.T) {
	checkTitles(t, []titleCase{
		{"the title has the tail", `<title>Dog chases burglars away – witnesses sought | Harbour Press</title>`, `Dog chases burglars away – witnesses sought`, "Dog chases burglars away – witnesses sought"},
		{"no title has the tail", `<title>Rivers in flood after the storm</title>`, `Rivers in flood after the storm - Weather Desk`, "Rivers in flood after the storm"},
	})
}

// titleCase is a page's head, its <h1>'s markup and the title read.
type titleCase struct{ name, head, h1, want string }

// checkTitles reads each case's title on a page with its head, its <h1>
// and a paragraph below.
func checkTitles(t *testing.T, cases []titleCase) {
	t.Helper()
	for _, c := range cases {
		page := `<html><head>` + c.head + `</head><body><h1>` + c.h1 + `</h1><p>The harbour office wrote to every member about it.</p></body></html>`
		if m := read(t, page, ""); m.Title != c.want {
			t.Errorf("%s: title %q, want %q", c.name, m.Title, c.want)
		}
	}
}

// TestSiteNameHeading: an <h1> that is as a whole a link to its own
// site's front page is the site's name in the page header, not the
// headline: the post's own <h1>, or an <h2> that ends the title after
// the site's name, is. An <h2> that opens the title leaves the title to
// the <title>, cut as before; a heading that links elsewhere stays.
func TestSiteNameHeading(t *testing.T) {
	const url = "https://harbournotes.example.org/2020/05/dog/"
	for _, c := range []struct{ name, title, body, want, source string }{
		{"a second <h1>", `Harbour Notes: Dog chases burglars away`,
			`<h1 class="title"> <a href="https://harbournotes.example.org/"> Harbour Notes </a> </h1><h1>Dog chases burglars away</h1>`,
			"Dog chases burglars away", SourceHeadline},
		{"an <h2> that ends the title", `Harbour Notes » Blog Archive » Dog chases burglars away`,
			`<h1><a href="/">Harbour Notes</a></h1><h2>Signs of the Coast</h2><h2 class="posttitle"><a href="/2020/05/dog/">Dog chases burglars away</a></h2>`,
			"Dog chases burglars away", SourceHeadline},
		{"an <h2> that opens the title", `Dog chases burglars away | Harbour Notes`,
			`<h1><a href="http://www.harbournotes.example.org">Harbour Notes</a></h1><h2>Dog chases burglars away - Harbour Notes</h2>`,
			"Dog chases burglars away", SourceTitleTag},
		{"a scheme-relative link", `Harbour Notes: Dog chases burglars away`,
			`<h1><a href="//harbournotes.example.org/">Harbour Notes</a></h1><h1>Dog chases burglars away</h1>`,
			"Dog chases burglars away", SourceHeadline},
		{"a link to another site", `Harbour Notes: Dog chases burglars away`,
			`<h1><a href="https://dogs.example.net/">Dog chases burglars away</a></h1>`,
			"Dog chases burglars away", SourceHeadline},
		{"a link to the post", `Dog chases burglars away | Harbour Notes`,
			`<h1><a href="/2020/05/dog/">Dog chases burglars away</a></h1>`,
			"Dog chases burglars away", SourceHeadline},
	} {
		page := `<html><head><title>` + c.title + `</title></head><body>` + c.body + `<p>The harbour office wrote to every member about it.</p></body></html>`
		m := read(t, page, url)
		if m.Title != c.want || m.Sources["title"] != c.source {
			t.Errorf("%s: title %q from %q, want %q from %q", c.name, m.Title, m.Sources["title"], c.want, c.source)
		}
	}
}

// TestSiteLikeHeading: an <h1> that is the site's name without its
// domain ending ("Harbour" on a site that calls itself "Harbour.de"), or
// one that ends with a colon, agrees with a <title> only through the
// site's name in it: it is passed over for the headline's <h1> (the
// case's markup closes the first <h1> and opens a second).
func TestSiteLikeHeading(t *testing.T) {
	checkTitles(t, []titleCase{
		{"site name without its ending", `<meta property="og:site_name" content="Harbour.de"><title>Coastal Travel Guide — Harbour</title>`,
			`Harbour</h1><h1>Coastal Travel Guide`, "Coastal Travel Guide"},
		{"a heading that leads in", `<title>The Fold-and-Cut Problem (Ann Lee)</title>`,
			`<a href="../">Ann Lee</a>'s Folding and Unfolding:</h1><h1>The Fold-and-Cut Problem`, "The Fold-and-Cut Problem"},
	})
}

func TestHeadlineDateLine(t *testing.T) {
	body := `<p>` + strings.Repeat("A coal wagon left the rails near the station. ", 12) + `</p>`
	header := `<p>Wed, 10.04.2025 10:29</p>` // the day the page was saved, in the site's header
	for _, c := range []struct{ name, page, title, want string }{
		{"a date line ends the headline", header + `<h1>Wagon leaves the rails&nbsp;<span> 06.01.25&nbsp;08:49</span></h1>` + body,
			"Wagon leaves the rails", "2025-01-06"},
		{"after a subtitle", header + `<h1>Wagon leaves the rails<br><small>No one was hurt</small>&nbsp;<span>6 January 2025, 08:49</span></h1>` + body,
			"Wagon leaves the rails", "2025-01-06"},
		{"a headline that is a date", `<h1>The <span>6 January 2025</span></h1>` + body, "The 6 January 2025", ""},
		{"a number is no date line", `<h1>Top apps of <span>2025</span></h1>` + body, "Top apps of 2025", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := read(t, `<html><body>`+c.page+`</body></html>`, "")
			if m.Title != c.title {
				t.Errorf("title %q, want %q", m.Title, c.title)
			}
			if c.want != "" && m.Published != c.want {
				t.Errorf("published %q from %q, want %q", m.Published, m.Sources["published"], c.want)
			}
		})
	}
}

func TestNearestDateAboveHeadline(t *testing.T) {
	var list strings.Builder
	for i := range 40 { // more <time>s than a page used to keep
		fmt.Fprintf(&list, `<li><a href="/n/%d">Other news %d</a> <time datetime="2025-04-%02dT10:00:00">10:00</time></li>`, i, i, 1+i%28)
	}
	page := `<html><body><ul class="latest">` + list.String() + `</ul><article><header>` +
		`<time class="article-time" datetime="2025-01-06T08:39:00">6 January 2025</time>` +
		`<h1>Kuznetsov named the most valuable player</h1></header><p>` +
		strings.Repeat("The forward scored thirteen points in seven games. ", 12) + `</p></article></body></html>`
	if m := read(t, page, ""); m.Published != "2025-01-06" {
		t.Errorf("published %q from %q, want 2025-01-06", m.Published, m.Sources["published"])
	}
}

func TestHeadingTrailers(t *testing.T) {
	body := `<p>` + strings.Repeat("The astrologer wrote a book about men and marriage. ", 12) + `</p>`
	for _, c := range []struct{ name, page, want string }{
		{"a count of comments", `<h1>Astrology tells who divorces<a class="count-comments-link" href="#comment">Comments:&nbsp;<span>12</span></a></h1>`,
			"Astrology tells who divorces"},
		{"a link to the comments", `<h1><span>Grads find no jobs</span> <span><a href="/story/1#comments">87</a></span></h1>`, "Grads find no jobs"},
		{"an aggregator's source note", `<h1><span><a href="/story/1">Grads find no jobs</a> <a class="story-sourcelnk" href="https://news.example/1"> (latimes.com) </a></span></h1>`,
			"Grads find no jobs"},
		{"words in brackets stay", `<h1>Grads find no jobs (in 2025)</h1>`, "Grads find no jobs (in 2025)"},
		{"a number that is no count", `<h1>Top apps of <span class="year">2025</span></h1>`, "Top apps of 2025"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, `<html><body>`+c.page+body+`</body></html>`, ""); m.Title != c.want {
				t.Errorf("title %q, want %q", m.Title, c.want)
			}
		})
	}
}

func TestJoinedDate(t *testing.T) {
	body := `<p>` + strings.Repeat("The gearbox makes a grinding noise when cold, and the oil was changed last week. ", 8) + `</p>`
	for _, c := range []struct{ name, page, want string }{
		{"a profile box's class", `<h1>Gearbox noise when cold</h1><div class="userinfo"><a href="/u/7">ann</a><div class="joindate">09 Mar 2009</div></div>` +
			`<span class="postdate">05 May 2020</span>` + body, "2020-05-05"},
		{"a label in the line", `<h1>Gearbox noise when cold</h1><div class="userinfo">Posts: 112 · Joined: 09 March 2009</div>` +
			`<p>ann wrote on 05 May 2020:</p>` + body, "2020-05-05"},
		{"a date element that opens with the label", `<h1>Gearbox noise when cold</h1><span class="date">Joined: 09 Mar 2009</span>` +
			`<span class="postdate">05 May 2020</span>` + body, "2020-05-05"},
		{"a label in the text before", `<h1>Gearbox noise when cold</h1><dl><dt>Registered</dt><dd>09 Mar 2009</dd></dl>` +
			`<p>ann wrote on 05 May 2020:</p>` + body, "2020-05-05"},
		{"a blog's sidebar in the text", `<div id="content"><p>Blog名:洞庭一叶 日志:279 评论:587 建立于:2004年10月6日</p>` +
			`<p>` + strings.Repeat("长梦千年何日醒，睡乡谁遣警钟鸣？腥风血雨难为我，好个江山忍送人！", 6) + `</p><p>发表于 2005年9月15日</p></div>`, "2005-09-15"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m := read(t, `<html><body>`+c.page+`</body></html>`, ""); m.Published != c.want {
				t.Errorf("published %q from %q, want %q", m.Published, m.Sources["published"], c.want)
			}
		})
	}
}
