package dedup

import "math"

// IDF holds the inverse document frequencies of a collection's features.
type IDF struct {
	n  int
	df map[uint64]int
}

// NewIDF counts in how many documents each feature occurs.
func NewIDF(collection [][]Feature) *IDF {
	idf := &IDF{n: len(collection), df: make(map[uint64]int)}
	for _, feats := range collection {
		for _, f := range feats {
			idf.df[f.Hash]++
		}
	}
	return idf
}

// Weight is log(N / df) for a feature, and log(N) for one the collection
// has not seen.
func (idf *IDF) Weight(h uint64) float64 {
	return math.Log(float64(idf.n+1) / float64(idf.df[h]+1))
}

// Apply returns the features with TF*IDF weights: a shingle that most pages
// of a crawl share (a footer's, a menu's) weighs little in the SimHash.
func (idf *IDF) Apply(feats []Feature) []Feature {
	out := make([]Feature, len(feats))
	for i, f := range feats {
		out[i] = Feature{Hash: f.Hash, Weight: f.Weight * idf.Weight(f.Hash)}
	}
	return out
}
