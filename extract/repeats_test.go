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

// TestRepeatCode: code is no copy of a section: an API reference shows
// the same response object under each endpoint, and every copy stays.
func TestRepeatCode(t *testing.T) {
	intro := `<p>The charge object represents one attempt to move money into your account, and every endpoint below returns it in full, with the fields described at the top of the page.</p>`
	var endpoints strings.Builder
	for _, ep := range []string{"Create a charge", "Update a charge", "Capture a charge"} {
		fmt.Fprintf(&endpoints, `<section><h2>%s</h2><p>Returns the charge object if the call succeeded, and an error otherwise.</p><div class="response"><pre><div>{</div><div>  "id": "ch_3MmlLrLkdIwHu7ix0snN0B15",</div><div>  "object": "charge",</div><div>  "amount_captured": 1099,</div><div>  "balance_transaction": "txn_3MmlLrLkdIwHu7ix0uke3Ezy",</div><div>  "calculated_statement_descriptor": "Stripe"</div><div>}</div></pre></div></section>`, ep)
	}
	page := `<html><body><nav><a href="/">Docs</a></nav><main><h1>Charges</h1>` + intro + endpoints.String() + `</main></body></html>`
	text := classifyAs(t, page, Options{}, TypeDocumentation, 0.9).Text()
	if n := strings.Count(text, "amount_captured"); n != 3 {
		t.Errorf("the response object kept %d times, want 3: %q", n, text)
	}
}

// TestRepeatReference: on a documentation page a parameter described the
// same way under two endpoints is kept under each; the same text on an
// article is a repeat.
func TestRepeatReference(t *testing.T) {
	intro := `<p>A charge moves money from a customer's card into your account, and the endpoints below create one, update one and list the charges you made, each with the parameters it takes described under it.</p>`
	param := `<ul><li><h4>amount</h4><div><p>Amount intended to be collected by this payment, as a positive integer in the smallest unit of the currency, such as cents for dollars.</p></div></li>` +
		`<li><h4>currency</h4><div><p>The three-letter code of the currency in which the amount is given, in lower case, which must be one that your account supports.</p></div></li></ul>`
	var endpoints strings.Builder
	for _, ep := range []string{"Create a charge", "Update a charge"} {
		fmt.Fprintf(&endpoints, `<section><h2>%s</h2><h3>Parameters</h3>%s</section>`, ep, param)
	}
	page := `<html><body><nav><a href="/">Docs</a></nav><main><h1>Charges</h1>` + intro + endpoints.String() + `</main></body></html>`
	if text := classifyAs(t, page, Options{}, TypeDocumentation, 0.9).Text(); strings.Count(text, "Amount intended") != 2 {
		t.Errorf("documentation: the parameter kept %d times, want 2: %q", strings.Count(text, "Amount intended"), text)
	}
	if text := classifyAs(t, page, Options{}, TypeArticle, 0.9).Text(); strings.Count(text, "Amount intended") != 1 {
		t.Errorf("article: the parameter kept %d times, want 1: %q", strings.Count(text, "Amount intended"), text)
	}
}
