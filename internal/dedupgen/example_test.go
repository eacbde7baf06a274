package dedupgen_test

import (
	"fmt"

	"github.com/winnow-go/winnow/internal/dedupgen"
)

// The gold of a generated collection uses this Jaccard: sets of 3-token
// shingles of the lower-cased text.
func ExampleCompare() {
	a := "The quick brown fox jumps over the lazy dog."
	b := "The quick brown fox leaps over the lazy dog. © 2024 Example News"
	o := dedupgen.Compare(a, b)
	fmt.Printf("shingles %d and %d, shared %d\n", o.SizeA, o.SizeB, o.Inter)
	fmt.Printf("jaccard %.3f, containment %.3f\n", o.Jaccard(), o.Containment())
	// Output:
	// shingles 7 and 10, shared 4
	// jaccard 0.308, containment 0.571
}
