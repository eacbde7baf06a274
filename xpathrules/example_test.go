package xpathrules_test

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/xpathrules"
)

// A rule for one site's news pages: the story is the content, its share
// buttons are dropped, and the headline is the title. Selectors starting
// with "/" are XPath, the others CSS.
const rulesYAML = `
- name: quayside news
  host: quayside.example
  path: /news/
  content: //div[@class='story']
  drop: css:.share
  title: css:h1.headline
`

const storyPage = `<html><head><title>Quayside | News | Fish prices</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news/">News</a> <a href="/shop/">Shop</a></div>
<div class="story">
<h1 class="headline">Fish prices fall</h1>
<p>Prices at the morning auction fell for the third week running as the boats brought in a record catch.</p>
<div class="share"><a href="#">Share</a> <a href="#">Post</a> <a href="#">Mail</a></div>
<p>Traders expect them to rise again once the autumn storms keep the fleet in port.</p>
</div>
<div class="footer">Quayside News, 1 Harbour Road</div>
</body></html>`

// Load a rule from YAML, find the rule for a page's URL, and apply it to
// the parsed page: the blocks inside the content selector are kept, the
// rest (and what the drop selector names) is boilerplate.
func ExampleRule_Apply() {
	rules, errs := xpathrules.ParseYAML("rules.yaml", []byte(rulesYAML))
	if len(errs) > 0 {
		fmt.Println(errors.Join(errs...))
		return
	}
	set := &xpathrules.Set{Rules: rules}

	other, _ := url.Parse("https://quayside.example/shop/nets")
	fmt.Println("rule for /shop/:", set.Match(other) != nil)

	u, _ := url.Parse("https://www.quayside.example/news/fish-prices")
	page, err := extract.Parse([]byte(storyPage), extract.Options{URL: u})
	if err != nil {
		fmt.Println(err)
		return
	}
	rule := set.Match(page.URL)
	if rule == nil {
		fmt.Println("no rule")
		return
	}
	out := rule.Apply(page, 0)
	fmt.Printf("rule %q: %s, %d content words, %d words dropped\n", rule.Name, out.Status, out.ContentWords, out.Dropped)
	fmt.Println("title:", page.Title)
	fmt.Println(page.Text())
	// Output:
	// rule for /shop/: false
	// rule "quayside news": ok, 37 content words, 3 words dropped
	// title: Fish prices fall
	// Fish prices fall
	//
	// Prices at the morning auction fell for the third week running as the boats brought in a record catch.
	//
	// Traders expect them to rise again once the autumn storms keep the fleet in port.
}
