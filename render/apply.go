package render

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/extract"
)

// Stage is the name the layout stage votes under.
const Stage = extract.StageRender

// Hidden says why a box is not seen on the page, or "" when it is.
func (l *Layout) Hidden(b Box) string {
	switch {
	case b.Rects == 0:
		return "display-none" // the element or an ancestor
	case b.Visibility == "hidden" || b.Visibility == "collapse":
		return "visibility-hidden"
	case b.W <= 0 || b.H <= 0:
		return "zero-size"
	case b.X+b.W <= 0 || b.Y+b.H <= 0 || b.X >= math.Max(l.Width, ViewportWidth):
		return "off-screen"
	}
	return ""
}

// Column is the horizontal extent that holds the most words on the
// rendered page: the main column the content is expected in.
func (l *Layout) Column(p *extract.Page, ids map[*html.Node]int) (x0, x1 float64) {
	best := -1
	for _, b := range p.Blocks {
		box, ok := l.Boxes[ids[b.Node]]
		if !ok || l.Hidden(box) != "" {
			continue
		}
		words := 0
		for _, o := range p.Blocks {
			ob, ok := l.Boxes[ids[o.Node]]
			if ok && l.Hidden(ob) == "" && ob.X >= box.X-1 && ob.X+ob.W <= box.X+box.W+1 {
				words += o.Words
			}
		}
		// The narrowest box that holds the most words.
		if words > best || words == best && box.W < x1-x0 {
			best, x0, x1 = words, box.X, box.X+box.W
		}
	}
	return x0, x1
}

// Apply adds the layout's evidence to the page's blocks. A block no
// earlier stage labelled that the reader cannot see (display:none on it
// or an ancestor, visibility hidden, no size, off the page; but for a
// block of a tab panel, which a tab opens) or that is
// fixed to the window (a fixed or sticky bar or sidebar) becomes
// boilerplate (render.hidden comes before the template and the density
// classifier). Every block gets a reason with its position relative to the
// main column and its font size; a block off the column or in fine print
// is marked Aside, and weighs half in the density classifier.
func Apply(p *extract.Page, l *Layout, ids map[*html.Node]int) {
	x0, x1 := l.Column(p, ids)
	body := l.bodyFont(p, ids, x0, x1)
	for _, b := range p.Blocks {
		box, ok := l.Boxes[ids[b.Node]]
		if !ok {
			continue
		}
		if b.Label == extract.Unknown {
			if why := l.Hidden(box); why != "" {
				if extract.InTabPanel(b.Node) {
					// A closed tab's panel: the segmenter reads it as the
					// page's text, and so does this stage.
					b.Vote(Stage, "hidden:"+why+" in a tab panel", 0)
					continue
				}
				b.Label = extract.Boilerplate
				b.Vote(Stage, "hidden:"+why, -1)
				continue
			}
			if fixedAncestor(b.Node, l, ids) {
				b.Label = extract.Boilerplate
				b.Vote(Stage, "fixed", -1)
				continue
			}
		}
		where := "in-column"
		if c := box.X + box.W/2; c < x0 || c > x1 {
			where = "off-column"
			b.Aside = true
		}
		b.Vote(Stage, fmt.Sprintf("%s x=%.0f w=%.0f font=%.0fpx", where, box.X, box.W, box.FontSize), 0)
		if body > 0 && box.FontSize > 0 && box.FontSize < smallFont*body {
			b.Aside = true
			b.Vote(Stage, fmt.Sprintf("small-font %.0fpx against %.0fpx", box.FontSize, body), 0)
		}
	}
}

// smallFont: text set below this share of the main column's usual size
// is fine print (a footer, a credit line, a legal notice).
const smallFont = 0.8

// bodyFont is the font size of most of the words in the main column.
func (l *Layout) bodyFont(p *extract.Page, ids map[*html.Node]int, x0, x1 float64) float64 {
	words := map[float64]int{}
	for _, b := range p.Blocks {
		box, ok := l.Boxes[ids[b.Node]]
		if !ok || l.Hidden(box) != "" || box.X+box.W/2 < x0 || box.X+box.W/2 > x1 {
			continue
		}
		words[box.FontSize] += b.Words
	}
	best, most := 0.0, 0
	for f, w := range words {
		if w > most || w == most && f > best {
			best, most = f, w
		}
	}
	return best
}

// fixedAncestor reports whether n or an ancestor is fixed or sticky.
func fixedAncestor(n *html.Node, l *Layout, ids map[*html.Node]int) bool {
	for ; n != nil; n = n.Parent {
		if box, ok := l.Boxes[ids[n]]; ok && (box.Position == "fixed" || box.Position == "sticky") {
			return true
		}
	}
	return false
}

// Page renders a parsed page in b (its tree serialised with ids, served
// as pageURL) and applies the layout to its blocks.
func Page(ctx context.Context, b Browser, p *extract.Page, pageURL string, res Resources, opts Options) (*Layout, error) {
	raw, ids, err := Serialize(p.Doc)
	if err != nil {
		return nil, err
	}
	l, err := b.Render(ctx, pageURL, raw, res, opts)
	if err != nil {
		return nil, err
	}
	Apply(p, l, ids)
	return l, nil
}

// HTTPResources fetches subresources from the network, for a live page
// (winnow extract URL --render): GET only, with a time limit and a size
// cap per resource.
type HTTPResources struct {
	Client    *http.Client
	MaxBytes  int64
	UserAgent string
}

// Resource implements Resources.
func (h HTTPResources) Resource(u string) ([]byte, string, bool) {
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return nil, "", false
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, "", false
	}
	if h.UserAgent != "" {
		req.Header.Set("User-Agent", h.UserAgent)
	}
	client := h.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", false
	}
	limit := h.MaxBytes
	if limit <= 0 {
		limit = 8 << 20
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, "", false
	}
	return b, resp.Header.Get("Content-Type"), true
}
