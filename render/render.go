// Package render is winnow's optional layout stage (seed 000: render the
// page, see where its blocks sit, expect the content near the centre). A
// page is rendered by a headless Chromium from winnow's own parsed tree,
// every element tagged with a stable data-winnow-id, with JavaScript off
// by default and its subresources served from a Resources (the pipeline
// backs it with the same WARC): no request reaches the network. The
// geometry maps back to extract's blocks as hidden, off-screen and fixed
// boxes, font sizes and positions, which vote in the blocks' reasons.
package render

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"time"

	"golang.org/x/net/html"
)

// IDAttr is the attribute that carries an element's id into the browser.
const IDAttr = "data-winnow-id"

// Box is the rendered geometry of one element, in CSS pixels of the page.
type Box struct {
	X, Y, W, H float64
	FontSize   float64
	Display    string
	Visibility string
	Position   string // static, relative, absolute, fixed, sticky
	Rects      int    // client rects: 0 when the element or an ancestor is display:none
}

// Layout is a rendered page.
type Layout struct {
	Boxes          map[int]Box // by data-winnow-id
	Width, Height  float64     // the document's scroll size
	ViewportWidth  float64
	ViewportHeight float64
	Requests       []Request // every request the page made, in order
}

// Request is one request the page made and what became of it.
type Request struct {
	URL    string `json:"url"`
	Served bool   `json:"served"`
	Why    string `json:"why"` // "document", "resource", or why it was blocked
}

// Resources serves a page's subresources (stylesheets, images, fonts).
type Resources interface {
	// Resource returns the body and content type stored for a URL.
	Resource(url string) (body []byte, contentType string, ok bool)
}

// NoResources serves nothing: every subresource is blocked.
type NoResources struct{}

// Resource implements Resources.
func (NoResources) Resource(string) ([]byte, string, bool) { return nil, "", false }

// Options configure one render.
type Options struct {
	JS      bool          // run the page's scripts (off by default)
	Timeout time.Duration // the page's time budget; 0 means DefaultTimeout
}

// DefaultTimeout is a page's time budget.
const DefaultTimeout = 20 * time.Second

// Viewport is the fixed window every page is rendered in.
const (
	ViewportWidth  = 1280
	ViewportHeight = 1024
)

// Browser renders pages.
type Browser interface {
	// Render loads doc (served as pageURL's document) with its
	// subresources from res and returns the layout of its elements.
	Render(ctx context.Context, pageURL string, doc []byte, res Resources, opts Options) (*Layout, error)
	// Close ends the browser and every process it started.
	Close() error
}

// ErrBrowser wraps a browser that cannot render: not found, crashed, hung.
var ErrBrowser = errors.New("render: browser")

// Serialize writes the tree as HTML with a data-winnow-id on every element
// and returns the ids by element. The tree is left as it was.
func Serialize(doc *html.Node) ([]byte, map[*html.Node]int, error) {
	ids := map[*html.Node]int{}
	var tagged []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			id := len(ids) + 1
			ids[n] = id
			n.Attr = append(n.Attr, html.Attribute{Key: IDAttr, Val: strconv.Itoa(id)})
			tagged = append(tagged, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	var buf bytes.Buffer
	err := html.Render(&buf, doc)
	for _, n := range tagged {
		n.Attr = n.Attr[:len(n.Attr)-1]
	}
	if err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), ids, nil
}
