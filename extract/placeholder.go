package extract

import "strings"

// ReasonPlaceholder (boilerplate) marks a kept block of filler text, the
// "Lorem ipsum dolor sit amet" that page templates and builders show
// until someone writes the real text: no page means it, and a reader
// skips it. On wcxb-dev-even two pages kept such blocks (an article's
// unused template sections, a product page's empty tabs): 0.8592 ->
// 0.8598 (domain halves 0.8591 -> 0.8602 and, held out, 0.8592 ->
// 0.8594); the other sets hold no such text.
const ReasonPlaceholder = "placeholder"

// placeholderText opens filler text, lower-cased.
const placeholderText = "lorem ipsum"

// dropPlaceholders is the rule of ReasonPlaceholder; it runs after every
// rule that keeps blocks.
func (c *classifier) dropPlaceholders() {
	for _, b := range c.page.Blocks {
		if b.Label != Content || b.Firm {
			continue
		}
		t := strings.TrimLeft(b.Text, " \t\n\"“")
		if len(t) >= len(placeholderText) && strings.EqualFold(t[:len(placeholderText)], placeholderText) {
			b.Label = Boilerplate
			b.Vote(StageDensity, ReasonPlaceholder, -1)
		}
	}
}
