package par

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 4}, {1, 0}, {7, 1}, {100, 3}, {3, 16}} {
		seen := make([]atomic.Int32, c.n)
		Each(c.n, c.workers, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("n=%d workers=%d: index %d ran %d times", c.n, c.workers, i, got)
			}
		}
	}
}
