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

// dropReviews is the reviews rule of product pages (ReasonReviews).
func (c *classifier) dropReviews() {
	p := c.page
	if p.Type != TypeProduct {
		return
	}
	reviews := underAny(reviewNamed)
	for _, b := range p.Blocks {
		if b.Label != Content || b.Firm || b.Kind == Title || !onlyDensity(b) {
			continue
		}
		if reviews(b.Node) {
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonReviews, -1)
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
