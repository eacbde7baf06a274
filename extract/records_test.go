package extract

import (
	"fmt"
	"strings"
	"testing"
)

// listingPage is a listing whose first card has a long summary (the
// density region) and whose other cards are short teasers. With
// featured outside the cards, the long text is a story of its own.
func listingPage(featuredInCard bool) string {
	long := strings.Repeat("The council voted on Tuesday to keep the harbour ferry running through the winter, after a season of record crowds. ", 4)
	var b strings.Builder
	b.WriteString(`<html><head><title>Harbour news</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><main><h1>Harbour news</h1><div class="cards">`)
	if featuredInCard {
		fmt.Fprintf(&b, `<article class="card"><h2>Ferry stays</h2><p>%s</p><a href="/news/ferry">Details</a></article>`, long)
	} else {
		fmt.Fprintf(&b, `</div><div class="story"><h2>Ferry stays</h2><p>%s</p></div><div class="cards">`, long)
	}
	for i, t := range []string{"New benches on the quay", "Lifeboat day in June", "Market moves to Saturday", "Tide tables for the summer", "Car park prices", "Beach clean in May", "Sailing club open day", "Fish market hours"} {
		fmt.Fprintf(&b, `<article class="card"><h2><a href="/news/%d">%s</a></h2><p data-card="1">A short note on what changes for visitors, and when, this year.</p></article>`, i, t)
	}
	b.WriteString(`</div></main><footer><a href="/about">About</a></footer></body></html>`)
	return b.String()
}

// TestRecordsHoldListing checks the record-mining discriminator of
// keepMainColumn: on a listing whose region is one card's long summary,
// every card is kept; when the long text is a story outside the cards,
// the cards stay teasers.
func TestRecordsHoldListing(t *testing.T) {
	for _, inCard := range []bool{true, false} {
		checkMarked(t, fmt.Sprintf("featured in a card %v", inCard), listingPage(inCard), TypeListing, "data-card", inCard)
	}
}

// checkMarked classifies page as a page of type typ and checks that every
// block of an element carrying the attribute mark is content when want
// is set, and not content otherwise.
func checkMarked(t *testing.T, name, page string, typ PageType, mark string, want bool) {
	t.Helper()
	p, err := Parse([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p.SetType(TypeGuess{Type: typ, Confidence: 0.7})
	Classify(p)
	for _, b := range p.Blocks {
		if attr(b.Node, mark) == "" {
			continue
		}
		if kept := b.Label == Content; kept != want {
			r, _ := densityRule(b)
			t.Errorf("%s: %q label %v (%s), want content %v", name, b.Text, b.Label, r, want)
		}
	}
}

// TestRecordItems checks what counts as a record: alike siblings with a
// link, not paragraphs, and not page-sized sections.
func TestRecordItems(t *testing.T) {
	page := `<html><body><ul class="list">
<li><a href="/a">One</a> first item text</li><li><a href="/b">Two</a> second item text</li><li><a href="/c">Three</a> third item text</li></ul>
<div><p id="p1">A paragraph with <a href="/x">a link</a> in it.</p><p>Another paragraph.</p><p>A third paragraph here.</p></div>
</body></html>`
	p, err := Parse([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := newClassifier(p)
	in := c.recordItems()
	for _, b := range p.Blocks {
		want := b.Node.DataAtom.String() == "li"
		if got := in(b.Node); got != want {
			t.Errorf("block %q (%s): in a record %v, want %v", b.Text, b.Node.Data, got, want)
		}
	}
}

// introListing is a shop's category page: a heading, one paragraph of
// introduction (the density region: the cards' text is discounted as
// teasers), a grid of item cards and a footer.
func introListing(heading string) string {
	intro := strings.Repeat("Pots and planters bring colour and life to a room, and the right one keeps a plant healthy for years. ", 3)
	var b strings.Builder
	fmt.Fprintf(&b, `<html><head><title>Shop</title></head><body><nav><a href="/">Home</a> <a href="/pots">Pots</a></nav><main><section><h1>%s</h1><div><p>%s</p></div><ul class="grid">`, heading, intro)
	for i, t := range []string{"Glazed pot", "Clay pot", "Hanging planter", "Self-watering pot", "Window box", "Terracotta saucer"} {
		fmt.Fprintf(&b, `<li class="item"><h3><a href="/p/%d">%s</a></h3><p data-card="1">Frost-proof, with a drainage hole, in three sizes.</p><p>$%d.00</p></li>`, i, t, 10+i)
	}
	b.WriteString(`</ul></section></main><footer><p>Every price includes tax. Delivery is free on orders over fifty dollars, and returns are accepted within thirty days of delivery for a full refund, except on plants, which are guaranteed for a year instead; the shop is owned and run by the same family since it opened its doors.</p></footer></body></html>`)
	return b.String()
}

// TestIntroUnderName checks that a short introduction under a name (a
// category page) does not make the page an article, while the same
// paragraph under a headline still does. (Text in page chrome, the other
// rule of keepMainColumn's article test, is pinned by the wcxb-dev-even
// listing and collection bars of TestExtractBaseline.)
func TestIntroUnderName(t *testing.T) {
	for heading, want := range map[string]bool{"Indoor pots": true, "Council votes to keep the harbour ferry running": false} {
		checkMarked(t, fmt.Sprintf("under %q", heading), introListing(heading), TypeListing, "data-card", want)
	}
}

// TestCallToActionSections checks that on a page of many sections (a
// service page) a section's text followed by a short call-to-action
// link stays content, while on an article the same units stay teasers
// (an author's bio with "more", a membership promotion).
func TestCallToActionSections(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>Event planning</title></head><body><main><h1>Event planning</h1>`)
	for range 6 {
		b.WriteString(`<p>We plan conferences, dinners and parties for companies of every size, from the first idea to the last guest leaving. Every event has one planner who answers the phone, knows the venue and stays until the end.</p>`)
	}
	for i, h := range []string{"Conferences", "Dinners", "Parties"} {
		fmt.Fprintf(&b, `<section><h2>%s</h2><div><p data-section="1">For %s our planners look after the venue, the catering, the speakers and the schedule, so that your team can enjoy the day. We have run events of ten to two thousand guests, indoors and outdoors, in every season of the year.</p><a href="/book/%d">Book a consultation</a></div></section>`, h, h, i)
	}
	b.WriteString(`</main></body></html>`)
	for typ, want := range map[PageType]bool{TypeService: true, TypeArticle: false} {
		checkMarked(t, string(typ), b.String(), typ, "data-section", want)
	}
}
