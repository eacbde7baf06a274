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
		{"empty-noscript", `<html><body><div id="app"></div><noscript></noscript></body></html>`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Extract([]byte(c.page), Options{})
			if err != nil {
				t.Fatal(err)
			}
			text := p.Text()
			if c.want != "" && !strings.Contains(text, c.want) || c.want == "" && text != "" {
				t.Errorf("text %q", text)
			}
			if strings.Contains(text, "enable JavaScript") {
				t.Errorf("the <noscript> notice is in the text: %q", text)
			}
			warned := strings.Contains(strings.Join(p.Warnings, "\n"), "noscript")
			if warned != c.warned {
				t.Errorf("warnings %q", p.Warnings)
			}
		})
	}
}
