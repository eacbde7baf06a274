package infholder_test

import (
	"fmt"
	"net/url"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
)

// gazettePage is a page of one small site: the same navigation, masthead
// and footer on every page around an article of its own.
func gazettePage(rawURL, title, article string) *extract.Page {
	html := `<html><body>
<div id="nav"><a href="/">Home</a> <a href="/harbour/">Harbour</a> <a href="/weather/">Weather</a></div>
<div class="masthead"><p>The Harbour Gazette</p><p>News from the quays since 1921</p></div>
<div class="story"><h1>` + title + `</h1><p>` + article + `</p></div>
<div class="footer"><p>Letters to the editor</p><p>Advertise with us</p><p>© The Harbour Gazette</p></div>
</body></html>`
	u, _ := url.Parse(rawURL)
	p, err := extract.Parse([]byte(html), extract.Options{URL: u})
	if err != nil {
		panic(err)
	}
	return p
}

// Learn a site's template from three of its pages, then apply it to a
// fourth page the template was not learned from: the blocks every page
// shares are marked as boilerplate, the article is left alone.
func ExampleLearn() {
	pages := []*extract.Page{
		gazettePage("https://gazette.example/harbour/ferry", "Ferry returns",
			"The morning ferry is back on its old timetable after three weeks of repairs to the ramp."),
		gazettePage("https://gazette.example/harbour/dredging", "Dredging starts",
			"Dredgers begin work on the inner basin on Monday; moorings there move to the north wall."),
		gazettePage("https://gazette.example/harbour/regatta", "Regatta entries open",
			"Crews can enter this summer's regatta until the end of June at the harbour master's office."),
	}
	// Pages are grouped by site and path; each group learns its own
	// template (a group needs infholder.MinPages pages).
	urls := make([]string, len(pages))
	for i, p := range pages {
		urls[i] = p.URL.String()
	}
	group := infholder.GroupKeys(urls, infholder.MinPages)[0]
	tpl := infholder.Learn(group, pages, infholder.Options{})
	fmt.Println("group:", group)

	fresh := gazettePage("https://gazette.example/harbour/lighthouse", "Lighthouse repainted",
		"Painters finished the lighthouse this week, in the red and white bands it wore a century ago.")
	share := tpl.Apply(fresh, infholder.Options{})
	fmt.Printf("template blocks: %.0f%%\n", 100*share)
	for _, b := range fresh.Blocks {
		if b.Label == extract.Boilerplate {
			fmt.Println("template:", b.Text)
		} else {
			fmt.Println("page:    ", b.Text)
		}
	}
	// Output:
	// group: gazette.example/harbour/
	// template blocks: 75%
	// template: Home Harbour Weather
	// template: The Harbour Gazette
	// template: News from the quays since 1921
	// page:     Lighthouse repainted
	// page:     Painters finished the lighthouse this week, in the red and white bands it wore a century ago.
	// template: Letters to the editor
	// template: Advertise with us
	// template: © The Harbour Gazette
}

// A batch run keeps a few bytes a page (a Sample) rather than the parsed
// pages, learns the template from the samples, and checks with Fit
// whether later pages still have the layout it was learned on.
func ExampleLearnSamples() {
	var samples []infholder.Sample
	for i, text := range []string{
		"Gulls nested on the fish market roof again, and the council will not move them before August.",
		"The quay lights were switched to LED lamps, which the harbour board says halves their cost.",
		"A seal has taken to sleeping on the slipway; the lifeboat crew ask visitors to keep away.",
	} {
		p := gazettePage(fmt.Sprintf("https://gazette.example/harbour/%d", i), fmt.Sprintf("Story %d", i), text)
		samples = append(samples, infholder.NewSample(p, infholder.SigContent))
	}
	tpl := infholder.LearnSamples("gazette.example/harbour/", samples, infholder.Options{})
	fmt.Printf("learned from %d pages: %d template blocks\n", tpl.Pages, len(tpl.Sigs))

	same := gazettePage("https://gazette.example/harbour/9", "Story 9", "Another story in the old layout.")
	fmt.Printf("same layout fits %.2f\n", tpl.Fit(infholder.NewSample(same, tpl.Signature)))

	redesigned, err := extract.Parse([]byte(`<html><body><header><p>Gazette</p></header>
<main><h1>Story 10</h1><p>The first story in the new layout.</p></main></body></html>`), extract.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("new layout fits %.2f\n", tpl.Fit(infholder.NewSample(redesigned, tpl.Signature)))
	// Output:
	// learned from 3 pages: 6 template blocks
	// same layout fits 1.00
	// new layout fits 0.00
}
