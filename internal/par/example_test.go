package par_test

import (
	"fmt"

	"github.com/winnow-go/winnow/internal/par"
)

// Each result goes to a slot of its own, so the outcome does not depend
// on which goroutine ran what.
func ExampleEach() {
	squares := make([]int, 6)
	par.Each(len(squares), 3, func(i int) { squares[i] = i * i })
	fmt.Println(squares)
	// Output: [0 1 4 9 16 25]
}
