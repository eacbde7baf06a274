package dedup

import (
	"math"
	"testing"
)

// TestOnePermHasher: positions agree at the sets' Jaccard similarity,
// for sets larger and smaller than the number of bins (densified), and
// order and repeats do not matter.
func TestOnePermHasher(t *testing.T) {
	o := NewOnePermHasher(128, 0)
	if o.Signature(nil) != nil {
		t.Error("an empty set has a signature")
	}
	for _, tc := range []struct{ size, shared int }{{2000, 1800}, {1000, 600}, {60, 50}, {20, 12}, {3, 3}} {
		var sumA, n float64
		for trial := range 40 {
			var a, b []uint64
			base := uint64(trial) << 40
			for i := range tc.size {
				a = append(a, mix64(base+uint64(i)))
				if i < tc.shared {
					b = append(b, mix64(base+uint64(i)))
				} else {
					b = append(b, mix64(base+uint64(i)+1<<32))
				}
			}
			sa, sb := o.Signature(a), o.Signature(append(append([]uint64(nil), b...), b...))
			sumA += agreement(sa, sb)
			n++
		}
		want := float64(tc.shared) / float64(2*tc.size-tc.shared)
		if got := sumA / n; math.Abs(got-want) > 0.05 {
			t.Errorf("sets of %d sharing %d: agreement %.3f, Jaccard %.3f", tc.size, tc.shared, got, want)
		}
	}
}
