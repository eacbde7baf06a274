package extract_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/extract"
)

func parseAt(t testing.TB, rawURL, page string) *extract.Page {
	t.Helper()
	u, _ := url.Parse(rawURL)
	p, err := extract.Parse([]byte(page), extract.Options{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTypeModelLoads: the embedded model's features are this build's
// (after adding a feature, train again: go run ./internal/tools/trainpagetype).
func TestTypeModelLoads(t *testing.T) {
	p := parseAt(t, "https://example.org/", `<p>Some words to classify here.</p>`)
	g := extract.ClassifyType(p)
	if !slices.ContainsFunc(g.Evidence, func(e string) bool { return strings.HasPrefix(e, "model:") }) {
		t.Fatalf("no model evidence in %v: the embedded model does not match the features", g.Evidence)
	}
}

// TestClassifyTypeEvidence: the named signals show as evidence, and
// broken JSON-LD still names its types.
func TestClassifyTypeEvidence(t *testing.T) {
	for _, c := range []struct {
		name, url, page string
		want            []string
	}{
		{"broken json-ld graph", "https://shop.example/product/blue-kettle",
			`<script type="application/ld+json">{"@graph":[{"@type":["Product","Thing"],"offers":{"@type":"Offer","price":"19.99",}}]</script>
<h1>Blue kettle</h1><p>A kettle. $19.99</p><form action="/cart/add"><button name="add-to-cart">Add to cart</button></form>`,
			[]string{"jsonld:Product", "jsonld:Offer", "url:/product/", "price-markup", "cart"}},
		{"og article and microdata", "https://news.example/2024/05/tides-and-the-moon",
			`<meta property="og:type" content="article"><article itemscope itemtype="https://schema.org/NewsArticle"><h1>Tides</h1><p>The tide rises.</p></article>`,
			[]string{"microdata:NewsArticle", "og:type=article", "url:/year/"}},
		{"a bulletin board's thread script", "http://bbs6.example.com/ent/readboardthread.php?forumcode=18&postid=118233",
			`<h1>Re: tides</h1><p>A post about the tides.</p>`,
			[]string{"host:forum", "url:/thread/"}},
		{"a Dvbbs thread", "http://bbs.example.org/dispbbs.asp?boardID=43&ID=238016",
			`<h1>Re: tides</h1><p>A post about the tides.</p>`,
			[]string{"host:forum", "url:/thread/"}},
		{"code", "https://docs.example/guide/install",
			`<h1>Install</h1><pre>go get x</pre><p>Then</p><pre>go run x</pre>`,
			[]string{"host:docs", "url:/docs/", "code-blocks:2"}},
	} {
		g := extract.ClassifyType(parseAt(t, c.url, c.page))
		for _, w := range c.want {
			if !slices.Contains(g.Evidence, w) {
				t.Errorf("%s: evidence %v lacks %q", c.name, g.Evidence, w)
			}
		}
	}
}

// TestClassifyTypeOther: a page with no text and no evidence is "other".
func TestClassifyTypeOther(t *testing.T) {
	g := extract.ClassifyType(parseAt(t, "", `<html><body><img src="x.png"></body></html>`))
	if g.Type != extract.TypeOther {
		t.Errorf("got %+v", g)
	}
}

// TestClassifyTypeRepeats: a page of many like cards, each a link and a
// line of text, shows its repeated items.
func TestClassifyTypeRepeats(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<h1>Kettles</h1><ul class="grid">`)
	for i := range 12 {
		fmt.Fprintf(&b, `<li class="card"><a href="/p/kettle-%d">Kettle number %d</a><span class="price">$%d.99</span></li>`, i, i, 10+i)
	}
	b.WriteString(`</ul>`)
	g := extract.ClassifyType(parseAt(t, "https://shop.example/collections/kettles", b.String()))
	if !slices.Contains(g.Evidence, "repeated-items:12") {
		t.Errorf("evidence %v", g.Evidence)
	}
	if g.Type != extract.TypeCollection && g.Type != extract.TypeListing {
		t.Errorf("type %s, want collection or listing (%v)", g.Type, g.Evidence)
	}
}

func ExampleClassifyType() {
	page := []byte(`<html><head><title>Blue kettle</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Blue kettle",
 "offers":{"@type":"Offer","price":"19.99","priceCurrency":"USD"}}</script></head>
<body><h1>Blue kettle</h1><p>A 1.7 litre kettle in blue enamel.</p><p class="price">$19.99</p>
<form action="/cart/add"><button name="add-to-cart">Add to cart</button></form></body></html>`)
	u, _ := url.Parse("https://shop.example/products/blue-kettle")
	p, err := extract.Parse(page, extract.Options{URL: u})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := extract.ClassifyType(p)
	fmt.Println(g.Type)
	fmt.Println(strings.Join(g.Evidence[:4], " "))
	// Output:
	// product
	// stated:product-url+price jsonld:Product jsonld:Offer url:/product/
}
