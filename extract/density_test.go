package extract

import (
	"fmt"
	"strings"
	"testing"
)

func TestTitleMatchProductPages(t *testing.T) {
	for _, c := range []struct {
		heading, title string
		min, max       float64
	}{
		{"lydia's charm", "lydia's charm: wanda e. brunstetter: 9781602600638: christianbook.com", 0.8, 0.8},
		{"infinity : chronicles of nick (hardcover)", "infinity by sherrilyn kenyon (hardcover): booksamillion.com", 0.3, 0.3},
		{"whiplash (hardcover)", "whiplash by catherine coulter (hardcover): booksamillion.com", 0.3, 0.5},
		{"e", "e-mail etiquette for beginners", 0, 0.1},
		{"sports", "the olympic games: sports and politics", 0, 0.29},
	} {
		if got := titleMatch(c.heading, c.title); got < c.min || got > c.max {
			t.Errorf("titleMatch(%q, %q) = %.2f, want %.2f..%.2f", c.heading, c.title, got, c.min, c.max)
		}
	}
}

func TestAuthorLine(t *testing.T) {
	for s, want := range map[string]bool{
		"by Fern Michaels":           true,
		"By: Craig Groeschel":        true,
		"Edited By: Carrie Turansky": true,
		"bypass the city":            false,
		"by 2020 the plan":           false,
		"Buy now":                    false,
	} {
		if got := authorLine(s); got != want {
			t.Errorf("authorLine(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestOverruleNames: a page whose story sits in a container named like a
// slideshow keeps the story, since nothing else on the page is text, and
// so does a page whose sections each carry a name of navigation (alike
// siblings share the weight), or sections after the headline named as
// headers that hold a paragraph, or whose id is their heading's slug
// ("share" in "how-to-share-a-photo"), or, however short the slug, whose
// alike siblings have ids too ("s-commentary" between "s-setup" and
// "s-support"); a comment section keeps its name however long it is, and
// a comment section named by its heading with one sibling keeps it.
func TestOverruleNames(t *testing.T) {
	story := strings.Repeat("<p>The new phone is smaller than last year's, and it costs less, which will please many buyers this spring.</p>", 6)
	comments := strings.Repeat("<p>I bought one last week, and honestly the battery is far better than I expected from such a small phone.</p>", 12)
	for _, c := range []struct {
		name, page string
		keep       bool
		marker     string // the text that shows the named part kept, when not the story's
	}{
		{"slideshow", `<html><body><nav><a href="/">Home</a> <a href="/tech">Tech</a></nav><main><section><h1>The new phone</h1><p>By A. Writer, in Tech.</p><section id="slideshow">` + story + `</section></section></main><footer><a href="/about">About us</a></footer></body></html>`, true, ""},
		{"sections named for the navigation", `<html><body><nav><a href="/">Home</a> <a href="/tech">Tech</a></nav><main><h1>The new phone</h1><div>` +
			strings.Repeat(`<div class="spec_section page_navTarget"><h2>Battery</h2>`+story[:len(story)/3]+`</div>`, 4) + `</div></main></body></html>`, true, ""},
		{"section heads named header", `<html><body><header class="site-header"><a href="/">Home</a> <a href="/tech">Tech</a></header><main><h1>The new phone</h1><p>By A. Writer, in Tech.</p>` +
			story[:len(story)/2] + `<section class="headerWrapper"><h2>Power</h2><p>It lasts two full days of ordinary use, and it charges from empty to full in less than an hour with the cable and the small plug that come in the box with the phone.</p></section>` + story[:len(story)/2] + `</main></body></html>`, true, "two full days"},
		{"sections anchored by their heading's slug", `<html><body><main><h1>The new phone</h1>` + story[:len(story)/2] + `<section id="how-to-share-a-photo-section"><h2 id="how-to-share-a-photo">How to share a photo</h2><p>Open the photo, press the arrow at the top of the screen, and choose the friend who should see it.</p></section>` + story[:len(story)/2] + `</main></body></html>`, true, "press the arrow"},
		{"a short slug among anchored sections", `<html><body><main><h1>The new phone</h1>` + story[:len(story)/2] + `<section id="s-setup"><h2>Setup</h2><p>Charge it first.</p></section><section id="s-commentary"><h2>Commentary</h2><p>Reviewers liked the weight, which is lower than that of any phone of its size, and the screen.</p></section><section id="s-support"><h2>Support</h2><p>Ask the shop.</p></section>` + story[:len(story)/2] + `</main></body></html>`, true, "Reviewers liked"},
		{"a comment section named by its heading, alone", `<html><body><main><h1>The new phone</h1>` + story + `<section id="more"><h2>More</h2><p>Other phones.</p></section><section id="comments"><h2>Comments</h2><p>Reviewers liked the weight, which is lower than that of any phone of its size, and the screen.</p></section></main></body></html>`, false, "Reviewers liked"},
		{"comments", `<html><body><article><h1>Phone</h1><p>Short news: the phone is out, and it is small.</p></article><div class="comments">` + comments + `</div></body></html>`, false, ""},
	} {
		p, err := Extract([]byte(c.page), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(p.Text(), "battery") || strings.Contains(p.Text(), "costs less")
		if c.marker != "" {
			got = strings.Contains(p.Text(), c.marker)
		}
		if got != c.keep {
			t.Errorf("%s: kept %v, want %v; text %q", c.name, got, c.keep, p.Text())
		}
	}
}

// TestBuilderNames: Elementor calls every element a widget, so its widget
// names say nothing; its other words still do.
func TestBuilderNames(t *testing.T) {
	checkNegNames(t, map[string]string{
		"elementor-widget-theme-post-content": "",
		"elementor-widget-container":          "",
		"elementor-widget-nav-menu":           "menu",
		"sidebar-widget":                      "sidebar",
		"widget-area":                         "widget",
	})
}

// checkNegNames checks the boilerplate word judgeName finds in each name
// ("" for none).
func checkNegNames(t *testing.T, want map[string]string) {
	t.Helper()
	for name, neg := range want {
		if got := judgeName(name, false).neg; got != neg {
			t.Errorf("judgeName(%q).neg = %q, want %q", name, got, neg)
		}
	}
}

// TestModuleHash: the hash CSS Modules append to a class name is no word
// of it, whatever letters it spells; a BEM element is.
func TestModuleHash(t *testing.T) {
	checkNegNames(t, map[string]string{
		"mdx-table_root__adKqa":              "",
		"base-layout_root___qiZs":            "",
		"page_navBar__x7Yq2":                 "nav",
		"article__share":                     "share",
		"comments_list__a1B2c":               "comment",
		"sidebar-sidecar-layout_main__0SN51": "sidebar",
	})
}

// TestStampLink: permalinks of posts are numbers and dates, headlines are
// words (even with a number in them).
func TestStampLink(t *testing.T) {
	for s, want := range map[string]bool{
		"#2 · Mar 21, 2025":                  true,
		"12.03.2021 14:05":                   true,
		"#15":                                true,
		"5 things to know about 2025":        false,
		"Council votes to keep the ferry":    false,
		"Reply":                              false,
		"2024 Toyota Highlander LE AWD":      false,
		"Posted on 3 March 2024 at 10:15 am": false,
	} {
		if got := stampLink(s); got != want {
			t.Errorf("stampLink(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestCardCaption: an element named a caption that holds a heading is a
// card's text (a shop's "product-caption" over its name and summary), not
// a picture's caption, while a heading that is itself named a caption
// stays one; a CMS's taxonomy term on an item ("product_tag-...") names
// no tag list.
func TestCardCaption(t *testing.T) {
	card := `<li class="product product_tag-garden-tools product_cat-outdoor"><a href="/p/%d"><img src="/i.jpg"></a><div class="product-caption"><h3><a href="/p/%d">Garden spade %d</a></h3><p>A strong spade of forged steel, for heavy clay soil.</p></div></li>`
	var cards strings.Builder
	for i := range 6 {
		fmt.Fprintf(&cards, card, i, i, i)
	}
	page := `<html><body><main><h1>Garden tools</h1><ul class="products">` + cards.String() +
		`</ul><figure><img src="/b.jpg"><h2 class="figure__caption">The shop at night. Photo: A. Painter</h2></figure></main></body></html>`
	p, err := Extract([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, b := range p.Blocks {
		switch {
		case strings.HasPrefix(b.Text, "Garden spade"), strings.HasPrefix(b.Text, "A strong spade"):
			seen++
			if b.hint < 0 {
				t.Errorf("%q carries the boilerplate name %s", b.Text, b.hintRule)
			}
		case strings.HasPrefix(b.Text, "The shop at night"):
			seen++
			if b.hintRule != "class~caption" {
				t.Errorf("the picture's caption is named %q, want class~caption", b.hintRule)
			}
		}
	}
	if seen != 13 {
		t.Errorf("saw %d of the 13 blocks", seen)
	}
	for name, term := range map[string]bool{
		"product_tag-4wd-accessories": true,
		"product_cat-outdoor-gear":    true,
		"tag-cloud":                   false,
		"post_tags":                   false,
	} {
		if got := termName(name); got != term {
			t.Errorf("termName(%q) = %v, want %v", name, got, term)
		}
	}
}

// TestPostsInForm: a forum page that wraps its replies in a form (moderators'
// check boxes) keeps the posts; a form of its own inputs in the region
// (a reply box) stays out.
func TestPostsInForm(t *testing.T) {
	var posts strings.Builder
	for i := range 4 {
		fmt.Fprintf(&posts, `<article class="post"><div class="author">user%d</div><div class="body"><p>I had the same case for a year, and reply number %d says the rear fan header is for the lights, which the manual never explains at all.</p></div><input type="checkbox" name="sel%d"></article>`, i, i, i)
	}
	page := `<html><body><nav><a href="/">Forums</a> <a href="/new">New</a></nav><main><h1>New case</h1><article class="post"><div class="author">starter</div><div class="body"><p>The new case has two fan headers, one at the back and one at the bottom, and I cannot tell what either is for. Has anyone found out what they do?</p></div></article><form action="/moderate" method="post">` + posts.String() +
		`</form><form action="/reply" method="post"><p>Reply to this topic, and keep it friendly please.</p><textarea></textarea><button>Submit reply</button></form></main></body></html>`
	text := classifyAs(t, page, Options{}, TypeForum, 0).Text()
	if !strings.Contains(text, "reply number 3 says") {
		t.Errorf("the posts in the form are lost: %q", text)
	}
	if strings.Contains(text, "keep it friendly") {
		t.Errorf("the reply form is kept: %q", text)
	}
}

// TestCodeLines: a line of preformatted code in the region is the page's
// own, whatever its container is named (an API reference's "aside"
// column of request and response examples) and however much it looks
// like a date ("exp_year": 2024,); prose in the same column still goes.
func TestCodeLines(t *testing.T) {
	prose := strings.Repeat("<p>The charge object represents one attempt to move money into your account, and the fields below describe it in full detail.</p>", 6)
	page := `<html><body><nav><a href="/">Docs</a> <a href="/api">API</a></nav><main><article><h1>The charge object</h1>` + prose +
		`<div class="ApiSection-Aside"><p>Share this page with your team on the chat of your choice.</p>` +
		`<pre><div>curl https://api.example.com/v1/charges/ch_123 -u sk_test_key</div><div>  "exp_year": 2024,</div></pre></div></article></main>` +
		`<footer><a href="/about">About us</a></footer></body></html>`
	p, err := Extract([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Text()
	for _, want := range []string{"curl https://api.example.com", `"exp_year": 2024`} {
		if !strings.Contains(text, want) {
			t.Errorf("code line %q dropped; text %q", want, text)
		}
	}
	if strings.Contains(text, "Share this page") {
		t.Errorf("prose under the aside name kept; text %q", text)
	}
}

// TestRoundupEntries: the entries of a roundup article, each a name, a
// paragraph of its own and a call to action after it ("Book Now"), are
// the article, not teasers of other pages; a short "read more" unit
// after an article stays a teaser.
func TestRoundupEntries(t *testing.T) {
	var entries strings.Builder
	for i, name := range []string{"Sixty Three", "Soda Club", "Tanoreen", "Thai Diner", "Torien", "Torrisi"} {
		fmt.Fprintf(&entries, `<article class="venue"><div><h3>%s</h3><p>East Village</p><div><p>Entry %d: friends who met in a famous kitchen opened this small counter, where the menu changes with the season and every dish arrives at the pace you choose, from the first course of raw fish to a dessert that tastes of the garden.</p></div><p><a href="https://book.example.com/venues/%d">Book Now</a></p></div></article>`, name, i, i)
	}
	page := `<html><head><title>The new starred restaurants</title></head><body><nav><a href="/">Home</a> <a href="/guides">Guides</a></nav><main><h1>The new starred restaurants</h1><p>Published: Nov. 19, 2025</p>` +
		`<p>The inspectors came back to the city this autumn, and the list of new stars is the longest in years: here are the restaurants that earned one, with what to order and how to get a table before everyone else does.</p><div class="venues">` + entries.String() + `</div>` +
		`<div class="promo"><p>Get the app and book your table in seconds.</p><p><a href="/app">Read more</a></p></div></main><footer><a href="/about">About us</a></footer></body></html>`
	checkNumberedKept(t, classifyAs(t, page, Options{}, TypeArticle, 0.9).Text(), "Entry %d:", 6, "Get the app")
}

// checkNumberedKept fails t unless text holds each of the n numbered
// lines (format with 0..n-1) and not dropped, the unit that should go.
func checkNumberedKept(t *testing.T, text, format string, n int, dropped string) {
	t.Helper()
	for i := range n {
		if want := fmt.Sprintf(format, i); !strings.Contains(text, want) {
			t.Errorf("%q lost; text %q", want, text)
		}
	}
	if strings.Contains(text, dropped) {
		t.Errorf("%q kept; text %q", dropped, text)
	}
}

// TestForumPostsNamedComments: on a forum thread, replies written as
// <article> posts under a comment name are the thread; short comments
// without posts of their own keep their name.
func TestForumPostsNamedComments(t *testing.T) {
	question := `<article class="node-forum"><h1>Is consulting worth it?</h1><div class="field-body"><p>I moved from banking to a consulting firm last year, and I wonder whether the hours and the pay are worth it in the long run, compared with what I had before.</p></div></article>`
	var replies strings.Builder
	for i := range 5 {
		fmt.Fprintf(&replies, `<article class="js-comment comment-layer"><div class="comment comment-container"><div class="comment-content"><p>Reply %d: I work at a large firm, and the weekends are free and the evenings mostly too, although a project near its deadline can take a whole week of late nights from you.</p></div></div></article>`, i)
	}
	remarks := `<ul class="comments-list"><li class="comment"><span>Good question, I wondered the same thing.</span></li><li class="comment"><span>Same here, thanks for asking.</span></li></ul>`
	page := `<html><body><nav><a href="/">Home</a> <a href="/forum">Forum</a></nav><main>` + question + remarks +
		`<div class="post-comments comment-wrapper" id="comments"><section class="comment-forum-wrapper">` + replies.String() + `</section></div></main></body></html>`
	checkNumberedKept(t, classifyAs(t, page, Options{}, TypeForum, 0.9).Text(), "Reply %d:", 5, "Good question")
}
