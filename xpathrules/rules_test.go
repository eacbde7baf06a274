package xpathrules

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/extract"
)

const page = `<html><head><title>Site: A story</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
<div class="story main">
<h1 class="headline">A story</h1>
<p>The council approved the new harbour bridge on Tuesday after a long debate about its cost and design.</p>
<div class="share-tools"><p>Share this story on every network you know</p></div>
<p>Work starts in spring and should take two years, the council said in a statement to residents.</p>
</div>
<div id="footer"><p>Copyright 2024 The Site. All rights reserved. Contact us for more.</p></div>
</body></html>`

func parse(t *testing.T, raw, u string) *extract.Page {
	t.Helper()
	pu, _ := url.Parse(u)
	p, err := extract.Parse([]byte(raw), extract.Options{URL: pu})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRules(t *testing.T, yml string) *Set {
	t.Helper()
	rules, errs := ParseYAML("test.yaml", []byte(yml))
	if len(errs) > 0 {
		t.Fatal(errors.Join(errs...))
	}
	return &Set{Rules: rules}
}

// TestApplyKeepDrop: the content selector keeps its blocks (firm, and the
// density stage does not undo it), the drop selector removes a block
// inside the content, everything outside is dropped, and the title
// selector sets the title.
func TestApplyKeepDrop(t *testing.T) {
	for _, tc := range []struct{ name, content, drop string }{
		{"xpath", "//div[contains(@class,'story')]", "//div[@class='share-tools']"},
		{"css", "css:div.story", "div.share-tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := mustRules(t, "- host: example.com\n  content: \""+tc.content+"\"\n  drop: \""+tc.drop+"\"\n  title: css:h1.headline\n")
			p := parse(t, page, "https://www.example.com/news/1")
			r := set.Match(p.URL)
			if r == nil {
				t.Fatal("no rule for www.example.com")
			}
			out := r.Apply(p, 0)
			if out.Status != StatusOK || out.Dropped != 8 {
				t.Fatalf("%v: outcome %+v", tc, out)
			}
			extract.Classify(p)
			text := p.Text()
			for _, want := range []string{"A story", "harbour bridge", "Work starts"} {
				if !strings.Contains(text, want) {
					t.Errorf("%v: %q lost: %q", tc, want, text)
				}
			}
			for _, gone := range []string{"Share this", "Copyright", "Sport"} {
				if strings.Contains(text, gone) {
					t.Errorf("%v: %q kept: %q", tc, gone, text)
				}
			}
			if p.Title != "A story" {
				t.Errorf("title %q", p.Title)
			}
		})
	}
}

// TestBroken: a content selector that matches nothing (the site changed
// its layout), or far less text than usual, is broken; the page keeps
// the other stages' result.
func TestBroken(t *testing.T) {
	set := mustRules(t, "host: example.com\ncontent: //div[@id='article-body']\n")
	p := parse(t, page, "https://example.com/news/1")
	out := set.Match(p.URL).Apply(p, 0)
	if out.Status != StatusBroken || !strings.Contains(out.Reason, "matched nothing") {
		t.Fatalf("outcome %+v", out)
	}
	extract.Classify(p)
	if !strings.Contains(p.Text(), "harbour bridge") {
		t.Errorf("the heuristic result is lost: %q", p.Text())
	}
	set = mustRules(t, "host: example.com\ncontent: css:h1\n")
	p = parse(t, page, "https://example.com/news/1")
	out = set.Match(p.URL).Apply(p, 300)
	if out.Status != StatusBroken || !strings.Contains(out.Reason, "usually 300") {
		t.Fatalf("short content: %+v", out)
	}
	for _, b := range p.Blocks {
		if b.Label != extract.Unknown {
			t.Errorf("a broken rule labelled %q", b.Text)
		}
	}
}

func TestMatch(t *testing.T) {
	set := mustRules(t, `
- host: example.com
  content: //article
- host: .example.com
  path: /blog/*
  content: //main
- hosts: [other.org]
  path: /news/
  content: //main
`)
	for u, want := range map[string]int{
		"https://example.com/a":              0,
		"https://www.example.com/a":          0,
		"https://blog.example.com/blog/2024": 1,
		"https://example.com/blog/2024/x":    1,
		"https://news.example.com/a":         -1,
		"https://other.org/news/1":           2,
		"https://other.org/sport/1":          -1,
		"https://notexample.com/a":           -1,
	} {
		t.Run(u, func(t *testing.T) {
			pu, _ := url.Parse(u)
			got := set.Match(pu)
			switch {
			case want < 0 && got != nil:
				t.Errorf("%s matched %s", u, got.Name)
			case want >= 0 && got != set.Rules[want]:
				t.Errorf("%s: got %v, want rule %d", u, got, want)
			}
		})
	}
}

// TestLoadErrors: each problem is reported as file:line with its rule,
// and the good rules of the file still load.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(`- host: good.example
  content: //article
- host: bad.example
  content: //div[@class='x'
- host: css.example
  drop: "div[["
- content: //main
- host: key.example
  contnet: //main
`), 0o644)
	os.WriteFile(filepath.Join(dir, "b.yml"), []byte("- host: x\n  content: [unclosed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ff.example.txt"), []byte("# FiveFilters\nbody: //div[@id='story']\nstrip_id_or_class: share\nstrip: //aside\ntitle: //h1\ntest_url: https://ff.example/1\ndate: //time\nnonsense line\n"), 0o644)
	set, err := Load(dir)
	if set == nil || len(set.Rules) != 2 {
		t.Fatalf("rules %v, err %v", set, err)
	}
	msg := err.Error()
	for _, want := range []string{
		"a.yaml:4: rule \"a.yaml:3\": content: XPath",
		"a.yaml:6: rule \"a.yaml:5\": drop: CSS",
		"a.yaml:7: rule \"a.yaml:7\": no host",
		"a.yaml:9: rule \"a.yaml:8\": unknown key \"contnet\"",
		"b.yml:1: did not find expected",
		"ff.example.txt:8:",
	} {
		// Each problem is a subtest named by its place, e.g. a.yaml:4.
		name, _, _ := strings.Cut(want, ": ")
		t.Run(strings.TrimSuffix(name, ":"), func(t *testing.T) {
			if !strings.Contains(msg, want) {
				t.Errorf("no %q in:\n%s", want, msg)
			}
		})
	}
	ff := set.Rules[1]
	if ff.Hosts[0] != "ff.example" || len(ff.Content) != 1 || len(ff.Drop) != 2 || len(ff.Title) != 1 || len(ff.TestURLs) != 1 {
		t.Errorf("FiveFilters rule %+v", ff)
	}
}

// FuzzParse: no rule file makes the loaders panic, and every rule they
// return has a host and compiled selectors that run on a page.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("- host: a.example\n  content: //article\n  drop: [css:.x, \"//aside\"]\n"))
	f.Add([]byte("body: //div\nstrip_id_or_class: ad\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pu, _ := url.Parse("https://a.example/x")
		p, err := extract.Parse([]byte(page), extract.Options{URL: pu})
		if err != nil {
			t.Fatal(err)
		}
		y, _ := ParseYAML("f.yaml", b)
		ff, _ := ParseFiveFilters("a.example.txt", b)
		for _, r := range append(y, ff...) {
			if len(r.Hosts) == 0 {
				t.Fatalf("a rule without a host: %+v", r)
			}
			r.Apply(p, 0)
		}
	})
}
