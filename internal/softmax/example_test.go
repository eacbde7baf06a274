package softmax_test

import (
	"fmt"

	"github.com/winnow-go/winnow/internal/softmax"
)

func ExampleNormalize() {
	z := []float64{1000, 1000, 1000 - 2*0.6931471805599453}
	softmax.Normalize(z)
	fmt.Printf("%.3f %.3f %.3f\n", z[0], z[1], z[2])
	// Output: 0.444 0.444 0.111
}
