package metadata

import (
	"slices"
	"testing"
)

func TestAuthorArchive(t *testing.T) {
	for _, c := range []struct {
		href string
		want bool
	}{
		{"/author/ann-lee/", true},
		{"https://www.cherryservers.com/blog/authors/emmanuel-oyibo", true},
		{"https://www.chiark.greenend.org.uk/~cjwatson/blog/author/colin-watson.html", true},
		{"/Autor/anna-schmidt", true},
		{"/contributors/jo", true},
		{"/author/", false},        // the list of authors
		{"/authors?page=2", false}, // the same
		{"/author", false},         //
		{"https://author.example.com/x", false},
		{"/blog/authoring-tools/", false},
		{"/search?q=/author/x", false}, // a query, not a path
		{"", false},
	} {
		if got := authorArchive(c.href); got != c.want {
			t.Errorf("authorArchive(%q) = %v, want %v", c.href, got, c.want)
		}
	}
}

// TestArchiveByline: a page that names its author nowhere else does so
// by a link to the author's archive, whose bare name another link to it
// may give; a list of the site's authors is no byline.
func TestArchiveByline(t *testing.T) {
	post := `<html><body><h1>Preparing a transition</h1><p>Text of the post.</p>
<footer><p>Posted by <a href="/blog/author/colin-watson.html">Colin Watson</a> on 3 May</p></footer></body></html>`
	if got := readAs(t, post, "article").Authors; !slices.Equal(got, []string{"Colin Watson"}) {
		t.Errorf("a post's authors = %q, want Colin Watson", got)
	}
	labelled := `<html><body><h1>Firmenwagen</h1><a href="/author/martin">Alles von Martin Junker</a><p>Text.</p>
<div><a href="/author/martin">Martin Junker</a><a href="/author/martin">More Posts</a></div></body></html>`
	if got := readAs(t, labelled, "article").Authors; !slices.Equal(got, []string{"Martin Junker"}) {
		t.Errorf("a labelled archive link's authors = %q, want Martin Junker", got)
	}
	footer := `<html><body><h1>News of the day</h1><p>Text of the news.</p>
<footer><dl><dt>Authors</dt><dd><ul><li><a href="/authors/bogdanov/">Konstantin Bogdanov</a></li>
<li><a href="/authors/ivanova/">Anna Ivanova</a></li></ul></dd></dl></footer></body></html>`
	if got := readAs(t, footer, "article").Authors; len(got) != 0 {
		t.Errorf("a footer's list of columnists gave authors %q", got)
	}
}
