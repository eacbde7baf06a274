package infholder

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/extract"
)

func TestGroupKeys(t *testing.T) {
	urls := []string{
		"http://www.example.com/news/2013/04/28/a", "http://example.com/news/2013/04/29/b",
		"http://example.com/news/2013/05/01/c", "http://example.com/blog/x", "http://example.com/blog/y",
		"http://other.org/p/1",
	}
	keys := GroupKeys(urls, 2)
	want := []string{"example.com/news/2013/", "example.com/news/2013/", "example.com/news/2013/",
		"example.com/blog/", "example.com/blog/", "other.org/"}
	for i := range urls {
		t.Run(urls[i], func(t *testing.T) {
			if keys[i] != want[i] {
				t.Errorf("%s: key %q, want %q", urls[i], keys[i], want[i])
			}
		})
	}
}

// page builds a page with a shared header and footer (the template), a
// per-page article, and a short line ("Publisher: Jove Books") that two
// pages share by chance.
func page(t *testing.T, i int, publisher string) *extract.Page {
	var art strings.Builder
	for k := range 3 {
		fmt.Fprintf(&art, "<p>Article %d paragraph %d says something of its own about topic %d and more words.</p>", i, k, i*7+k)
	}
	html := `<html><body><div id="nav"><a href="/">Home</a><a href="/a">News</a><a href="/b">Sport</a></div>
<div class="top"><p>Site slogan for every page</p><p>Second line of the masthead</p><p>Third line of the masthead</p></div>
<div class="main"><h1>Title ` + fmt.Sprint(i) + `</h1>` + art.String() + `<p>Publisher: ` + publisher + `</p></div>
<div class="foot"><p>Copyright line</p><p>Contact line</p><p>Privacy line</p></div></body></html>`
	p, err := extract.Parse([]byte(html), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLearnMarksTemplateNotChance(t *testing.T) {
	var pages []*extract.Page
	for i := range 6 {
		pub := fmt.Sprintf("House %d", i)
		if i < 2 {
			pub = "Jove Books" // pages 0 and 1 share a publisher at the same place
		}
		pages = append(pages, page(t, i, pub))
	}
	tpl := Learn("g", pages, Options{})
	for _, b := range pages[0].Blocks {
		isTemplate := b.Label == extract.Boilerplate
		shared := strings.Contains(b.Text, "slogan") || strings.Contains(b.Text, "Copyright") || strings.Contains(b.Text, "masthead")
		if shared && !isTemplate {
			t.Errorf("template block %q not marked", b.Text)
		}
		if (strings.Contains(b.Text, "Article") || strings.Contains(b.Text, "Jove")) && isTemplate {
			t.Errorf("page block %q marked as template", b.Text)
		}
	}
	if len(tpl.Sigs) == 0 || tpl.Version != TemplateVersion {
		t.Fatalf("template %+v", tpl)
	}
	// A new page of the group: the template applies without relearning.
	fresh := page(t, 99, "Other House")
	if share := tpl.Apply(fresh, Options{}); share < 0.3 || share > 0.8 {
		t.Errorf("template matched %.2f of a new page", share)
	}
}

func TestDuplicatesAreNotTemplate(t *testing.T) {
	a, b := page(t, 1, "X"), page(t, 1, "X")
	Learn("g", []*extract.Page{a, b}, Options{})
	for _, bl := range a.Blocks {
		if bl.Label == extract.Boilerplate {
			t.Errorf("two copies of one article: %q marked as template", bl.Text)
		}
	}
}

func TestTemplateSaveLoadFit(t *testing.T) {
	var pages []*extract.Page
	for i := range 5 {
		pages = append(pages, page(t, i, fmt.Sprintf("House %d", i)))
	}
	tpl := Learn("example.com/news/", pages, Options{})
	var buf bytes.Buffer
	if err := tpl.Save(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Load(&buf)
	if err != nil || got.Group != tpl.Group || len(got.Sigs) != len(tpl.Sigs) {
		t.Fatalf("round trip: %v %+v", err, got)
	}
	if fit := got.Fit(NewSample(page(t, 42, "New"), SigContent)); fit < 0.9 {
		t.Errorf("a page of the same layout fits %.2f", fit)
	}
	// The site changes its layout: another page structure.
	other, err := extract.Parse([]byte(`<html><body><header><h2>New site name</h2></header><main><p>A new layout with
other blocks entirely, so that the old template no longer describes it at all.</p></main></body></html>`), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fit := got.Fit(NewSample(other, SigContent)); fit > 0.2 {
		t.Errorf("a page of another layout fits %.2f", fit)
	}
	if _, err := Load(strings.NewReader(`{"version":99,"group":"g","sigs":{}}`)); !errors.Is(err, ErrVersion) {
		t.Errorf("version check: %v", err)
	}
	if FileName("a/b") == FileName("a_b") {
		t.Error("file names collide")
	}
}

func TestSite(t *testing.T) {
	for _, c := range []struct {
		url, host string
		dirs      []string
	}{
		{"https://www.Example.org/news/2013/story.html", "example.org", []string{"news", "2013"}},
		{"https://example.org", "example.org", []string{}},
		{"file:///data/site-a/0001.htm", "file:/data/site-a", nil},
		{"not a url at all", "not a url at all", nil},
	} {
		t.Run(c.url, func(t *testing.T) {
			host, dirs := Site(c.url)
			if host != c.host || !slices.Equal(dirs, c.dirs) {
				t.Errorf("Site(%q) = %q %q, want %q %q", c.url, host, dirs, c.host, c.dirs)
			}
		})
	}
}
