package extract

import (
	"strings"
	"testing"
)

// TestNoscriptFallback: a page whose visible tree has no text (its content
// rendered by script) is read from its <noscript> copy, with a warning; a
// page with text keeps ignoring <noscript>.
func TestNoscriptFallback(t *testing.T) {
	post := strings.Repeat("The update broke the tool calls in our integration, and rolling back fixed it. ", 4)
	for _, c := range []struct {
		name, page string
		want       string // a phrase of the text ("" for none)
		warned     bool
	}{
		{"script-rendered", `<html><head><title>Topic</title></head><body><div id="app"></div><noscript><header><a href="/">Community</a></header><div id="main"><h1>Update broken</h1><div class="post"><p>` + post + `</p></div></div></noscript></body></html>`, "rolling back fixed it", true},
		{"visible-text", `<html><body><article><p>` + post + `</p></article><noscript><p>Please enable JavaScript to use every feature of this site.</p></noscript></body></html>`, "rolling back fixed it", false},
		{"top-bar-visible", `<html><head><title>Topic</title></head><body><div class="bar"><a href="/">Community</a> <a href="/calc">calc</a> <a href="/donate">donate now</a></div><div id="app"></div><noscript><div id="main"><h1>Update broken</h1><div class="post"><p>` + post + `</p></div></div></noscript></body></html>`, "rolling back fixed it", true},
		{"short-page", `<html><body><p>Closed on Monday, 3 June, for the holiday.</p><noscript><p>Please enable JavaScript to use every feature of this site.</p></noscript></body></html>`, "Closed on Monday", false},
		{"empty-noscript", `<html><body><div id="app"></div><noscript></noscript></body></html>`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := checkFallback(t, c.page, c.want, "noscript", c.warned)
			if strings.Contains(text, "enable JavaScript") {
				t.Errorf("the <noscript> notice is in the text: %q", text)
			}
		})
	}
}

// checkFallback extracts page and checks that its text holds want (is
// empty when want is "") and that a warning holds warning exactly when
// warned; it returns the text.
func checkFallback(t *testing.T, page, want, warning string, warned bool) string {
	t.Helper()
	p, err := Extract([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Text()
	if want != "" && !strings.Contains(text, want) || want == "" && text != "" {
		t.Errorf("text %q", text)
	}
	if got := strings.Contains(strings.Join(p.Warnings, "\n"), warning); got != warned {
		t.Errorf("warnings %q", p.Warnings)
	}
	return text
}
