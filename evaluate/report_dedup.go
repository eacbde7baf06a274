package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/jsonl"
)

// DedupReport is winnow eval dedup: the figures of each near-duplicate
// method on one collection. It marshals to the --json line:
// {"dataset","methods":{name: DedupScore}}.
type DedupReport struct {
	Dataset string                `json:"dataset"`
	Methods map[string]DedupScore `json:"methods"`
	// For a collection scored against exhaustive pairs (CompareDedup):
	// its documents, and the gold pairs at Jaccard >= Level.
	Documents, GoldPairs int     `json:"-"`
	Level                float64 `json:"-"`
	perClass             bool    // Clough-Stevenson's table
}

// CloughStevensonThreshold is the verification threshold (containment)
// of every method on Clough-Stevenson: answers are much shorter than
// their sources.
const CloughStevensonThreshold = 0.15

// CompareCloughStevenson loads Clough-Stevenson from dataDir and scores
// MinHash and SimHash (k=8) candidates verified by containment >=
// CloughStevensonThreshold, MinHash at the stricter containments 0.5 and
// 0.7 (where the bands of the threshold alone miss reuse that the
// sampled-shingle candidates find), and each of SignatureMethods, with
// ScoreCloughStevenson.
func CompareCloughStevenson(dataDir string) (*DedupReport, error) {
	norm, err := dedup.NewNormalizer(dedup.Options{})
	if err != nil {
		return nil, err
	}
	docs, err := LoadCloughStevenson(dataDir)
	if err != nil {
		return nil, err
	}
	// Answers are much shorter than their sources: containment is the
	// measure (data README); candidates come from each method.
	const t = CloughStevensonThreshold
	methods := []DedupMethod{
		{Name: "minhash", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: t, Measure: dedup.MeasureContainment}},
		{Name: "simhash-k8", Config: dedup.Config{Method: dedup.MethodSimHash, K: 8, Threshold: t, Measure: dedup.MeasureContainment}},
	}
	for _, c := range []float64{0.5, 0.7} {
		methods = append(methods, DedupMethod{Name: fmt.Sprintf("minhash-c%.1f", c), Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: c, Measure: dedup.MeasureContainment}})
	}
	scores, err := ScoreCloughStevenson(docs, norm, methods)
	if err != nil {
		return nil, err
	}
	return &DedupReport{Dataset: "clough-stevenson", Methods: scores, perClass: true}, nil
}

// CompareDedup scores the near-duplicate methods on a collection against
// its exhaustive pairs at Jaccard >= level of 3-word shingles
// (ExhaustivePairs): MinHash (plain, with the same-script and the length
// prunings), SimHash over 3-word shingles as pipeline.DefaultDedupOptions
// (k=3, 8, 11) and over words and word pairs (k=3, 4, 6, 8), every candidate
// verified at level, and each of SignatureMethods unverified. dataset
// names the collection in the report.
func CompareDedup(dataset string, docs []GenDoc, level float64) (*DedupReport, error) {
	// Verification, the gold and SimHash's default use 3-word shingles;
	// SimHash is also tried on words and word pairs.
	norm, err := dedup.NewNormalizer(dedup.Options{})
	if err != nil {
		return nil, err
	}
	simNorm, err := dedup.NewNormalizer(dedup.Options{Shingles: []int{1, 2}})
	if err != nil {
		return nil, err
	}
	ddocs := make([]dedup.Doc, len(docs))
	mixed := make([]dedup.Doc, len(docs))
	feats := make([][]dedup.Feature, len(docs))
	texts := make([]string, len(docs))
	for i, d := range docs {
		t := d.Text
		texts[i], feats[i] = t, norm.Features(t)
		ddocs[i] = dedup.Doc{URL: d.URL, TextLen: len(t), Features: feats[i], Lang: dedup.Script(t)}
		mixed[i] = ddocs[i]
		mixed[i].Fingerprint, mixed[i].HasFingerprint = simNorm.Fingerprint(t)
	}
	gold := ExhaustivePairs(feats, level)
	rep := &DedupReport{Dataset: dataset, Documents: len(docs), GoldPairs: len(gold), Level: level}
	if rep.Methods, err = RunDedup(ddocs, gold, dedupMethods(level)); err != nil {
		return nil, err
	}
	var mixedMethods []DedupMethod
	for _, k := range []int{3, 4, 6, 8} {
		mixedMethods = append(mixedMethods, DedupMethod{Name: fmt.Sprintf("simhash-k%d", k), Config: dedup.Config{Method: dedup.MethodSimHash, K: k, Threshold: level}})
	}
	more, err := RunDedup(mixed, gold, mixedMethods)
	if err != nil {
		return nil, err
	}
	signed, err := RunSignatures(texts, norm, gold)
	if err != nil {
		return nil, err
	}
	for _, m := range []map[string]DedupScore{more, signed} {
		for k, v := range m {
			rep.Methods[k] = v
		}
	}
	return rep, nil
}

// dedupMethods are CompareDedup's methods over 3-word shingles.
func dedupMethods(level float64) []DedupMethod {
	methods := []DedupMethod{
		{Name: "minhash", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: level}},
		// The prunings of seeds 000 and 004: compare only texts of one
		// script, or of lengths within a factor of 1.25.
		{Name: "minhash+lang", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: level, SameLang: true}},
		{Name: "minhash+length", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: level, LengthRatio: 1.25}},
	}
	for _, k := range []int{3, 8, 11} {
		methods = append(methods, DedupMethod{Name: fmt.Sprintf("simhash3-k%d", k), Config: dedup.Config{Method: dedup.MethodSimHash, K: k, Threshold: level}})
	}
	return methods
}

// WriteText writes the table of the methods, by name: for
// Clough-Stevenson the share found per class, else the collection, the
// pair and URL figures, the candidates and a legend.
func (r *DedupReport) WriteText(w io.Writer) error {
	names := make([]string, 0, len(r.Methods))
	for k := range r.Methods {
		names = append(names, k)
	}
	sort.Strings(names)
	if r.perClass {
		fmt.Fprintf(w, "%-12s %9s %6s %6s %6s %6s   %5s %5s %5s   %s\n", "method", "threshold", "cut", "light", "heavy", "non", "P", "R", "F1", "seconds")
		for _, name := range names {
			s := r.Methods[name]
			fmt.Fprintf(w, "%-12s %9.2f %6.3f %6.3f %6.3f %6.3f   %.3f %.3f %.3f   %.3f\n", name, s.Threshold,
				s.Classes["cut"], s.Classes["light"], s.Classes["heavy"], s.Classes["non"], s.Precision, s.Recall, s.F1, s.Seconds)
		}
		return nil
	}
	fmt.Fprintf(w, "%d documents, %d gold pairs at Jaccard >= %.2f of 3-word shingles\n", r.Documents, r.GoldPairs, r.Level)
	fmt.Fprintf(w, "%-15s %9s %6s %6s %6s %7s %7s %10s %7s %8s\n", "method", "threshold", "P", "R", "F1", "url-P", "url-R", "candidates", "pruned", "seconds")
	for _, name := range names {
		s := r.Methods[name]
		fmt.Fprintf(w, "%-15s %9.2f %6.3f %6.3f %6.3f %7.3f %7.3f %10d %7d %8.3f\n", name, s.Threshold, s.Precision, s.Recall, s.F1, s.URLPrecision, s.URLRecall, s.Candidates, s.Pruned, s.Seconds)
	}
	fmt.Fprintln(w, "simhash-kN: fingerprints of words and word pairs (computed before timing); simhash3-kN: of 3-word shingles")
	_, err := fmt.Fprintln(w, "md5, tfidf (top 6 terms), longsent, heavysent (top 3 sentences), lexrand (10 dictionaries, 30% thinned): seed 000's signatures, one shared value makes a pair, unverified")
	return err
}

// GeneratedCollection builds the generated collection of winnow eval dedup
// generated: the GoldTexts of dataDir edited by Generate with seed.
func GeneratedCollection(dataDir string, seed uint64) ([]GenDoc, error) {
	base, err := GoldTexts(dataDir)
	if err != nil {
		return nil, err
	}
	return Generate(base, seed), nil
}

// ReadCollection reads a JSONL file of records with "url" and "text" as a
// collection for CompareDedup.
func ReadCollection(path string) ([]GenDoc, error) {
	return jsonl.ReadFile[GenDoc](path)
}

// WriteCollection writes a collection as JSONL records {"url","text"},
// which ReadCollection reads back.
func WriteCollection(w io.Writer, docs []GenDoc) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}
