package dedup

import (
	"fmt"
	"math"
)

// mix64 is the splitmix64 finaliser: a bijection that spreads every input
// bit over the output, used to derive the MinHash permutations.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// MinHasher computes MinHash signatures (Broder, "On the resemblance and
// containment of documents", 1997): for each of NumPerm hash functions the
// smallest hash over the document's features. Two signatures agree in a
// position with probability equal to the Jaccard similarity of the sets.
type MinHasher struct {
	seeds []uint64
}

// NewMinHasher makes numPerm hash functions from seed; the same seed gives
// the same signatures.
func NewMinHasher(numPerm int, seed uint64) *MinHasher {
	m := &MinHasher{seeds: make([]uint64, numPerm)}
	s := seed
	for i := range m.seeds {
		s += 0x9e3779b97f4a7c15
		m.seeds[i] = mix64(s)
	}
	return m
}

// NumPerm is the signature length.
func (m *MinHasher) NumPerm() int { return len(m.seeds) }

// Signature returns the MinHash signature of a feature set (weights are
// ignored). An empty set gives nil.
func (m *MinHasher) Signature(feats []Feature) []uint64 {
	if len(feats) == 0 {
		return nil
	}
	sig := make([]uint64, len(m.seeds))
	for i := range sig {
		sig[i] = math.MaxUint64
	}
	for _, f := range feats {
		for i, s := range m.seeds {
			if h := mix64(f.Hash ^ s); h < sig[i] {
				sig[i] = h
			}
		}
	}
	return sig
}

// EstimateJaccard is the share of positions where two signatures agree.
func EstimateJaccard(a, b []uint64) float64 { return agreement(a, b) }

// agreement is the share of positions where two equally long signatures
// agree; 0 when they differ in length or are empty.
func agreement[T comparable](a, b []T) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	return float64(sameCount(a, b)) / float64(len(a))
}

// sameCount is the number of positions in which two signatures of one
// length are equal (0 for lengths that differ).
func sameCount[T comparable](a, b []T) int {
	if len(a) != len(b) {
		return 0
	}
	n := 0
	for i := range a {
		if a[i] == b[i] {
			n++
		}
	}
	return n
}

// Bands is an LSH banding: a signature is cut into B bands of R rows, and
// two documents become candidates when any band is identical.
type Bands struct {
	B, R int
}

// Probability is the chance that two documents of Jaccard similarity s
// become candidates: 1 - (1 - s^R)^B.
func (b Bands) Probability(s float64) float64 {
	return 1 - math.Pow(1-math.Pow(s, float64(b.R)), float64(b.B))
}

// String gives the setting with the seeds' figures: the probability that
// a pair is missed at a few similarities, and that a dissimilar pair is
// compared at all. For B=20, R=5 a pair of similarity 0.8 is missed with
// probability 0.00035.
func (b Bands) String() string {
	return fmt.Sprintf("%d bands x %d rows: missed at s=0.9 %.2g, s=0.8 %.2g, s=0.7 %.2g; compared at s=0.5 %.2g, s=0.3 %.2g",
		b.B, b.R, 1-b.Probability(0.9), 1-b.Probability(0.8), 1-b.Probability(0.7), b.Probability(0.5), b.Probability(0.3))
}

// ChooseBands picks B and R with B*R <= numPerm for a similarity threshold
// by minimising the area of false positives below the threshold plus the
// area of false negatives above it (each integrated over s), weighted by
// fpWeight and fnWeight.
func ChooseBands(threshold float64, numPerm int, fpWeight, fnWeight float64) Bands {
	best := Bands{B: 1, R: numPerm}
	bestErr := math.Inf(1)
	for b := 1; b <= numPerm; b++ {
		for r := 1; b*r <= numPerm; r++ {
			bd := Bands{B: b, R: r}
			fp := integrate(bd.Probability, 0, threshold)
			fn := integrate(func(s float64) float64 { return 1 - bd.Probability(s) }, threshold, 1)
			if e := fpWeight*fp + fnWeight*fn; e < bestErr-1e-12 {
				best, bestErr = bd, e
			}
		}
	}
	return best
}

// integrate is the trapezoid rule with 100 steps.
func integrate(f func(float64) float64, a, b float64) float64 {
	const n = 100
	h := (b - a) / n
	sum := (f(a) + f(b)) / 2
	for i := 1; i < n; i++ {
		sum += f(a + float64(i)*h)
	}
	return sum * h
}

// bandKeys returns the key of every band of a signature.
func (b Bands) bandKeys(sig []uint64) []uint64 {
	keys := make([]uint64, b.B)
	for i := range keys {
		h := uint64(i) * 0x9e3779b97f4a7c15
		for _, v := range sig[i*b.R : (i+1)*b.R] {
			h = mix64(h ^ v)
		}
		keys[i] = h
	}
	return keys
}
