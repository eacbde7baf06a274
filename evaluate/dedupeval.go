package evaluate

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/winnow-go/winnow/dedup"
)

// DedupMethod is one configuration compared by the dedup evaluation.
type DedupMethod struct {
	Name   string
	Config dedup.Config
}

// DedupScore is one method's figures. Pairwise figures compare the verified
// pairs with the gold pairs; URL-level figures (seed 000) compare the
// documents that have at least one duplicate.
type DedupScore struct {
	Threshold    float64            `json:"threshold"`
	Precision    float64            `json:"precision"`
	Recall       float64            `json:"recall"`
	F1           float64            `json:"f1"`
	URLPrecision float64            `json:"url_precision"`
	URLRecall    float64            `json:"url_recall"`
	Seconds      float64            `json:"seconds"`
	Candidates   int                `json:"candidates"`
	Pruned       int                `json:"pruned,omitempty"`
	Classes      map[string]float64 `json:"classes,omitempty"`
}

// ExhaustivePairs is seed 000's "ideal answer": every pair i < j whose exact
// Jaccard of feature sets reaches threshold, found by comparing all pairs.
func ExhaustivePairs(feats [][]dedup.Feature, threshold float64) map[[2]int]bool {
	gold := make(map[[2]int]bool)
	for i := range feats {
		for j := i + 1; j < len(feats); j++ {
			a, b := len(feats[i]), len(feats[j])
			// |A∩B|/|A∪B| <= min/max: skip pairs whose sizes alone rule them out.
			if a == 0 || b == 0 || float64(min(a, b)) < threshold*float64(max(a, b)) {
				continue
			}
			if dedup.Jaccard(feats[i], feats[j]) >= threshold {
				gold[[2]int{i, j}] = true
			}
		}
	}
	return gold
}

// ScorePairs compares found pairs with gold pairs, pairwise and by URL.
func ScorePairs(found []dedup.Pair, gold map[[2]int]bool) DedupScore {
	var s DedupScore
	tp := 0
	foundDocs, goldDocs := map[int]bool{}, map[int]bool{}
	for _, p := range found {
		if gold[[2]int{p.I, p.J}] {
			tp++
		}
		foundDocs[p.I], foundDocs[p.J] = true, true
	}
	for p := range gold {
		goldDocs[p[0]], goldDocs[p[1]] = true, true
	}
	s.Precision = safeDiv(tp, len(found))
	s.Recall = safeDiv(tp, len(gold))
	s.F1 = f1(s.Precision, s.Recall)
	both := 0
	for d := range foundDocs {
		if goldDocs[d] {
			both++
		}
	}
	s.URLPrecision = safeDiv(both, len(foundDocs))
	s.URLRecall = safeDiv(both, len(goldDocs))
	return s
}

func safeDiv(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// RunDedup finds pairs with each method and scores them against gold,
// timing each method (fingerprints, candidates and verification).
func RunDedup(docs []dedup.Doc, gold map[[2]int]bool, methods []DedupMethod) (map[string]DedupScore, error) {
	out := make(map[string]DedupScore)
	for _, m := range methods {
		start := time.Now()
		pairs, st, err := dedup.FindPairs(docs, m.Config)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		s := ScorePairs(pairs, gold)
		s.Seconds = time.Since(start).Seconds()
		s.Threshold = m.Config.Threshold
		s.Candidates = st.Candidates
		s.Pruned = st.Pruned
		out[m.Name] = s
	}
	return out, nil
}

// CSDoc is a Clough-Stevenson text with its label.
type CSDoc struct {
	File, Source, Class string // Source is empty for the five sources
	Text                string
}

// LoadCloughStevenson reads the 5 sources and 95 answers (UTF-8, or cp1252
// where a file is not UTF-8, as the data README says).
func LoadCloughStevenson(dataDir string) ([]CSDoc, error) {
	dir := filepath.Join(dataDir, "dedup", "clough-stevenson")
	f, err := os.Open(filepath.Join(dir, "pairs.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("pairs.tsv: %w", err)
	}
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, "texts", name))
		if err != nil {
			return "", err
		}
		if utf8.Valid(b) {
			return string(b), nil
		}
		s, err := charmap.Windows1252.NewDecoder().Bytes(b)
		return string(s), err
	}
	var docs []CSDoc
	sources := map[string]bool{}
	for _, row := range rows[1:] {
		if len(row) < 4 {
			return nil, fmt.Errorf("pairs.tsv: short row %v", row)
		}
		if !sources[row[1]] {
			sources[row[1]] = true
			t, err := read(row[1])
			if err != nil {
				return nil, err
			}
			docs = append(docs, CSDoc{File: row[1], Class: "orig", Text: t})
		}
		t, err := read(row[0])
		if err != nil {
			return nil, err
		}
		docs = append(docs, CSDoc{File: row[0], Source: row[1], Class: row[3], Text: t})
	}
	return docs, nil
}

// ScoreCloughStevenson runs each method over the 100 texts and reports,
// per class, the share of answers found as a near-duplicate (verified) of
// their own source, and precision and recall over the answer-source pairs
// (cut, light and heavy are reuse; non is not).
func ScoreCloughStevenson(docs []CSDoc, norm *dedup.Normalizer, methods []DedupMethod) (map[string]DedupScore, error) {
	ddocs := make([]dedup.Doc, len(docs))
	index := map[string]int{}
	for i, d := range docs {
		ddocs[i] = dedup.Doc{URL: d.File, TextLen: len(d.Text), Features: norm.Features(d.Text)}
		index[d.File] = i
	}
	out := make(map[string]DedupScore)
	for _, m := range methods {
		start := time.Now()
		pairs, st, err := dedup.FindPairs(ddocs, m.Config)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Name, err)
		}
		s := scoreCSPairs(docs, index, pairs)
		s.Threshold, s.Candidates = m.Config.Threshold, st.Candidates
		s.Seconds = time.Since(start).Seconds()
		out[m.Name] = s
	}
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	for _, m := range SignatureMethods {
		start := time.Now()
		pairs, err := signaturePairs(m, dedup.SignCollection(m, texts, norm))
		if err != nil {
			return nil, err
		}
		s := scoreCSPairs(docs, index, pairs)
		s.Candidates = len(pairs)
		s.Seconds = time.Since(start).Seconds()
		out[m.String()] = s
	}
	return out, nil
}

// scoreCSPairs scores found pairs on Clough-Stevenson: per class the share
// of answers paired with their own source, and precision and recall over
// the answer-source pairs.
func scoreCSPairs(docs []CSDoc, index map[string]int, pairs []dedup.Pair) DedupScore {
	found := map[[2]int]bool{}
	for _, p := range pairs {
		found[[2]int{p.I, p.J}] = true
	}
	s := DedupScore{Classes: map[string]float64{}}
	total := map[string]int{}
	hits := map[string]int{}
	var tp, fp, fn int
	for i, d := range docs {
		if d.Source == "" {
			continue
		}
		j := index[d.Source]
		key := [2]int{min(i, j), max(i, j)}
		total[d.Class]++
		reuse := d.Class != "non"
		switch {
		case found[key] && reuse:
			tp++
			hits[d.Class]++
		case found[key]:
			fp++
			hits[d.Class]++
		case reuse:
			fn++
		}
	}
	for c, n := range total {
		s.Classes[c] = float64(hits[c]) / float64(n)
	}
	s.Precision = safeDiv(tp, tp+fp)
	s.Recall = safeDiv(tp, tp+fn)
	s.F1 = f1(s.Precision, s.Recall)
	return s
}

// SignatureMethods are seed 000's signature methods, in the order its
// comparison lists them.
var SignatureMethods = []dedup.Method{dedup.MethodMD5, dedup.MethodTFIDF, dedup.MethodLongSent, dedup.MethodHeavySent, dedup.MethodLexRand}

// RunSignatures signs every text with each of SignatureMethods, pairs the
// texts that share a signature and scores the pairs against gold. The time
// of a method covers tokenising, the collection statistics and signing.
func RunSignatures(texts []string, norm *dedup.Normalizer, gold map[[2]int]bool) (map[string]DedupScore, error) {
	out := make(map[string]DedupScore)
	for _, m := range SignatureMethods {
		start := time.Now()
		pairs, err := signaturePairs(m, dedup.SignCollection(m, texts, norm))
		if err != nil {
			return nil, err
		}
		s := ScorePairs(pairs, gold)
		s.Seconds = time.Since(start).Seconds()
		s.Candidates = len(pairs)
		out[m.String()] = s
	}
	return out, nil
}

// signaturePairs pairs the documents that share a signature, without
// verification, as seed 000 counts them.
func signaturePairs(m dedup.Method, sigs [][]uint64) ([]dedup.Pair, error) {
	docs := make([]dedup.Doc, len(sigs))
	for i := range sigs {
		docs[i].Signatures = sigs[i]
	}
	pairs, _, err := dedup.FindPairs(docs, dedup.Config{Method: m, NoVerify: true})
	return pairs, err
}
