package dedup

import "math"

// Jaccard is |A∩B| / |A∪B| of two feature sets sorted by hash (as
// Normalizer.Features returns them); weights are ignored.
func Jaccard(a, b []Feature) float64 {
	inter := intersect(a, b)
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// Containment is |A∩B| / |A|: how much of A is in B. It suits a short
// answer copied from a long source, where Jaccard stays low.
func Containment(a, b []Feature) float64 {
	if len(a) == 0 {
		return 0
	}
	return float64(intersect(a, b)) / float64(len(a))
}

// Cosine is the cosine of the angle between the two weighted profiles, as
// seed 002 compares texts.
func Cosine(a, b []Feature) float64 {
	var dot, na, nb float64
	eachCommon(a, b, func(x, y Feature) { dot += x.Weight * y.Weight })
	for _, f := range a {
		na += f.Weight * f.Weight
	}
	for _, f := range b {
		nb += f.Weight * f.Weight
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func intersect(a, b []Feature) int {
	n := 0
	eachCommon(a, b, func(Feature, Feature) { n++ })
	return n
}

// eachCommon calls fn for each hash the two sorted feature lists share.
func eachCommon(a, b []Feature, fn func(x, y Feature)) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].Hash < b[j].Hash:
			i++
		case a[i].Hash > b[j].Hash:
			j++
		default:
			fn(a[i], b[j])
			i++
			j++
		}
	}
}
