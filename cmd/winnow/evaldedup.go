package main

import (
	"bufio"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/evaluate"
)

type evalDedupFlags struct {
	data   string
	json   bool
	seed   uint64
	level  float64
	save   string
	marked string
	levels []float64
}

func newEvalDedupCmd() *cobra.Command {
	var f evalDedupFlags
	cmd := &cobra.Command{
		Use:   "dedup <clough-stevenson|generated|FILE.jsonl|DIR --marked OUT.jsonl>",
		Short: "Compare near-duplicate methods: recall, precision, F1, time",
		Long: `clough-stevenson: per class (cut, light, heavy, non) the share of answers
each method finds as reuse of their source, at one threshold per method.

generated: a seeded collection built from the gold texts of ../shared/data
(edited copies spread over Jaccard 0.6 to 1.0, a tenth of the texts with 1
to 5 copies); FILE.jsonl: any records with "url" and "text". For both the
gold is every pair whose exact Jaccard of 3-word shingles reaches --level
(seed 000's "ideal answer", by comparing all pairs), and each method is
scored on pairs and on URLs (documents with a duplicate), with its time.
With --json the last line is {"dataset","methods":{...}}.

DIR --marked OUT.jsonl: a collection written by internal/tools/gendedup
(DIR/docs.jsonl, DIR/gold.jsonl with every planted pair's exact Jaccard)
and winnow dedup's output of DIR/docs.jsonl: the precision of the pairs
it asserts (duplicate_of and near) and the recall of the gold pairs, at
each of --levels.`,
		Example: `  winnow eval dedup clough-stevenson
  winnow eval dedup generated --level 0.9 --save /tmp/generated.jsonl
  winnow eval dedup crawl.jsonl --json
  winnow eval dedup /tmp/gen1m --marked /tmp/gen1m/out.jsonl`,
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
	fl.StringVar(&f.marked, "marked", "", "with a gendedup folder: winnow dedup's output of its docs.jsonl, to score")
	fl.Float64SliceVar(&f.levels, "levels", []float64{0.8, 0.9}, "with --marked: the Jaccard levels to score at")
	return cmd
}

func runEvalDedup(w io.Writer, what string, f evalDedupFlags) error {
	var rep interface{ WriteText(io.Writer) error }
	var err error
	if f.marked != "" {
		rep, err = evaluate.ScoreMarked(what, f.marked, f.levels)
	} else {
		rep, err = evalDedupReport(what, f)
	}
	if err != nil {
		return err
	}
	return writeReport(w, rep, f.json)
}

// writeReport writes an evaluation's table and, with asJSON, its JSON
// line.
func writeReport(w io.Writer, rep interface{ WriteText(io.Writer) error }, asJSON bool) error {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	if err := rep.WriteText(bw); err != nil || !asJSON {
		return err
	}
	return printJSON(bw, rep)
}

// evalDedupReport loads or generates the collection and scores it.
func evalDedupReport(what string, f evalDedupFlags) (*evaluate.DedupReport, error) {
	if what != "clough-stevenson" && what != "generated" {
		docs, err := evaluate.ReadCollection(what)
		if err != nil {
			return nil, err
		}
		return evaluate.CompareDedup(what, docs, f.level)
	}
	dir, err := dataDir(f.data)
	if err != nil {
		return nil, err
	}
	if what == "clough-stevenson" {
		return evaluate.CompareCloughStevenson(dir)
	}
	docs, err := evaluate.GeneratedCollection(dir, f.seed)
	if err != nil {
		return nil, err
	}
	if f.save != "" {
		err := withOutput(f.save, os.Stdout, func(w io.Writer) error { return evaluate.WriteCollection(w, docs) })
		if err != nil {
			return nil, err
		}
	}
	return evaluate.CompareDedup(what, docs, f.level)
}
