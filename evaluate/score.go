package evaluate

import (
	"math/rand/v2"
	"sort"
)

// PageScore is one page's figures under its dataset's metric.
type PageScore struct {
	ID        string  `json:"id"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`

	shingle ShingleScore
	snip    SnippetCounts
	// WCXB: the shares of the page's with and without snippets found
	with, without float64
}

// Result is a dataset's corpus figures with the page scores behind them.
type Result struct {
	Dataset  string   `json:"dataset"`
	Pages    int      `json:"pages"`
	PRF               // corpus precision, recall, F1 as the dataset defines them
	Accuracy *float64 `json:"accuracy,omitempty"`
	// WCXB only: mean page F1 by page type, and the mean shares of the
	// with snippets found (higher is better) and of the without snippets
	// found (lower is better).
	ByType      map[string]float64 `json:"by_type,omitempty"`
	WithRate    *float64           `json:"with_rate,omitempty"`
	WithoutRate *float64           `json:"without_rate,omitempty"`
	Types       []TypeF1           `json:"-"` // ByType, most pages first
	// The share of pages whose page type the extractor guessed right,
	// and the confusion behind it (sets with page types, extractors that
	// guess them).
	PageTypeAccuracy *float64       `json:"page_type_accuracy,omitempty"`
	PageTypes        *TypeConfusion `json:"-"`
	// LangAgreement is the share of pages whose language the extractor
	// named as the set's (Dataset.Lang); nil for a set of several
	// languages. Langs counts the pages by the language named ("" for
	// none), on every set.
	LangAgreement *float64       `json:"lang_agreement"`
	Langs         map[string]int `json:"-"`
	PerPage       []PageScore    `json:"-"`
}

// ScorePage scores one extracted text against a page's gold.
func ScorePage(m Metric, p *Page, text string) PageScore {
	ps := PageScore{ID: p.ID}
	switch m {
	case Shingles:
		s := ScoreShingles(p.Gold, text)
		ps.shingle = s
		ps.Precision, ps.Recall, ps.F1 = s.Precision, s.Recall, f1(s.Precision, s.Recall)
	case Snippets:
		c := ScoreSnippets(text, p.With, p.Without)
		ps.snip = c
		agg, _ := AggregateSnippets([]SnippetCounts{c})
		ps.Precision, ps.Recall, ps.F1 = agg.Precision, agg.Recall, agg.F1
	case BagOfWords:
		s := ScoreBagOfWords(p.Gold, text)
		ps.Precision, ps.Recall, ps.F1 = s.Precision, s.Recall, s.F1
	case WCXB:
		s := ScoreWCXB(p.Gold, text)
		ps.Precision, ps.Recall, ps.F1 = s.Precision, s.Recall, s.F1
		ps.with, ps.without = SnippetRates(text, p.With, p.Without)
	}
	return ps
}

// PRF returns the page's figures as a PRF.
func (ps PageScore) PRF() PRF { return PRF{ps.Precision, ps.Recall, ps.F1} }

// Aggregate combines page scores into corpus figures the way metric m does:
// F1 of mean P and R (Shingles), micro counts (Snippets), or mean page F1
// (BagOfWords). The second value is the accuracy, where the metric has one.
func Aggregate(m Metric, pages []PageScore) (PRF, *float64) {
	switch m {
	case Shingles:
		ss := make([]ShingleScore, len(pages))
		for i, p := range pages {
			ss[i] = p.shingle
		}
		prf, acc := AggregateShingles(ss)
		return prf, &acc
	case Snippets:
		cs := make([]SnippetCounts, len(pages))
		for i, p := range pages {
			cs[i] = p.snip
		}
		prf, acc := AggregateSnippets(cs)
		return prf, &acc
	default:
		prfs := make([]PRF, len(pages))
		for i, p := range pages {
			prfs[i] = p.PRF()
		}
		return MeanPRF(prfs), nil
	}
}

// Score scores texts (by page ID; a missing text counts as empty output)
// against every page of ds.
func Score(ds *Dataset, texts map[string]string) *Result {
	r := &Result{Dataset: ds.Name, Pages: len(ds.Pages)}
	for i := range ds.Pages {
		p := &ds.Pages[i]
		r.PerPage = append(r.PerPage, ScorePage(ds.Metric, p, texts[p.ID]))
	}
	r.PRF, r.Accuracy = Aggregate(ds.Metric, r.PerPage)
	if ds.Metric == WCXB && len(r.PerPage) > 0 {
		r.Types = byType(ds, r.PerPage)
		r.ByType = make(map[string]float64, len(r.Types))
		for _, t := range r.Types {
			r.ByType[t.Type] = t.F1
		}
		var w, wo float64
		for _, p := range r.PerPage {
			w += p.with
			wo += p.without
		}
		n := float64(len(r.PerPage))
		w, wo = w/n, wo/n
		r.WithRate, r.WithoutRate = &w, &wo
	}
	return r
}

// Interval is a paired bootstrap interval for the F1 difference a - b.
type Interval struct {
	Diff   float64 `json:"diff"`    // a.F1 - b.F1 on the full set
	Low    float64 `json:"low"`     // 2.5th percentile of the resampled differences
	High   float64 `json:"high"`    // 97.5th percentile
	PBelow float64 `json:"p_below"` // share of resamples where a did not beat b
}

// PairedBootstrap resamples pages with replacement (the same pages for both
// systems) and returns the 95% interval of the corpus F1 difference a - b.
// a and b must score the same pages in the same order. The seed makes the
// result reproducible.
func PairedBootstrap(m Metric, a, b []PageScore, rounds int, seed uint64) Interval {
	fa, _ := Aggregate(m, a)
	fb, _ := Aggregate(m, b)
	iv := Interval{Diff: fa.F1 - fb.F1}
	if len(a) == 0 || len(a) != len(b) || rounds <= 0 {
		return iv
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	sa := make([]PageScore, len(a))
	sb := make([]PageScore, len(b))
	diffs := make([]float64, rounds)
	below := 0
	for k := range diffs {
		for i := range sa {
			j := rng.IntN(len(a))
			sa[i], sb[i] = a[j], b[j]
		}
		x, _ := Aggregate(m, sa)
		y, _ := Aggregate(m, sb)
		diffs[k] = x.F1 - y.F1
		if diffs[k] <= 0 {
			below++
		}
	}
	sort.Float64s(diffs)
	iv.Low = diffs[int(0.025*float64(rounds))]
	iv.High = diffs[min(rounds-1, int(0.975*float64(rounds)))]
	iv.PBelow = float64(below) / float64(rounds)
	return iv
}
