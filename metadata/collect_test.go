package metadata

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestReadKinds(t *testing.T) {
	for _, c := range []struct {
		tag                    string
		author, date, comments bool
		itemprop               string
	}{
		{`<div class="post-Author">`, true, false, false, ""},
		{`<span id="pubDate" itemprop="datePublished">`, false, true, false, "datePublished"},
		{`<section class="comments-area">`, false, false, true, ""},
		{`<div class="автор-статьи">`, true, false, false, ""},
		{`<div class="flex items-center px-4" property="og:title">`, false, false, false, ""},
		{`<p class="a">`, false, false, false, ""},
	} {
		doc, err := html.Parse(strings.NewReader("<body>" + c.tag + "x"))
		if err != nil {
			t.Fatal(err)
		}
		n := doc.LastChild.LastChild.FirstChild // html > body > the element
		k := readKinds(n)
		if k.author != c.author || k.date != c.date || k.comments != c.comments || k.itemprop != c.itemprop {
			t.Errorf("readKinds(%s) = %+v", c.tag, k)
		}
	}
}

func TestTextUpToFolds(t *testing.T) {
	doc, err := html.Parse(strings.NewReader("<body><div>  One\u00a0 two<b>three</b>\n<script>x()</script><i> four </i>\tfive  </div>"))
	if err != nil {
		t.Fatal(err)
	}
	div := doc.LastChild.LastChild.FirstChild
	var c collector
	if got, want := c.textOf(div), "One two three four five"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if got := c.shortText(div, 10); got != "" {
		t.Errorf("shortText(10) = %q, want none", got)
	}
	if got := c.textUpTo(div, 5); !strings.HasPrefix("One two three four five", got) || len(got) <= 5 {
		t.Errorf("textUpTo(5) = %q, want a prefix longer than 5", got)
	}
}

// TestDateLabelWithoutColon: a verb label names a date without a colon
// ("Veröffentlicht am 16.08.2019"); a noun label needs one, or "Date
// 2019" in a sentence would be read as the page's date.
func TestDateLabelWithoutColon(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Veröffentlicht am 16.08.2019", true},
		{"Published on 4 May 2020", true},
		{"Mise en ligne 23 mai 2019", true},
		{"Publié le 3 mars 2021", true},
		{"Datum: 03.11.2021", true},
		{"Datum 03.11.2021", false},
		{"Date night ideas for 2021 and 12 May 2021", false},
	} {
		k := NewCollector()
		k.c.dateLabel(c.text)
		if got := k.c.labelledDate != ""; got != c.want {
			t.Errorf("%q: labelled %v, want %v", c.text, got, c.want)
		}
	}
}
