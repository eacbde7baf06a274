package dedup

import "math"

// IDF holds the inverse document frequencies of a collection's features.
type IDF struct {
	n    int
	df   map[uint64]int
	freq *DocFreq
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

// IDFFromDocFreq returns the IDF of a collection whose documents'
// features (the hashes of Normalizer.Features) were counted in f: for
// the features of those documents, the same weights as NewIDF over them.
func IDFFromDocFreq(f *DocFreq) *IDF { return &IDF{n: f.Docs(), freq: f} }

// Weight is log((N+1) / (df+1)) for a feature, and log(N+1) for one the
// collection has not seen (with IDFFromDocFreq a feature must be one of
// the collection's).
func (idf *IDF) Weight(h uint64) float64 {
	df := 0
	if idf.freq != nil {
		df = idf.freq.Count(h)
	} else {
		df = idf.df[h]
	}
	return math.Log(float64(idf.n+1) / float64(df+1))
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
