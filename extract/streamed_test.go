package extract

import (
	"strings"
	"testing"
)

func TestRevealStreamed(t *testing.T) {
	para := strings.Repeat("Our movers pack, load and carry every box with care, and we price the job before we start. ", 3)
	shell := func(body, tail string) string {
		return `<html><body><main><h1>Moving services</h1>` + body + `</main>` + tail + `</body></html>`
	}
	for _, c := range []struct {
		name, page string
		want       []string // phrases in the text, in this order
		not        []string // phrases not in the text
	}{
		{"boundary", shell(`<p>Intro to our services, written for people who move house.</p><!--$?--><template id="B:0"></template><div>Loading paragraph...</div><!--/$--><p>Call us today, and a planner from our team will visit your home to look at what you need moved.</p>`,
			`<div hidden id="S:0"><p>`+para+`</p></div><script>$RC("B:0","S:0")</script>`),
			[]string{"Intro to our services", "pack, load and carry", "Call us today"}, []string{"Loading paragraph"}},
		{"segment", shell(`<section><template id="P:1"></template></section>`,
			`<div hidden id="S:1"><p>`+para+`</p></div><script>$RS("S:1","P:1")</script>`),
			[]string{"pack, load and carry"}, nil},
		{"no-call", shell(`<p>`+para+`</p>`, `<div hidden id="S:2"><p>A part that no script reveals stays hidden.</p></div>`),
			[]string{"pack, load and carry"}, []string{"stays hidden"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Extract([]byte(c.page), Options{})
			if err != nil {
				t.Fatal(err)
			}
			text, at := p.Text(), 0
			for _, w := range c.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("%q not in order in %q", w, text)
				}
				at += i
			}
			for _, w := range c.not {
				if strings.Contains(text, w) {
					t.Errorf("%q in %q", w, text)
				}
			}
		})
	}
}
