package extract

import (
	"strings"
	"testing"
)

func TestUnhideFallback(t *testing.T) {
	body := strings.Repeat("Gradient descent moves the weights a small step against the gradient of the loss. ", 5)
	menu := `<div style="display: none"><ul><li><a href="/a">Courses</a></li><li><a href="/b">Tutorials</a></li><li><a href="/c">Practice problems</a></li></ul></div>`
	for _, c := range []struct {
		name, page string
		want       string // a phrase of the text ("" for none)
		unwanted   string // a phrase that must not be in the text
		warned     bool
	}{
		{"anti-flicker", `<html><body><div id="root"><div style="visibility:hidden;min-height:100vh">` + menu + `<main><h1>Training</h1><p>` + body + `</p></main></div></div></body></html>`, "against the gradient", "Practice problems", true},
		{"hidden-attribute", `<html><body><div hidden><article><p>` + body + `</p></article></div></body></html>`, "against the gradient", "", true},
		{"visible-page", `<html><body><article><h1>Training</h1><p>` + body + `</p></article><div hidden><p>` + body + body + `</p></div></body></html>`, "against the gradient", "", false},
		{"wrapper-and-dialog", `<html><body><p>Loading…</p><div aria-hidden="true"><p>` + body + `</p></div><div style="visibility: hidden"><p>Subscribe to the newsletter and get every new lesson in your inbox each week.</p></div></body></html>`, "against the gradient", "newsletter", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := checkFallback(t, c.page, c.want, WarnUnhidden, c.warned)
			if c.unwanted != "" && strings.Contains(text, c.unwanted) {
				t.Errorf("a hidden element that is not the wrapper is in the text: %q", text)
			}
			if c.name == "visible-page" && strings.Count(text, "against the gradient") != 5 {
				t.Errorf("the hidden copy was read on a page with visible text: %q", text)
			}
		})
	}
}
