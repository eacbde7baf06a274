package extract

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixtures extracts the hand-made pages in ../fixtures/pages and checks
// the snippets each .expect.json says must and must not be in the text.
func TestFixtures(t *testing.T) {
	pages, err := filepath.Glob("../fixtures/pages/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range pages {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var want struct{ With, Without []string }
			exp, err := os.ReadFile(strings.TrimSuffix(path, ".html") + ".expect.json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(exp, &want); err != nil {
				t.Fatal(err)
			}
			p, err := Extract(raw, Options{})
			if err != nil {
				t.Fatal(err)
			}
			text := p.Text()
			for _, s := range want.With {
				if !strings.Contains(text, s) {
					t.Errorf("missing %q", s)
				}
			}
			for _, s := range want.Without {
				if strings.Contains(text, s) {
					t.Errorf("kept boilerplate %q", s)
				}
			}
			if t.Failed() {
				t.Logf("text:\n%s", text)
			}
		})
	}
}

func TestStructure(t *testing.T) {
	raw, err := os.ReadFile("../fixtures/pages/news-en.html")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Extract(raw, Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := p.Markdown()
	for _, s := range []string{
		"# Harbour town opens its first tidal power station",
		"## A decade in the making",
		"- Four turbines, each with a rotor twelve metres across.\n- A cable",
		"```\noutput_kwh = area * 0.5 * density * speed**3\n```",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q\n%s", s, md)
		}
	}
	if p.Lang != "en" || !strings.HasPrefix(p.Title, "Harbour town") {
		t.Errorf("lang %q title %q", p.Lang, p.Title)
	}
	for _, b := range p.Blocks {
		if len(b.Reasons) == 0 || b.Label == Unknown {
			t.Errorf("block %q has label %v and no reasons", b.Text, b.Label)
		}
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrEmpty},
		{"blank", []byte(" \n\t "), ErrEmpty},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ErrNotHTML},
		{"pdf", []byte("%PDF-1.4\n%âãÏÓ\n"), ErrNotHTML},
		{"plain text", []byte("just a line of text with no markup at all"), ErrNotHTML},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Extract(tc.in, Options{})
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := Extract([]byte("<p>x</p>"), Options{Charset: "klingon-8"}); !errors.Is(err, ErrUnknownCharset) {
		t.Errorf("unknown forced charset: got %v", err)
	}
}

// TestDeepTree checks the fallback for trees that x/net/html refuses
// (nested deeper than 512 elements): the text survives with a warning.
func TestDeepTree(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<html><head><title>Deep</title></head><body>")
	for range 3000 {
		sb.WriteString("<div>")
	}
	sb.WriteString("<p>The only paragraph of this page sits under three thousand divs, and it still has to come out as text.</p>")
	for range 3000 {
		sb.WriteString("</div>")
	}
	sb.WriteString("</body></html>")
	p, err := Extract([]byte(sb.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text(), "The only paragraph of this page") {
		t.Errorf("text lost: %q", p.Text())
	}
	if len(p.Warnings) == 0 || !strings.Contains(p.Warnings[0], "depth") {
		t.Errorf("no depth warning: %v", p.Warnings)
	}
	if p.Title != "Deep" {
		t.Errorf("title %q", p.Title)
	}
}

// TestHugePage builds a 50 MB page: it is cut at MaxPageBytes and marked
// truncated, and the text up to the cut is extracted.
func TestHugePage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 50 MB page")
	}
	para := strings.Repeat("A sentence of ordinary running text, long enough to count. ", 8)
	var sb strings.Builder
	sb.Grow(50<<20 + 1024)
	sb.WriteString("<html><body><article>")
	for i := 0; sb.Len() < 50<<20; i++ {
		fmt.Fprintf(&sb, "<p>Paragraph %d. %s</p>\n", i, para)
	}
	p, err := Extract([]byte(sb.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Truncated {
		t.Error("a 50 MB page was not truncated at the default limit")
	}
	if n := len(p.Text()); n < 10<<20 {
		t.Errorf("only %d bytes of text", n)
	}
}

// TestHiddenTabPanels: the panels of tabs that are not open (hidden until
// their tab is chosen) are the page's text too, while other hidden
// elements stay out.
func TestHiddenTabPanels(t *testing.T) {
	step := func(lang, cmd string) string {
		return `<p>Install the ` + lang + ` library of the service with the package manager of your language, then check that the version it printed is the one this guide was written for.</p><pre>` + cmd + `</pre>`
	}
	page := `<html><head><title>Send your first message</title></head><body><main><h1>Send your first message</h1>` +
		`<p>This guide sends one message from a small program, in the language you choose below; every step is the same in each.</p>` +
		`<div role="tablist"><button role="tab">Python</button><button role="tab">Go</button><button role="tab">Ruby</button></div>` +
		`<div role="tabpanel">` + step("Python", "pip install messages") + `</div>` +
		`<div role="tabpanel" hidden style="display:none">` + step("Go", "go get example.org/messages") + `</div>` +
		`<div role="tabpanel" aria-hidden="true">` + step("Ruby", "gem install messages") + `</div>` +
		`<div hidden><p>A draft paragraph that the editor never published, left in the page with the hidden attribute.</p></div>` +
		`</main></body></html>`
	p, err := Extract([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Text()
	for _, want := range []string{"pip install messages", "go get example.org/messages", "gem install messages", "the Go library"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lost: %q", want, text)
		}
	}
	if strings.Contains(text, "draft paragraph") {
		t.Errorf("a hidden element kept: %q", text)
	}
}

// TestInvisibleCharacters: soft hyphens and zero-width spaces inside
// words leave the text (a search index would otherwise find "Deutsch"
// and "land", not "Deutschland").
func TestInvisibleCharacters(t *testing.T) {
	page := []byte(`<html><body><article><h1>Bahn&shy;verkehr</h1>
<p>Die Bahn will in ganz Deutsch&shy;land mehr Züge fahren lassen, sagte die Sprecherin am Montag in Berlin.
Die neuen Fahr&#173;pläne gelten ab Dezember&#8203;, und die Fahrgast&shy;verbände begrüßen sie.</p>
<p>Auf den Strecken zwischen den großen Städten sollen die Züge jede halbe Stunde fahren, auf dem Land jede Stunde.</p>
</article></body></html>`)
	p, err := Extract(page, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Text()
	for _, w := range []string{"Bahnverkehr", "Deutschland", "Fahrpläne", "Dezember,", "Fahrgastverbände"} {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in %q", w, text)
		}
	}
	if strings.ContainsAny(text, "\u00ad\u200b") {
		t.Errorf("invisible characters left in %q", text)
	}
}
