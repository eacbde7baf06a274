package metadata

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestDateInTextLanguage: a date in digits alone is read the way the
// text's language writes it where the page declares another: a Russian
// page whose template says "en" writes the day first.
func TestDateInTextLanguage(t *testing.T) {
	page := `<html lang="en"><body><h1>Анджелина Джоли ответила на обвинения</h1>
<p class="date">09/12/2011 13:40</p><p>Голливудская актриса не согласна с обвинениями.</p></body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	identify := func(text, declared string) (string, float64) { return "ru", 0.99 }
	text := strings.Repeat("Голливудская актриса не согласна с обвинениями, предъявленными ей хорватским журналистом. ", 3)
	m := Read(doc, Input{Text: text},
		Options{Now: testNow, Identify: identify})
	if m.Lang != "ru" || m.Published != "2011-12-09" {
		t.Errorf("lang %q published %q, want ru and 2011-12-09", m.Lang, m.Published)
	}
	m = Read(doc, Input{}, Options{Now: testNow}) // no identifier: the declared English, month first
	if m.Published != "2011-09-12" {
		t.Errorf("without the text's language published %q, want 2011-09-12", m.Published)
	}
}

// TestFileAddressNoDate: a page read from a file is not at the file's
// path: a date in the file's name is when it was saved, not published.
func TestFileAddressNoDate(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<html><body><h1>A page</h1><p>Text without a date.</p></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("file:///crawl/20120106_example.org_4b86.html")
	if m := Read(doc, Input{URL: u}, Options{Now: testNow}); m.Published != "" {
		t.Errorf("a file's name gave the date %q", m.Published)
	}
	u, _ = url.Parse("https://example.org/2012/01/06/a-page")
	if m := Read(doc, Input{URL: u}, Options{Now: testNow}); m.Published != "2012-01-06" {
		t.Errorf("a page's address gave the date %q, want 2012-01-06", m.Published)
	}
}
