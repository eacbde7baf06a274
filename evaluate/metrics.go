package evaluate

import (
	"strings"

	"github.com/winnow-go/winnow/internal/textseg"
)

// PRF holds one page's or one corpus's precision, recall and F1.
type PRF struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// isIdeograph reports whether r is one of the characters that the DAnIEL
// and CleanEval-zh metric counts as a token of its own: Hiragana and
// Katakana, CJK ideographs (with extension A and the compatibility block)
// and Hangul, as ../shared/data/README.md lists them. That is the shared
// table (textseg.IsCJK) without its supplementary-plane ideographs
// (U+20000-U+2FA1F), which the metric's ranges leave out: there they stay
// part of a \w run.
func isIdeograph(r rune) bool { return r < 0x10000 && textseg.IsCJK(r) }

// WordTokens splits s into maximal runs of word runes (Python's `\w+`).
func WordTokens(s string) []string { return textseg.Words(s, nil) }

// CJKTokens lower-cases s and splits it as the DAnIEL metric does: word runs
// in alphabetic scripts, and every ideograph, kana or Hangul syllable a token
// of its own.
func CJKTokens(s string) []string { return textseg.Words(strings.ToLower(s), isIdeograph) }

// ShingleScore is one page's score under the Scrapinghub article-extraction
// benchmark: shingle counts normalised to sum to one, and whether the whole
// token lists match.
type ShingleScore struct {
	TP, FP, FN float64
	Precision  float64
	Recall     float64
	Exact      bool
}

// shingles returns the multiset of 4-token windows of toks; a text of one to
// three tokens is a single short shingle and an empty text has none.
func shingles(toks []string) map[string]int {
	m := make(map[string]int)
	const n = 4
	if len(toks) == 0 {
		return m
	}
	if len(toks) < n {
		m[strings.Join(toks, "\x00")]++
		return m
	}
	for i := 0; i+n <= len(toks); i++ {
		m[strings.Join(toks[i:i+n], "\x00")]++
	}
	return m
}

// ScoreShingles scores predicted text against the expected article body as
// the Scrapinghub benchmark does.
func ScoreShingles(expected, predicted string) ShingleScore {
	et, pt := WordTokens(expected), WordTokens(predicted)
	es, ps := shingles(et), shingles(pt)
	var tp, fp, fn float64
	for k, t := range es {
		p := ps[k]
		tp += float64(min(t, p))
		if t > p {
			fn += float64(t - p)
		}
	}
	for k, p := range ps {
		t := es[k]
		if p > t {
			fp += float64(p - t)
		}
	}
	s := ShingleScore{Exact: equalTokens(et, pt)}
	if sum := tp + fp + fn; sum > 0 {
		s.TP, s.FP, s.FN = tp/sum, fp/sum, fn/sum
	}
	s.Precision = ratio(s.TP, s.FP, s.FN)
	s.Recall = ratio(s.TP, s.FN, s.FP)
	return s
}

// ratio is tp/(tp+miss), 1 when both kinds of error are zero, and 0 when
// the denominator is zero otherwise.
func ratio(tp, miss, other float64) float64 {
	if miss == 0 && other == 0 {
		return 1
	}
	if tp+miss == 0 {
		return 0
	}
	return tp / (tp + miss)
}

func equalTokens(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// AggregateShingles computes the corpus figures of the Scrapinghub benchmark:
// mean precision over pages with predicted shingles, mean recall over pages
// with expected shingles, F1 of the two means, and the share of exact pages.
func AggregateShingles(scores []ShingleScore) (PRF, float64) {
	var sp, sr float64
	var np, nr, exact int
	for _, s := range scores {
		if s.TP+s.FP > 0 {
			sp += s.Precision
			np++
		}
		if s.TP+s.FN > 0 {
			sr += s.Recall
			nr++
		}
		if s.Exact {
			exact++
		}
	}
	var out PRF
	if np > 0 {
		out.Precision = sp / float64(np)
	}
	if nr > 0 {
		out.Recall = sr / float64(nr)
	}
	out.F1 = f1(out.Precision, out.Recall)
	acc := 0.0
	if len(scores) > 0 {
		acc = float64(exact) / float64(len(scores))
	}
	return out, acc
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// SnippetCounts are the counts of the trafilatura benchmark for one page.
type SnippetCounts struct {
	TP, FP, FN, TN int
}

// normSpace collapses runs of white space to one space and trims.
func normSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// ScoreSnippets checks which "with" snippets appear in the output (true
// positives, else false negatives) and which "without" snippets appear (false
// positives, else true negatives), after white-space normalisation.
func ScoreSnippets(output string, with, without []string) SnippetCounts {
	out := normSpace(output)
	var c SnippetCounts
	for _, w := range with {
		if out != "" && strings.Contains(out, normSpace(w)) {
			c.TP++
		} else {
			c.FN++
		}
	}
	for _, w := range without {
		if out != "" && strings.Contains(out, normSpace(w)) {
			c.FP++
		} else {
			c.TN++
		}
	}
	return c
}

// AggregateSnippets sums the counts over the corpus: P = TP/(TP+FP),
// R = TP/(TP+FN), F = 2TP/(2TP+FP+FN), accuracy = (TP+TN)/all.
func AggregateSnippets(cs []SnippetCounts) (PRF, float64) {
	var t SnippetCounts
	for _, c := range cs {
		t.TP += c.TP
		t.FP += c.FP
		t.FN += c.FN
		t.TN += c.TN
	}
	var out PRF
	if t.TP+t.FP > 0 {
		out.Precision = float64(t.TP) / float64(t.TP+t.FP)
	}
	if t.TP+t.FN > 0 {
		out.Recall = float64(t.TP) / float64(t.TP+t.FN)
	}
	if d := 2*t.TP + t.FP + t.FN; d > 0 {
		out.F1 = float64(2*t.TP) / float64(d)
	}
	acc := 0.0
	if all := t.TP + t.FP + t.FN + t.TN; all > 0 {
		acc = float64(t.TP+t.TN) / float64(all)
	}
	return out, acc
}

// ScoreBagOfWords scores a page as the DAnIEL and CleanEval-zh sets do: the
// overlap of the two token multisets (CJKTokens) gives precision, recall and
// F1. An empty gold scores 1 only for an empty output; an empty output
// scores 0.
func ScoreBagOfWords(gold, output string) PRF {
	return bagScore(CJKTokens(gold), CJKTokens(output))
}

// bagScore is precision, recall and F1 of the overlap of the token
// multisets gt (gold) and ot (output), with the empty cases of the
// bag-of-words metrics.
func bagScore(gt, ot []string) PRF {
	if len(gt) == 0 || len(ot) == 0 {
		if len(gt) == 0 && len(ot) == 0 {
			return PRF{1, 1, 1}
		}
		return PRF{}
	}
	common := textseg.Common(gt, ot)
	p := float64(common) / float64(len(ot))
	r := float64(common) / float64(len(gt))
	return PRF{p, r, f1(p, r)}
}

// MeanPRF averages per-page figures (macro average).
func MeanPRF(pages []PRF) PRF {
	var out PRF
	if len(pages) == 0 {
		return out
	}
	for _, p := range pages {
		out.Precision += p.Precision
		out.Recall += p.Recall
		out.F1 += p.F1
	}
	n := float64(len(pages))
	out.Precision /= n
	out.Recall /= n
	out.F1 /= n
	return out
}
