package metadata

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"
)

func TestCleanAuthorsCJK(t *testing.T) {
	for in, want := range map[string][]string{
		"作者：李明":   {"李明"},
		"[作者：李妍]": {"李妍"},
		"作者：记者 武彩霞　　来源：经济参考网": {"武彩霞"},
		"本报记者 于涛":     {"于涛"},
		"本报记者王小红":     {"王小红"},
		"记者 王小红 发自北京": {"王小红"},
		"作者：李明、王红":    {"李明", "王红"},
		// names after a space: only written as Chinese names, and not
		// before more text
		"作者：宋怡 杨志华":                {"宋怡", "杨志华"},
		"作者：欧阳修 司马光":               {"欧阳修", "司马光"},
		"执笔人：闵乐夫 赵兰波 刘韬":           {"闵乐夫", "赵兰波", "刘韬"},
		"撰稿：李明":                    {"李明"},
		"作者：李明 北京报道":               {"李明"},
		"作者：李明 阅读次数":               {"李明"},
		"作者：李明 更新时间：2005-03-01":    {"李明"},
		"作者：李明 王红说公园很大":            {"李明"},
		"著者：山田 太郎":                 {"山田"},
		"作者：凱倫．伯格":                 {"凱倫．伯格"},
		"著者：山田太郎":                  {"山田太郎"},
		"作者：佚名":                    nil,
		"作者：新华网":                   nil,
		"作者：《财经》综合报道":              nil,
		"作者：PConline":              {"PConline"},
		"李文蕊":                      {"李文蕊"}, // a meta author is taken as it is
		"股城网, 订票电话加价, gucheng.com": nil,
		"财讯网_提供股票, 基金, 期货与外汇市场的金融资讯":                                    nil,
		"РИА PrimaMedia, Приморье, Дальний Восток http://primamedia.ru": nil,
		"Web architecture: Volkova Dasha, Design: Maxim Tkachuk":        nil,
		"AccountingDepartment.com": {"AccountingDepartment.com"},
	} {
		if got := cleanAuthors([]string{in}); !slices.Equal(got, want) {
			t.Errorf("cleanAuthors(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCJKByline reads labelled Chinese and Japanese bylines from the
// page, and leaves an unlabelled line of ideographs alone.
func TestCJKByline(t *testing.T) {
	body := `<p>本周六，北京一座占地二十多公顷的新公园正式对外开放。公园内种植了数千棵树木，并建设了多个儿童游乐场和成人运动场地。据主办方介绍，该公园将成为城市中最大的公园之一。</p>`
	for line, want := range map[string][]string{
		`<div class="author">作者：李明</div>`: {"李明"},
		`<p>作者：李明</p>`:                    {"李明"},
		`<p>[作者：李妍]</p>`:                  {"李妍"},
		`<p>本报记者 于涛</p>`:                  {"于涛"},
		`<div class="info">作者：李明　来源：新华网　2021-03-12</div>`:                {"李明"},
		`<p class="author">著者：山田太郎</p>`:                                  {"山田太郎"},
		`<td>时间：2004年10月21日14:18 作者：郭励弘</td>`:                            {"郭励弘"},
		`<td>02日14:25 <!--date-->作者： <!--author-->赵婕 出自人民文学出版社</td>`:     {"赵婕"},
		`<div><em>作者：</em><a href="/u/1">孙伟</a> <em>责任编辑：</em>魏景芳</div>`: {"孙伟"},
		`<span class="info">作者: <a href="/m/">手机版</a></span>`:            nil,
		`<div><span>作者：</span></div><div><p>李明</p></div>`:                nil,
		`<p>这位作者：写得很好，公园内种植了数千棵树木，并建设了多个儿童游乐场和成人运动场地，据主办方介绍，该公园将成为城市中最大的公园之一。</p>`: nil,
		`<div class="author">关注</div>`: nil,
		`<div class="author">李明</div>`: nil,
		`<p>记者会上，发言人表示</p>`:            nil,
		// an item's author in a box after the article: a book's, under its <h3>
		`<h3>話語操縱術</h3><div class="author">作者：凱倫．伯格</div>`: nil,
	} {
		m := read(t, `<html><head><meta charset="utf-8"><title>北京新公园开放</title></head><body><article><h1>北京新公园开放</h1>`+
			line+body+`</article></body></html>`, "")
		if !slices.Equal(m.Authors, want) {
			t.Errorf("%s: authors %q, want %q", line, m.Authors, want)
		}
	}
}

// TestReporterCredit reads the reporters a Chinese news text credits in
// brackets or on a line of their own that names the newsroom.
func TestReporterCredit(t *testing.T) {
	para := `<p>本周六，北京一座占地二十多公顷的新公园正式对外开放。公园内种植了数千棵树木，并建设了多个儿童游乐场和成人运动场地。</p>`
	for line, want := range map[string][]string{
		`<p>据新华社北京电（记者 胡晓蓉）公园内种植了数千棵树木。</p>`:          {"胡晓蓉"},
		`<p>公园将成为城市中最大的公园之一。（总台记者 王建宏 张文攀）</p>`:       {"王建宏", "张文攀"},
		`<p>本报讯(记者 柳德新 通讯员 彭娟)公园正式对外开放。</p>`:          {"柳德新", "彭娟"},
		`<p>光明日报记者 王建宏 张文攀 土豆，听名字就土得掉渣。</p>`:          {"王建宏", "张文攀"},
		`<p>新京报记者 彭冲 北京报道</p>`:                        {"彭冲"},
		`<p>河南商报记者马俊峰/文</p>`:                          {"马俊峰"},
		`<p>□ 本报记者 葛灵丹</p>`:                           {"葛灵丹"},
		"<p>新华网黑龙江频道&nbsp; 记者&nbsp; 伊琳&nbsp; 李清芬</p>": {"伊琳", "李清芬"},
		`<p>公园开放当天（人民网记者 王泓漓 摄）</p>`:                  nil, // a photographer
		`<p><a href="/zt/">新华社记者看东北</a></p>`:          nil, // a headline
		`<p>他告诉记者 公园很大</p>`:                           nil,
		`<p>公园将成为城市中最大的公园之一。（记者会上，发言人表示欢迎）</p>`:       nil,
	} {
		m := read(t, `<html><head><meta charset="utf-8"><title>北京新公园开放</title></head><body><article><h1>北京新公园开放</h1>`+
			para+line+`</article></body></html>`, "")
		if !slices.Equal(m.Authors, want) {
			t.Errorf("%s: authors %q, want %q", line, m.Authors, want)
		}
	}
	// A meta author that names only the publisher yields to the reporter.
	m := read(t, `<html><head><meta charset="utf-8"><meta name="author" content="云南日报报业集团, 云南网"><title>北京新公园开放</title></head>`+
		`<body><article><h1>北京新公园开放</h1>`+para+`<p>公园正式开放。（记者 胡晓蓉）</p></article></body></html>`, "")
	if !slices.Equal(m.Authors, []string{"胡晓蓉"}) {
		t.Errorf("authors %q, want the reporter over the publisher", m.Authors)
	}
	m = read(t, `<html><head><meta charset="utf-8"><meta name="author" content="云南网"><title>北京新公园开放</title></head>`+
		`<body><article><h1>北京新公园开放</h1>`+para+`</article></body></html>`, "")
	if !slices.Equal(m.Authors, []string{"云南网"}) {
		t.Errorf("authors %q, want the publisher when no person is named", m.Authors)
	}
}

// TestEditorCredit reads a Chinese page's editor's credit as its author
// when nothing names a writer, and only then.
func TestEditorCredit(t *testing.T) {
	para := `<p>本周六，北京一座占地二十多公顷的新公园正式对外开放。公园内种植了数千棵树木，并建设了多个儿童游乐场和成人运动场地。</p>`
	for line, want := range map[string][]string{
		`<p>（ 责任编辑：魏喆 ）</p>`:                       {"魏喆"},
		`<p>来源：巴彦淖尔日报 &ensp;&ensp;编辑：苏亮</p>`:       {"苏亮"},
		`<p>[責任編輯：楊玲]</p>`:                         {"楊玲"},
		`<p>(责编： 山水)</p>`:                          {"山水"},
		`<p>来源：中国日报网 编辑：北风、金硕</p>`:                 {"北风", "金硕"},
		`<p>（记者 胡晓蓉）公园开放。</p><p>责任编辑：魏喆</p>`:       {"胡晓蓉"}, // the writer first
		`<p>总编辑：魏喆</p>`:                            nil,     // the editor-in-chief of the site
		`<p>网站编辑部</p>`:                             nil,
		`<p>编辑：</p>`:                               nil,
		`<p>责任编辑：Alice</p>`:                        nil, // no name of ideographs
		`<div class="comments"><p>编辑：魏喆</p></div>`: nil,
	} {
		m := read(t, `<html><head><meta charset="utf-8"><title>北京新公园开放</title></head><body><article><h1>北京新公园开放</h1>`+
			para+line+`</article></body></html>`, "")
		if !slices.Equal(m.Authors, want) {
			t.Errorf("%s: authors %q, want %q", line, m.Authors, want)
		}
	}
}

// TestClosingCredit reads the writers a Chinese news item credits in
// brackets at the end of its text, before its editor and only when no
// byline names anyone.
func TestClosingCredit(t *testing.T) {
	for closing, want := range map[string][]string{
		"公园正式对外开放。\n过一个平安、祥和的新春佳节。（常书香 马丹阳 ）": {"常书香", "马丹阳"},
		"公园正式对外开放。（姚峰 上海报道）\n相关新闻":            {"姚峰"},
		"公园正式对外开放。(王霄 发自上海)":                  {"王霄"},
		"公园正式对外开放。（李明、王红）":                    {"李明", "王红"},
		"公园正式对外开放。（资料图）":                      nil, // "file photo"
		"公园正式对外开放。（北京大学）":                     nil,
		"公园正式对外开放。（上海报道）":                     nil, // a dateline alone
		"（李明）\n公园正式对外开放。\n公园很大。":              nil, // not at the end
		"Der Park ist offen (Anna Schmidt)":   nil,
	} {
		if got := closingCredit(closing); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", closing, got, want)
		}
	}
	page := func(line string) string {
		return `<html><head><meta charset="utf-8"><title>北京新公园开放</title></head><body><article><h1>北京新公园开放</h1>` +
			`<p>本周六，北京一座新公园正式对外开放。</p>` + line + `</article></body></html>`
	}
	for line, want := range map[string][]string{
		`<p>责任编辑：魏喆</p>`:       {"常书香"},
		`<p>（记者 胡晓蓉）公园开放。</p>`: {"胡晓蓉"},
	} {
		doc, err := html.Parse(strings.NewReader(page(line)))
		if err != nil {
			t.Fatal(err)
		}
		m := Read(doc, Input{Closing: "新春佳节。（常书香）"}, Options{Now: testNow})
		if !slices.Equal(m.Authors, want) {
			t.Errorf("%s: authors %q, want %q", line, m.Authors, want)
		}
	}
}

// TestDateLineNamesAuthor reads the author a date line names first.
func TestDateLineNamesAuthor(t *testing.T) {
	m := read(t, `<html lang="de"><body><article><h1>Neue Studie zur Energiewende</h1>`+
		`<div class="meta">Von Anna Schmidt | 12. März 2021</div>`+
		`<p>Die Energiewende in Deutschland kommt voran, aber nicht schnell genug.</p></article></body></html>`, "")
	if !slices.Equal(m.Authors, []string{"Anna Schmidt"}) || m.Published != "2021-03-12" {
		t.Errorf("authors %q, published %q; want Anna Schmidt, 2021-03-12", m.Authors, m.Published)
	}
}

// TestDateLineAuthorLast: a byline a class names wins over the author a
// date line names, which may run on into the line's other fields.
func TestDateLineAuthorLast(t *testing.T) {
	m := read(t, `<html><body><article><h1>Flächenverbrauch für Fleisch</h1><ul class="meta-list">`+
		`<li class="meta author"><span>von <a href="/author/cs">Christoph Schulz</a></span></li>`+
		`<li class="meta category"><a href="/blog">Blog</a>, <a href="/vegan">Vegan</a></li></ul>`+
		`<p>Ein Text über die Flächen, die für Futter gebraucht werden.</p></article></body></html>`, "")
	if !slices.Equal(m.Authors, []string{"Christoph Schulz"}) {
		t.Errorf("authors %q, want Christoph Schulz", m.Authors)
	}
}

// TestBylinesManyLanguages reads a byline and a date line under the
// headline of an article in each of 22 languages. Arabic names have no
// capitals to tell them from other words: that line gives no name.
// (Indonesian "Oleh Budi Santoso" is left out: "Oleh" is also a first
// name, and the byline is kept whole.)
func TestBylinesManyLanguages(t *testing.T) {
	body := `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>`
	for _, c := range []struct{ lang, date, byline, want string }{
		{"it", "12 marzo 2021", "di Mario Rossi", "Mario Rossi"},
		{"pt", "12 de março de 2021", "Por João Silva", "João Silva"},
		{"pl", "12 marca 2021", "Autor: Jan Kowalski", "Jan Kowalski"},
		{"cs", "12. března 2021", "Autor: Jan Novák", "Jan Novák"},
		{"tr", "12 Mart 2021", "Yazar: Ahmet Yılmaz", "Ahmet Yılmaz"},
		{"nl", "12 maart 2021", "Door Jan de Vries", "Jan de Vries"},
		{"ko", "2021년 3월 12일", "홍길동 기자", "홍길동"},
		{"ko", "2021.03.12 10:30", "기자 김철수", "김철수"},
		{"ja", "2021年3月12日", "文：山田太郎", "山田太郎"},
		{"sv", "12 mars 2021", "Av Anna Svensson", "Anna Svensson"},
		{"da", "12. marts 2021", "Af Lars Jensen", "Lars Jensen"},
		{"fi", "12. maaliskuuta 2021", "Teksti: Matti Virtanen", "Matti Virtanen"},
		{"hu", "2021. március 12.", "Szerző: Kovács János", "Kovács János"},
		{"ro", "12 martie 2021", "de Ion Popescu", "Ion Popescu"},
		{"uk", "12 березня 2021", "Автор: Іван Петренко", "Іван Петренко"},
		{"el", "12 Μαρτίου 2021", "Του Γιώργου Παπαδόπουλου", "Γιώργου Παπαδόπουλου"},
		{"vi", "12/03/2021", "Tác giả: Nguyễn Văn An", "Nguyễn Văn An"},
		{"ar", "12 مارس 2021", "بقلم أحمد علي", ""},
		{"es", "Publicado el 12 de marzo de 2021", "Por Ana López", "Ana López"},
		{"fr", "Publié le 12 mars 2021 à 10h30", "Par Marie Dupont", "Marie Dupont"},
		{"de", "Veröffentlicht am 12.03.2021", "Von Anna Schmidt", "Anna Schmidt"},
		{"ru", "12.03.2021, 10:30", "Автор: Иван Петров", "Иван Петров"},
	} {
		m := read(t, `<html lang="`+c.lang+`"><head><meta charset="utf-8"><title>Headline</title></head><body><article><h1>Headline</h1>`+
			`<div class="byline">`+c.byline+`</div><div class="date">`+c.date+`</div>`+body+`</article></body></html>`, "")
		var want []string
		if c.want != "" {
			want = []string{c.want}
		}
		if !slices.Equal(m.Authors, want) || m.Published != "2021-03-12" {
			t.Errorf("%s: authors %q, published %q; want %q, 2021-03-12", c.lang, m.Authors, m.Published, want)
		}
	}
}

// TestBylineInnermostName reads the name from the innermost element
// whose class says name: a name container holds the job title too.
func TestBylineInnermostName(t *testing.T) {
	m := read(t, `<html><body><article><h1>Smart home hubs</h1><div class="byline-author"><div class="nameContainer">`+
		`<p class="name">Harry Rabinowitz</p><p class="jobTitle">Tech Reporter</p></div></div>`+
		`<p>A review of the hubs that tie a smart home together.</p></article></body></html>`, "")
	if !slices.Equal(m.Authors, []string{"Harry Rabinowitz"}) {
		t.Errorf("authors %q, want Harry Rabinowitz", m.Authors)
	}
}

// TestCitationAuthors takes every author of a scholarly page's citation
// tags when its other tags name only the first.
func TestCitationAuthors(t *testing.T) {
	m := read(t, `<html><head><meta name="DC.Creator" content="Jennifer Huberty">`+
		`<meta name="citation_authors" content="Jennifer Huberty"><meta name="citation_authors" content="Jeni Green">`+
		`<meta name="citation_authors" content="Chong Lee"></head><body><article><h1>A study</h1><p>Its abstract.</p></article></body></html>`, "")
	if want := []string{"Jennifer Huberty", "Jeni Green", "Chong Lee"}; !slices.Equal(m.Authors, want) {
		t.Errorf("authors %q, want %q", m.Authors, want)
	}
	if got := cleanAuthors([]string{"undefined"}); got != nil {
		t.Errorf("cleanAuthors(undefined) = %q", got)
	}
}

// FuzzChineseCredits: the editor's credit and the closing credit read
// any text without failing, and every name they give stands in the text
// and is written as a Chinese name.
func FuzzChineseCredits(f *testing.F) {
	for _, s := range []string{"（ 责任编辑：魏喆 ）", "来源：中国日报网 编辑：北风、金硕", "总编辑：魏喆",
		"…新春佳节。（常书香 马丹阳 ）", "（姚峰 上海报道）\n相关新闻", "(王霄 发自上海)", "（）", "编辑：", "（\xff）"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, names := range [][]string{editorCredit(s), closingCredit(s)} {
			for _, n := range names {
				if !strings.Contains(s, n) || !isCJKName(n) {
					t.Fatalf("%q gave %q", s, n)
				}
			}
		}
	})
}

// TestHanOrKanaFirstByte: every ideograph and kana that hanOrKana knows
// is written with a first byte mayHaveHanOrKana looks for.
func TestHanOrKanaFirstByte(t *testing.T) {
	for _, tab := range []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana} {
		for _, r16 := range tab.R16 {
			for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
				if !mayHaveHanOrKana(string(r)) {
					t.Fatalf("%U: first byte %#x", r, string(r)[0])
				}
			}
		}
		for _, r32 := range tab.R32 {
			for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
				if !mayHaveHanOrKana(string(r)) {
					t.Fatalf("%U: first byte %#x", r, string(r)[0])
				}
			}
		}
	}
	if mayHaveHanOrKana("Von Anna Weber, naïve café — “quoted”") {
		t.Error("a Latin byline with punctuation may have ideographs")
	}
}
