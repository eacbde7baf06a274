package dedup

import (
	"math"
	"math/bits"
)

// OnePermHasher computes MinHash signatures with one hash per feature
// instead of one per position: one permutation hashing (Li, Owen and
// Zhang, "One Permutation Hashing", NIPS 2012) splits the hash range into
// K bins and keeps the smallest hash in each, and optimal densification
// (Shrivastava, "Optimal Densification for Fast and Accurate Minwise
// Hashing", ICML 2017) fills an empty bin from the bin that a fixed
// sequence of probes, the same for every document, first finds full. Two
// signatures agree in a position with probability equal to the Jaccard
// similarity of the sets, as with K permutations, at a K-th of the cost:
// on 3-word shingles of 3 kB texts (about 800 shingles) signing takes
// about 5 ns a shingle against 145 ns for MinHasher's 128 permutations.
// The Streamer signs with it; Cluster keeps MinHasher.
type OnePermHasher struct {
	k    int
	seed uint64
}

// NewOnePermHasher makes a hasher of k bins from seed.
func NewOnePermHasher(k int, seed uint64) *OnePermHasher {
	return &OnePermHasher{k: k, seed: mix64(seed ^ 0x243f6a8885a308d3)}
}

// Signature returns the signature of a set of feature hashes (repeats
// and order do not matter); an empty set gives nil.
func (o *OnePermHasher) Signature(hashes []uint64) []uint64 {
	if len(hashes) == 0 {
		return nil
	}
	sig := make([]uint64, o.k)
	for i := range sig {
		sig[i] = math.MaxUint64
	}
	k := uint64(o.k)
	for _, x := range hashes {
		h := mix64(x ^ o.seed)
		bin, _ := bits.Mul64(h, k) // the high bits pick the bin
		if v := h * 0x9e3779b97f4a7c15; v < sig[bin] {
			sig[bin] = v // the low bits, spread, are the value
		}
	}
	empty := false
	for _, v := range sig {
		if v == math.MaxUint64 {
			empty = true
			break
		}
	}
	if !empty {
		return sig
	}
	full := append([]uint64(nil), sig...)
	for i := range sig {
		if full[i] != math.MaxUint64 {
			continue
		}
		// Probe bins with a sequence seeded by the empty bin's place,
		// the same in every document (2-universal in the attempt).
		for attempt := uint64(1); ; attempt++ {
			j, _ := bits.Mul64(mix64(uint64(i)<<32^attempt^o.seed), k)
			if full[j] != math.MaxUint64 {
				sig[i] = full[j]
				break
			}
		}
	}
	return sig
}
