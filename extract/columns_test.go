package extract

import (
	"fmt"
	"strings"
	"testing"
)

// TestProductColumn: a product page whose one long paragraph is a review
// summary far from the product keeps the product's boxes (name, price,
// features, dimensions) and leaves out the grids of other products.
func TestProductColumn(t *testing.T) {
	var grid strings.Builder
	for i := range 8 {
		fmt.Fprintf(&grid, `<div class="card"><a href="/chair-%d"><img src="/c%d.jpg"><p>Office chair model %d</p></a><p>$%d.99</p></div>`, i, i, i, 200+i)
	}
	page := `<html><head><title>Sharann chair</title></head><body><header><nav><a href="/">Home</a> <a href="/furniture">Furniture</a> <a href="/lighting">Lighting</a></nav></header><main>` +
		`<div class="box"><h1>Sharann Executive Chair</h1><div><span>$659.99</span> <span>was $761.98</span></div></div>` +
		`<section><h2>Sponsored</h2>` + grid.String() + `</section>` +
		`<div class="box"><div><div><h2>Features</h2><ul><li>Hand-applied antique brass nail trim</li><li>Adjustable seat height</li><li>Padded arms</li></ul></div></div>` +
		`<div><div><h2>Dimensions</h2><div><div>Seat: 20 H x 24 W x 19 D</div><div>Overall: 43 H x 27 W x 28 D</div><div>Weight: 58 lb.</div></div></div></div></div>` +
		`<div class="box"><div><div><p>Customers praise this product's comfort, ease of assembly, and stylish appearance. Many appreciate the sturdy build and the soft leather, while some mention that the seat runs firm at first and softens over a few weeks of daily use at a desk.</p></div></div></div>` +
		`<section><h2>You may also like</h2>` + grid.String() + `</section></main><footer><a href="/help">Help</a></footer></body></html>`
	text := classifyAs(t, page, Options{}, TypeProduct, 0).Text()
	for _, want := range []string{"Adjustable seat height", "Overall: 43 H", "$659.99"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lost: text %q", want, text)
		}
	}
	if strings.Contains(text, "Office chair model") {
		t.Errorf("the grid of other products kept: %q", text)
	}
}

// TestSureServiceColumn: a page the model is sure is a service page keeps
// every section of its column, even when its region (one long section)
// holds most of the column's words; unsure, the region stands alone.
func TestSureServiceColumn(t *testing.T) {
	long := strings.Repeat("Our engineers audit your cloud accounts, find the open doors and close them before anyone walks through, and they explain every change to your team. ", 8)
	var cards strings.Builder
	for _, name := range []string{"Network monitoring", "Backup and recovery", "Staff training"} {
		fmt.Fprintf(&cards, `<div class="col"><div class="card"><h3>%s</h3><p>We set it up in a week and look after it every day of the year.</p></div></div>`, name)
	}
	var partners strings.Builder
	for i := range 10 {
		fmt.Fprintf(&partners, `<div class="logo"><a href="https://partner%d.example.com/">Partner company number %d</a></div>`, i, i)
	}
	page := `<html><body><header><nav><a href="/">Home</a> <a href="/services">Services</a></nav></header><main><section class="intro"><div><div><h1>Cloud security</h1><p>` + long +
		`</p></div></div></section></main><section><h2>Our partners</h2>` + partners.String() + `</section><section class="more"><div class="row">` + cards.String() + `</div></section><footer><a href="/jobs">Jobs</a></footer></body></html>`
	for _, conf := range []float64{0.9, 0.3} {
		p := classifyAs(t, page, Options{}, TypeService, conf)
		if got, want := strings.Contains(p.Text(), "Backup and recovery"), conf >= sureItemsProb; got != want {
			t.Errorf("confidence %.1f: the other sections kept %v, want %v; text %q", conf, got, want, p.Text())
		}
	}
}

// classifyAs parses page, gives it the page type pt with the model's
// confidence conf, as ClassifyType would, and classifies its blocks.
func classifyAs(t *testing.T, page string, opts Options, pt PageType, conf float64) *Page {
	t.Helper()
	p, err := Parse([]byte(page), opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Type, p.TypeConfidence = pt, conf
	Classify(p)
	return p
}

// TestColumnLeavesOverlays: the main column of a page of sections does not
// take back a cookie notice or a dialog that dropOverlays removed; they
// are over the page, not in its column.
func TestColumnLeavesOverlays(t *testing.T) {
	var cards strings.Builder
	for _, name := range []string{"Network monitoring", "Backup and recovery", "Staff training"} {
		fmt.Fprintf(&cards, `<div class="col"><div class="card"><h3>%s</h3><p>We set it up in a week and look after it every day of the year.</p></div></div>`, name)
	}
	page := `<html><body><header><nav><a href="/">Home</a> <a href="/services">Services</a></nav></header><main><h1>Our services</h1>` + cards.String() +
		`<div class="notice-box"><p>This site uses cookies to improve your experience. By continuing you consent to our privacy policy and our partners' analytics.</p></div>` +
		`<div role="dialog"><p>Choose your store before you add items to the cart, so that we can show you the delivery times.</p></div>` +
		`</main><footer><a href="/jobs">Jobs</a></footer></body></html>`
	text := classifyAs(t, page, Options{}, TypeService, 0.9).Text()
	if !strings.Contains(text, "Backup and recovery") {
		t.Fatalf("the column lost its sections: %q", text)
	}
	for _, gone := range []string{"uses cookies", "Choose your store"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q taken back by the column: %q", gone, text)
		}
	}
}

// TestDocColumnFromTitle: the main column of a documentation page begins
// at its title; the version picker and breadcrumbs above it stay out,
// while the sections under it come back.
func TestDocColumnFromTitle(t *testing.T) {
	var sections strings.Builder
	for _, name := range []string{"Creating an index", "Dropping an index", "Index types"} {
		fmt.Fprintf(&sections, `<div class="sect"><h2>%s</h2><p>See the reference page of the command.</p></div>`, name)
	}
	long := strings.Repeat("An index lets the database server find and retrieve specific rows much faster than it could do without one, but it adds overhead to the system as a whole. ", 5)
	page := `<html><head><title>Chapter 11. Indexes</title></head><body><div class="top"><div><p>Documentation → Server 18</p><p>Supported versions: Current (18) / 17 / 16 / 15 / 14</p></div></div>` +
		`<div class="content"><h1>Chapter 11. Indexes</h1><div><p>` + long + `</p></div>` + sections.String() + `</div></body></html>`
	text := classifyAs(t, page, Options{}, TypeDocumentation, 0.9).Text()
	if !strings.Contains(text, "Dropping an index") {
		t.Fatalf("the column lost its sections: %q", text)
	}
	if strings.Contains(text, "Supported versions") {
		t.Errorf("the version picker above the title kept: %q", text)
	}
}

// TestServiceHub: a service page whose region is one section of running
// text keeps the rest of its column when that holds more text than the
// region's running text, even when the model is unsure of the type: a
// guide's hub page (an introduction over its chapters, then a glossary
// and the guide's other parts) is sections, not an article.
func TestServiceHub(t *testing.T) {
	intro := "If you want to learn how to grow vegetables at home, you have come to the right place. This guide has everything you need to plan, plant and harvest a small garden, from the soil to the seeds, and it is written for people who have never grown anything before. Read it from the start, or pick the chapter you need today."
	var glossary strings.Builder
	for _, term := range []string{"Compost", "Mulch", "Loam", "Tilth", "Humus", "Legume", "Cloche", "Seedling", "Bolting", "Hardening off"} {
		fmt.Fprintf(&glossary, `<div><div><div>%s:</div></div><div><p>A word gardeners use, in plain terms.</p></div><div><a href="/g/1">Examples</a></div><div><a href="/g/2">Pictures</a></div><div><a href="/g/3">Videos</a></div></div>`, term)
	}
	page := `<html><body><header><nav><a href="/">Home</a> <a href="/guides">Guides</a></nav></header>` +
		`<section><div><h1>The beginner's guide to vegetables</h1><div><div><p>` + intro + `</p></div></div></div></section>` +
		`<section><div><h2>Garden glossary</h2><div>` + glossary.String() + `</div></div></section><footer><a href="/jobs">Jobs</a></footer></body></html>`
	p := classifyAs(t, page, Options{}, TypeService, 0.3)
	if text := p.Text(); !strings.Contains(text, "Garden glossary") || !strings.Contains(text, "in plain terms") {
		t.Errorf("the glossary lost: %q", text)
	}
}

// TestColumnLeavesLandmarks: the main column of a page of sections leaves
// out the chrome that ARIA roles mark on plain divs (a wiki's tool boxes
// with role="navigation", a footer with role="contentinfo") as it leaves
// out <nav> and <footer>.
func TestColumnLeavesLandmarks(t *testing.T) {
	var sections strings.Builder
	for _, s := range []string{"Memory settings", "Disk layout", "Query plans"} {
		fmt.Fprintf(&sections, `<div class="sect"><h2>%s</h2><p>Tune the %s of the server before the load grows.</p><ul><li>Read the guide to %s first.</li></ul></div>`, s, strings.ToLower(s), strings.ToLower(s))
	}
	page := `<html><head><title>Performance</title></head><body><div id="wrap"><div id="content"><h1>Performance</h1>` +
		`<p>This page gathers what the project knows about making the database fast, from the settings of a fresh install to the way one reads a query plan, with links to the longer guides for each part.</p>` +
		sections.String() + `</div>` +
		`<div id="column-one"><div role="navigation"><h3>Tools</h3><ul><li><a href="/links">What links here</a></li><li><a href="/changes">Related changes</a></li></ul></div>` +
		`<div role="navigation"><h3>Pages</h3><ul><li><a href="/">Front page</a></li><li><a href="/random">Any page at all</a></li></ul></div></div>` +
		`<div role="contentinfo"><p>Content is available under the project licence.</p></div></div></body></html>`
	text := classifyAs(t, page, Options{}, TypeDocumentation, 0.9).Text()
	for _, want := range []string{"Disk layout", "reads a query plan"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lost: %q", want, text)
		}
	}
	for _, chrome := range []string{"What links here", "Any page at all", "project licence"} {
		if strings.Contains(text, chrome) {
			t.Errorf("chrome %q kept: %q", chrome, text)
		}
	}
}
