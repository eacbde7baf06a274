// Package softmax turns the scores of a multinomial logistic regression
// into probabilities: the page-type model applies it (extract) and its
// trainer learns through it (internal/tools/trainpagetype).
package softmax

import "math"

// Normalize replaces the scores z by their softmax, exp(z_i) / Σ exp(z_j),
// in place. The largest score is subtracted first, so large scores do not
// overflow.
func Normalize(z []float64) {
	top := math.Inf(-1)
	for _, v := range z {
		top = max(top, v)
	}
	var sum float64
	for i, v := range z {
		z[i] = math.Exp(v - top)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
}
