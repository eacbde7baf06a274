package dedupgen

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnow-go/winnow/internal/textseg"
)

// Tokens returns the tokens of the target definition: the maximal runs
// of `[\p{L}\p{N}_]+` in the lower-cased text, in order.
func Tokens(text string) []string {
	return textseg.Words(strings.ToLower(text), nil)
}

// Shingles returns the set of 3-token shingles of text: every run of
// three consecutive tokens (see [Tokens]), written as the three tokens
// joined by single spaces. A text of fewer than three tokens has none.
func Shingles(text string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, s := range shingleList(Tokens(text)) {
		set[s] = struct{}{}
	}
	return set
}

// Jaccard returns |A∩B| / |A∪B| of the shingle sets of a and b (see
// [Shingles]): the similarity the project's near-duplicate targets use.
// Two texts without shingles have a Jaccard of 0.
func Jaccard(a, b string) float64 {
	o := Compare(a, b)
	return o.Jaccard()
}

// Overlap holds the sizes behind a pair's Jaccard and containment, so a
// gold file can state them exactly.
type Overlap struct {
	SizeA, SizeB, Inter int
}

// Compare counts the shingles of a and b and those they share.
func Compare(a, b string) Overlap {
	sa, sb := sortedShingles(a), sortedShingles(b)
	return Overlap{SizeA: len(sa), SizeB: len(sb), Inter: intersectSorted(sa, sb)}
}

// Union returns |A∪B|.
func (o Overlap) Union() int { return o.SizeA + o.SizeB - o.Inter }

// Jaccard returns |A∩B| / |A∪B|, 0 when both sets are empty.
func (o Overlap) Jaccard() float64 {
	if o.Union() == 0 {
		return 0
	}
	return float64(o.Inter) / float64(o.Union())
}

// Containment returns |A∩B| / min(|A|, |B|): how much of the smaller set
// the other holds, the measure of text reuse. It is 0 when a set is empty.
func (o Overlap) Containment() float64 {
	m := min(o.SizeA, o.SizeB)
	if m == 0 {
		return 0
	}
	return float64(o.Inter) / float64(m)
}

// shingleList returns the shingles of a token list, with repeats.
func shingleList(tokens []string) []string {
	if len(tokens) < 3 {
		return nil
	}
	out := make([]string, 0, len(tokens)-2)
	for i := 0; i+3 <= len(tokens); i++ {
		out = append(out, tokens[i]+" "+tokens[i+1]+" "+tokens[i+2])
	}
	return out
}

// sortedShingles returns the shingle set of text as a sorted list without
// repeats: the exact form that Compare intersects.
func sortedShingles(text string) []string {
	s := shingleList(Tokens(text))
	slices.Sort(s)
	return slices.Compact(s)
}

func intersectSorted[T string | uint64](a, b []T) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// shingleHashes returns the 64-bit hashes of the shingle set of text,
// sorted and without repeats. The generator steers its edits with them,
// where a rare hash collision costs nothing; gold figures come from
// Compare, which is exact. It tokenises as Tokens does (strings.ToLower
// maps rune by rune with unicode.ToLower) without building strings.
func shingleHashes(text string) []uint64 {
	const prime = 0x100000001b3
	var th []uint64
	h, in := uint64(0xcbf29ce484222325), false
	end := func() {
		if in {
			th = append(th, splitmix(h))
			h, in = 0xcbf29ce484222325, false
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
				fallthrough
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '_':
				h, in = (h^uint64(c))*prime, true
			default:
				end()
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if l := unicode.ToLower(r); textseg.IsWordRune(l) {
			h, in = (h^uint64(l))*prime, true
		} else {
			end()
		}
	}
	end()
	if len(th) < 3 {
		return nil
	}
	out := make([]uint64, 0, len(th)-2)
	for i := 0; i+3 <= len(th); i++ {
		out = append(out, mix3(th[i], th[i+1], th[i+2]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// mix3 combines three token hashes into an order-sensitive shingle hash.
func mix3(a, b, c uint64) uint64 {
	h := a*0x9e3779b97f4a7c15 ^ b
	h = (h^h>>31)*0xbf58476d1ce4e5b9 ^ c
	return splitmix(h)
}

// splitmix is the SplitMix64 finaliser: a bijective scramble of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// hashJaccard is the Jaccard of two sorted hash sets.
func hashJaccard(a, b []uint64) float64 {
	inter := intersectSorted(a, b)
	u := len(a) + len(b) - inter
	if u == 0 {
		return 0
	}
	return float64(inter) / float64(u)
}
