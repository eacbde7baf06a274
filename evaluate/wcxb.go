package evaluate

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnow-go/winnow/internal/textseg"
)

// The WCXB metric (Murrough-Foley/web-content-extraction-benchmark,
// evaluate.py) as ../shared/data/README.md defines it for wcxb-dev-even:
// tokens are re.findall(r'\w+', text.lower()), a page's P, R and F1 come
// from the overlap of the two token multisets, and the corpus figures are
// plain means over the pages (also per page type).

// WCXBTokens splits s as WCXB does: Python's str.lower(), then maximal
// runs of Unicode word characters (`[\p{L}\p{N}_]+`).
func WCXBTokens(s string) []string { return textseg.Words(pyLower(s), nil) }

// ScoreWCXB scores one page's output against its gold under the WCXB
// metric. An empty gold scores 1 only for an empty output; an output with
// no tokens scores 0.
func ScoreWCXB(gold, output string) PRF { return bagScore(WCXBTokens(gold), WCXBTokens(output)) }

// SnippetRates returns the share of with snippets and the share of without
// snippets that are substrings of the lower-cased output (each snippet
// lower-cased, white space as it is). An empty with list gives 1 (nothing
// was missed); an empty without list gives 0 (nothing leaked through).
func SnippetRates(output string, with, without []string) (withRate, withoutRate float64) {
	out := pyLower(output)
	share := func(snips []string, empty float64) float64 {
		if len(snips) == 0 {
			return empty
		}
		n := 0
		for _, s := range snips {
			if strings.Contains(out, pyLower(s)) {
				n++
			}
		}
		return float64(n) / float64(len(snips))
	}
	return share(with, 1), share(without, 0)
}

// pyLower lower-cases s as Python's str.lower() does where it differs from
// strings.ToLower: U+0130 becomes "i\u0307" (so a `\w` run breaks there) and
// a capital sigma at the end of a word becomes the final sigma.
func pyLower(s string) string {
	if !strings.ContainsRune(s, 'İ') && !strings.ContainsRune(s, 'Σ') {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ' && finalSigma(s, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at byte i of s ends a word
// as Python's handle_capital_sigma decides: a cased letter before it and
// none after it, skipping case-ignorable characters on both sides.
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if !caseIgnorable(r) {
			before = cased(r)
			break
		}
	}
	if !before {
		return false
	}
	for _, r := range s[i+len("Σ"):] {
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is Unicode's Cased property: Lu, Ll, Lt, Other_Lowercase,
// Other_Uppercase.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk
// and the MidLetter, MidNumLet and Single_Quote word-break characters.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '·', '\u0387', '\u055F', '\u05F4', '\u2018', '\u2019', '\u2024', '\u2027',
		'\uFE13', '\uFE52', '\uFE55', '\uFF07', '\uFF0E', '\uFF1A':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// TypeF1 is the mean page F1 of one page type.
type TypeF1 struct {
	Type  string
	Pages int
	F1    float64
}

// byType averages the page F1s of each page type of ds; scores are in the
// order of ds.Pages. The types come most pages first, then by name.
func byType(ds *Dataset, scores []PageScore) []TypeF1 {
	idx := map[string]int{}
	var out []TypeF1
	for i, p := range ds.Pages {
		k, ok := idx[p.Type]
		if !ok {
			k = len(out)
			idx[p.Type] = k
			out = append(out, TypeF1{Type: p.Type})
		}
		out[k].Pages++
		out[k].F1 += scores[i].F1
	}
	for i := range out {
		out[i].F1 /= float64(out[i].Pages)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pages != out[j].Pages {
			return out[i].Pages > out[j].Pages
		}
		return out[i].Type < out[j].Type
	})
	return out
}
