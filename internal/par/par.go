// Package par runs independent pieces of work on a bounded number of
// goroutines.
package par

import (
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in [0, n) on at most workers goroutines
// (at least one) and returns when all calls have returned. Each index is
// taken by exactly one call; fn writes its result to a slot of its own,
// so the outcome does not depend on the scheduling.
func Each(n, workers int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
