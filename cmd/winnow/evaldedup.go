package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/evaluate"
	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/pipeline"
)

type evalDedupFlags struct {
	data  string
	json  bool
	seed  uint64
	level float64
	save  string
}

func newEvalDedupCmd() *cobra.Command {
	var f evalDedupFlags
	cmd := &cobra.Command{
		Use:   "dedup <clough-stevenson|generated|FILE.jsonl>",
		Short: "Compare near-duplicate methods: recall, precision, F1, time",
		Long: `clough-stevenson: per class (cut, light, heavy, non) the share of answers
each method finds as reuse of their source, at one threshold per method.

generated: a seeded collection built from the gold texts of ../shared/data
(edited copies spread over Jaccard 0.6 to 1.0, a tenth of the texts with 1
to 5 copies); FILE.jsonl: any records with "url" and "text". For both the
gold is every pair whose exact Jaccard of 3-word shingles reaches --level
(seed 000's "ideal answer", by comparing all pairs), and each method is
scored on pairs and on URLs (documents with a duplicate), with its time.
With --json the last line is {"dataset","methods":{...}}.`,
		Example: `  winnow eval dedup clough-stevenson
  winnow eval dedup generated --level 0.9 --save /tmp/generated.jsonl
  winnow eval dedup crawl.jsonl --json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvalDedup(cmd.OutOrStdout(), args[0], f)
		},
	}
	addEvalFlags(cmd, &f.data, &f.json)
	fl := cmd.Flags()
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the generated collection")
	fl.Float64Var(&f.level, "level", 0.8, "Jaccard of 3-word shingles from which a pair is a duplicate")
	fl.StringVar(&f.save, "save", "", "write the generated collection as JSONL to this file")
	return cmd
}

func runEvalDedup(w io.Writer, what string, f evalDedupFlags) error {
	norm, err := dedup.NewNormalizer(dedup.Options{})
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	var scores map[string]evaluate.DedupScore
	dataset := what
	switch what {
	case "clough-stevenson":
		dir, err := dataDir(f.data)
		if err != nil {
			return err
		}
		docs, err := evaluate.LoadCloughStevenson(dir)
		if err != nil {
			return err
		}
		// Answers are much shorter than their sources: containment is the
		// measure (data README); candidates come from each method.
		const t = 0.15
		methods := []evaluate.DedupMethod{
			{Name: "minhash", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: t, Measure: dedup.MeasureContainment}},
			{Name: "simhash-k8", Config: dedup.Config{Method: dedup.MethodSimHash, K: 8, Threshold: t, Measure: dedup.MeasureContainment}},
		}
		scores, err = evaluate.ScoreCloughStevenson(docs, norm, methods)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "%-12s %9s %6s %6s %6s %6s   %5s %5s %5s   %s\n", "method", "threshold", "cut", "light", "heavy", "non", "P", "R", "F1", "seconds")
		for _, name := range sortedKeys(scores) {
			s := scores[name]
			fmt.Fprintf(bw, "%-12s %9.2f %6.3f %6.3f %6.3f %6.3f   %.3f %.3f %.3f   %.3f\n", name, s.Threshold,
				s.Classes["cut"], s.Classes["light"], s.Classes["heavy"], s.Classes["non"], s.Precision, s.Recall, s.F1, s.Seconds)
		}
	default:
		var texts, urls []string
		if what == "generated" {
			dir, err := dataDir(f.data)
			if err != nil {
				return err
			}
			base, err := evaluate.GoldTexts(dir)
			if err != nil {
				return err
			}
			for _, d := range evaluate.Generate(base, f.seed) {
				texts, urls = append(texts, d.Text), append(urls, d.URL)
			}
			if f.save != "" {
				if err := saveCollection(f.save, urls, texts); err != nil {
					return err
				}
			}
		} else {
			if texts, urls, err = readTexts(what); err != nil {
				return err
			}
		}
		// Verification and the gold use 3-word shingles; SimHash is tried
		// on those and on the default mixture of words and word pairs.
		simNorm, err := dedup.NewNormalizer(dedup.Options{Shingles: pipeline.DefaultDedupOptions().SimShingles})
		if err != nil {
			return err
		}
		docs := make([]dedup.Doc, len(texts))
		mixed := make([]dedup.Doc, len(texts))
		feats := make([][]dedup.Feature, len(texts))
		for i, t := range texts {
			feats[i] = norm.Features(t)
			docs[i] = dedup.Doc{URL: urls[i], TextLen: len(t), Features: feats[i], Lang: dedup.Script(t)}
			mixed[i] = docs[i]
			mixed[i].Fingerprint, mixed[i].HasFingerprint = simNorm.Fingerprint(t)
		}
		gold := evaluate.ExhaustivePairs(feats, f.level)
		methods := []evaluate.DedupMethod{
			{Name: "minhash", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: f.level}},
			// The prunings of seeds 000 and 004: compare only texts of one
			// script, or of lengths within a factor of 1.25.
			{Name: "minhash+lang", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: f.level, SameLang: true}},
			{Name: "minhash+length", Config: dedup.Config{Method: dedup.MethodMinHash, Threshold: f.level, LengthRatio: 1.25}},
		}
		for _, k := range []int{3, 8} {
			methods = append(methods, evaluate.DedupMethod{Name: fmt.Sprintf("simhash3-k%d", k), Config: dedup.Config{Method: dedup.MethodSimHash, K: k, Threshold: f.level}})
		}
		scores, err = evaluate.RunDedup(docs, gold, methods)
		if err != nil {
			return err
		}
		var mixedMethods []evaluate.DedupMethod
		for _, k := range []int{3, 4, 6, 8} {
			mixedMethods = append(mixedMethods, evaluate.DedupMethod{Name: fmt.Sprintf("simhash-k%d", k), Config: dedup.Config{Method: dedup.MethodSimHash, K: k, Threshold: f.level}})
		}
		more, err := evaluate.RunDedup(mixed, gold, mixedMethods)
		if err != nil {
			return err
		}
		for k, v := range more {
			scores[k] = v
		}
		signed, err := evaluate.RunSignatures(texts, norm, gold)
		if err != nil {
			return err
		}
		for k, v := range signed {
			scores[k] = v
		}
		fmt.Fprintf(bw, "%d documents, %d gold pairs at Jaccard >= %.2f of 3-word shingles\n", len(docs), len(gold), f.level)
		fmt.Fprintf(bw, "%-15s %9s %6s %6s %6s %7s %7s %10s %7s %8s\n", "method", "threshold", "P", "R", "F1", "url-P", "url-R", "candidates", "pruned", "seconds")
		for _, name := range sortedKeys(scores) {
			s := scores[name]
			fmt.Fprintf(bw, "%-15s %9.2f %6.3f %6.3f %6.3f %7.3f %7.3f %10d %7d %8.3f\n", name, s.Threshold, s.Precision, s.Recall, s.F1, s.URLPrecision, s.URLRecall, s.Candidates, s.Pruned, s.Seconds)
		}
		fmt.Fprintln(bw, "simhash-kN: fingerprints of words and word pairs (computed before timing); simhash3-kN: of 3-word shingles")
		fmt.Fprintln(bw, "md5, tfidf (top 6 terms), longsent, heavysent (top 3 sentences), lexrand (10 dictionaries, 30% thinned): seed 000's signatures, one shared value makes a pair, unverified")
	}
	if f.json {
		b, err := json.Marshal(struct {
			Dataset string                         `json:"dataset"`
			Methods map[string]evaluate.DedupScore `json:"methods"`
		}{dataset, scores})
		if err != nil {
			return err
		}
		fmt.Fprintln(bw, string(b))
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func readTexts(path string) (texts, urls []string, err error) {
	recs, err := jsonl.ReadFile[struct{ URL, Text string }](path)
	for _, r := range recs {
		texts, urls = append(texts, r.Text), append(urls, r.URL)
	}
	return texts, urls, err
}

func saveCollection(path string, urls, texts []string) error {
	w, closeFn, err := pipeline.CreateOutput(path, os.Stdout)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range urls {
		if err := enc.Encode(struct {
			URL  string `json:"url"`
			Text string `json:"text"`
		}{urls[i], texts[i]}); err != nil {
			return err
		}
	}
	return closeFn()
}
