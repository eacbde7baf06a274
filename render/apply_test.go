package render

import (
	"testing"

	"github.com/winnow-go/winnow/extract"
)

// TestApplyTabPanel: a block the layout cannot see becomes boilerplate,
// but not one in a tab panel (role="tabpanel"), whose text the segmenter
// reads as the page's though a closed tab hides it.
func TestApplyTabPanel(t *testing.T) {
	raw := []byte(`<html><body><h1>Install</h1><p>Pick your language and follow the steps below to install the client.</p>
<div role="tabpanel" class="closed"><p>Run the installer for this language and then import the client in your code.</p></div>
<div class="gone"><p>Subscribe to our newsletter for weekly updates and offers in your inbox.</p></div></body></html>`)
	p, err := extract.Parse(raw, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, ids, err := Serialize(p.Doc)
	if err != nil {
		t.Fatal(err)
	}
	l := &Layout{Boxes: map[int]Box{}, Width: 1280, Height: 800}
	var panel, gone *extract.Block
	for _, b := range p.Blocks {
		box := Box{Rects: 1, X: 100, Y: 100, W: 600, H: 20, FontSize: 16}
		switch text := b.Text; {
		case len(text) > 3 && text[:3] == "Run":
			panel, box = b, Box{}
		case len(text) > 3 && text[:3] == "Sub":
			gone, box = b, Box{}
		}
		l.Boxes[ids[b.Node]] = box
	}
	if panel == nil || gone == nil {
		t.Fatalf("blocks %v", p.Blocks)
	}
	Apply(p, l, ids)
	if gone.Label != extract.Boilerplate {
		t.Errorf("hidden block: %v, want boilerplate", gone.Label)
	}
	if panel.Label != extract.Unknown {
		t.Errorf("tab panel's block: %v %v, want it left to the classifier", panel.Label, panel.Reasons)
	}
}
