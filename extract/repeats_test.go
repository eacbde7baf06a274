package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestRepeatRuns: a section written twice (a copy per screen size) is kept
// once, while a line that comes back alone between other text (each
// day's warm-up in a training plan) stays every time.
func TestRepeatRuns(t *testing.T) {
	story := `<p>The turbines in the old harbour mouth turned for the first time on Monday morning, when the tide began to run out of the bay at a little past seven.</p>` +
		`<p>Engineers expect the four machines to cover the needs of about two thousand homes, more than the town itself holds, so the rest will go to the regional grid.</p>`
	var plan strings.Builder
	for _, day := range []string{"Tuesday", "Thursday", "Saturday"} {
		fmt.Fprintf(&plan, `<h3>%s</h3><ul><li>Warm up: ten to twenty minutes of easy jogging, then five minutes of running drills and strides.</li><li>Main set on %s: run at a steady effort for forty minutes and note how your legs feel at the end of it.</li></ul>`, day, day)
	}
	page := `<html><body><nav><a href="/">Home</a></nav><article><h1>Harbour news</h1><div class="desktop">` + story + `</div><div class="phone">` + story + `</div>` + plan.String() + `</article></body></html>`
	text := classifyAs(t, page, Options{}, TypeArticle, 0.9).Text()
	if n := strings.Count(text, "Engineers expect"); n != 1 {
		t.Errorf("the repeated section kept %d times, want once: %q", n, text)
	}
	if n := strings.Count(text, "Warm up:"); n != 3 {
		t.Errorf("the plan's warm-up kept %d times, want 3: %q", n, text)
	}
}
