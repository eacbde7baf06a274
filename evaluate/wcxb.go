package evaluate

import (
	"fmt"
	"io"
	"slices"
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

// TypeConfusion counts pages by gold page type (rows) and guessed page
// type (columns).
type TypeConfusion struct {
	Gold      []string // row names: the set's types, most pages first, then by name
	Predicted []string // column names: Gold, then any other guessed type by name
	Counts    [][]int  // Counts[gold][predicted]
}

// scorePageTypes sets r's page-type accuracy and confusion from the types
// guessed for the pages of ds (in the order of ds.Pages). It does nothing
// when ds has no page types or no type was guessed.
func (r *Result) scorePageTypes(ds *Dataset, guessed []string) {
	if r.Types == nil || !slices.ContainsFunc(guessed, func(s string) bool { return s != "" }) {
		return
	}
	guessed = slices.Clone(guessed)
	for i, g := range guessed {
		if g == "" {
			guessed[i] = "none" // the page failed
		}
	}
	c := &TypeConfusion{}
	for _, t := range r.Types {
		c.Gold = append(c.Gold, t.Type)
	}
	c.Predicted = slices.Clone(c.Gold)
	var extra []string
	for _, g := range guessed {
		if !slices.Contains(c.Predicted, g) && !slices.Contains(extra, g) {
			extra = append(extra, g)
		}
	}
	sort.Strings(extra)
	c.Predicted = append(c.Predicted, extra...)
	c.Counts = make([][]int, len(c.Gold))
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(c.Predicted))
	}
	right := 0
	for i, p := range ds.Pages {
		gi, pi := slices.Index(c.Gold, p.Type), slices.Index(c.Predicted, guessed[i])
		c.Counts[gi][pi]++
		if p.Type == guessed[i] {
			right++
		}
	}
	acc := float64(right) / float64(len(ds.Pages))
	r.PageTypeAccuracy, r.PageTypes = &acc, c
}

// WriteText writes the matrix as a table with each row's recall and each
// column's precision.
func (c *TypeConfusion) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%-16s", "gold \\ guessed")
	for _, p := range c.Predicted {
		fmt.Fprintf(w, " %8.8s", p)
	}
	fmt.Fprintf(w, " %7s\n", "recall")
	colSum := make([]int, len(c.Predicted))
	for i, g := range c.Gold {
		fmt.Fprintf(w, "%-16s", g)
		all := 0
		for j, n := range c.Counts[i] {
			fmt.Fprintf(w, " %8d", n)
			all += n
			colSum[j] += n
		}
		fmt.Fprintf(w, " %7.3f\n", float64(c.Counts[i][i])/float64(max(all, 1)))
	}
	fmt.Fprintf(w, "%-16s", "precision")
	for j := range c.Predicted {
		right := 0
		if j < len(c.Gold) {
			right = c.Counts[j][j]
		}
		fmt.Fprintf(w, " %8.3f", float64(right)/float64(max(colSum[j], 1)))
	}
	_, err := fmt.Fprintln(w)
	return err
}
