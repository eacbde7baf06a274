package extract

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"testing"
)

func TestDebugRegion(t *testing.T) {
	f, _ := os.Open(os.Getenv("PAGE"))
	zr, _ := gzip.NewReader(f)
	b, _ := io.ReadAll(zr)
	p, _ := Parse(b, Options{})
	c := newClassifier(p)
	for i, b := range p.Blocks {
		if b.Words > 5 {
			fmt.Printf("%d w=%.1f hint=%d %s teaser=%v %q\n", i, c.w[i], b.hint, b.hintRule, b.teaser, b.Text[:min(50, len(b.Text))])
		}
	}
	r := c.region()
	fmt.Println("region", r.Data, attr(r, "class"), attr(r, "id"), c.weight[r], c.span[r])
	for n := r; n != nil; n = n.Parent {
		fmt.Println("  up", n.Data, attr(n, "class"), attr(n, "id"), c.weight[n])
	}
}
