package extract

import (
	"golang.org/x/net/html"
)

// ReasonReviews (boilerplate) marks, on a page ClassifyType calls a
// product page, a block the density stage kept under an element whose
// class or id names reviews or testimonials ("review-text",
// "tm-testimonial__content", "reviewsList"): a product's content is its
// title, price, description and specifications, and WCXB's golds of
// product pages leave its customers' reviews out, as the content
// model for products asks. Reviews are long running text, so the density
// region often takes them in (on wcxb-dev-even's product pages the kept
// text that is not gold was 36% of the output). Only a word that begins
// with the name counts, so "editorialReviews" (a publisher's description
// of a book) does not; on other page types a review is often the article
// itself.
const ReasonReviews = "reviews"

// reviewParts begin the class and id words that name reviews.
var reviewParts = []string{"review", "testimonial"}

// dropReviews is the reviews rule of product pages (ReasonReviews): the
// blocks of review sections that the passes after the region kept.
func (c *classifier) dropReviews() {
	if c.inReviews == nil {
		return
	}
	for _, b := range c.page.Blocks {
		if b.Label != Content || b.Firm || b.Kind == Title || !onlyDensity(b) {
			continue
		}
		if c.inReviews(b.Node) {
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonReviews, -1)
		}
	}
}

// discountReviews gives no weight, on a product page, to the blocks of
// its review sections, so that the density region is not a carousel of
// customers' praise (often the page's longest running text) while the
// description is left outside; dropReviews removes what the region
// still holds of them. A review-named element that holds most of the
// page's words is a wrapper whose name tells a layout, not a section.
func (c *classifier) discountReviews() {
	p := c.page
	if p.Type != TypeProduct {
		return
	}
	before := make([]int, len(p.Blocks)+1) // words of the blocks before index i
	for i, b := range p.Blocks {
		before[i+1] = before[i] + b.Words
	}
	total := before[len(p.Blocks)]
	c.inReviews = underAny(func(n *html.Node) bool {
		sp, ok := c.span[n]
		return ok && 2*(before[sp[1]+1]-before[sp[0]]) <= total && reviewNamed(n)
	})
	for i, b := range p.Blocks {
		if c.w[i] > 0 && c.inReviews(b.Node) {
			c.w[i] = 0
		}
	}
}

// reviewNamed reports whether an element's class or id has a word that
// begins with one of reviewParts.
func reviewNamed(n *html.Node) bool {
	var buf [16]string
	for _, a := range n.Attr {
		if (a.Key == "class" || a.Key == "id") && prefixIn(nameTokens(a.Val, buf[:0]), reviewParts) != "" {
			return true
		}
	}
	return false
}
