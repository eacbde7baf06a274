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

// TestRepeatRefrain: a song's chorus sung again between its verses, in
// the element that holds the verses, is the text and stays every time;
// only a copy in a container of its own is a repeat.
func TestRepeatRefrain(t *testing.T) {
	chorus := `<p>So carry the lantern down to the water tonight, and carry the light of the harbour back home to the hill, for the boats are all in and the tide will be turning at midnight, and nobody sleeps in the town by the mill.</p>`
	verse := func(n int) string {
		return fmt.Sprintf(`<p>Verse %d: the ferry came in with the evening, the gulls on the rail and the rope on the quay, and the men of the mill walked down in the twilight to see what the sea had brought them today.</p>`, n)
	}
	page := `<html><body><nav><a href="/">Home</a></nav><article><h1>The lantern song</h1><div class="lyrics">` +
		verse(1) + chorus + verse(2) + chorus + verse(3) + chorus + `</div></article></body></html>`
	text := classifyAs(t, page, Options{}, TypeArticle, 0.9).Text()
	if n := strings.Count(text, "So carry the lantern"); n != 3 {
		t.Errorf("the chorus kept %d times, want 3: %q", n, text)
	}
}
