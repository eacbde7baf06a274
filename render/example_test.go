package render_test

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/render"
)

// Serialize is how a page goes to the browser: winnow's own parsed tree,
// every element tagged with its id, so that the geometry the browser
// measures comes back to the blocks.
func ExampleSerialize() {
	doc, _ := html.Parse(strings.NewReader(`<p>Hello <b>world</b></p>`))
	out, ids, err := render.Serialize(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	fmt.Println(len(ids), "elements")
	// Output:
	// <html data-winnow-id="1"><head data-winnow-id="2"></head><body data-winnow-id="3"><p data-winnow-id="4">Hello <b data-winnow-id="5">world</b></p></body></html>
	// 5 elements
}
