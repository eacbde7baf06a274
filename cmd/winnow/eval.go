package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/evaluate"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/render"
)

type evalFlags struct {
	data     string
	json     bool
	out      string
	vs       string
	workers  int
	top      int
	rules    string
	render   bool
	chromium string
	half     int
}

func newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure winnow on the evaluation data in ../shared/data",
	}
	cmd.AddCommand(newEvalExtractCmd(), newEvalDedupCmd(), newEvalSitesCmd(), newEvalMetadataCmd())
	return cmd
}

func newEvalExtractCmd() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "extract <dataset>",
		Short: "Score single-page extraction on " + strings.Join(evaluate.ExtractDatasets, ", "),
		Long: `Score single-page extraction with the dataset's own metric (see
../shared/data/README.md): scrapinghub (shingle F1 of mean P and R),
trafilatura (snippet micro F), daniel-ru, daniel-zh, cleaneval-zh (bag of
words, mean page F1), wcxb-dev-even (WCXB's bag of words: \w+ runs of the
lower-cased text, mean page F1). Prints the figures and, beside them, those
of the peers whose outputs are stored in reference/, with a paired
bootstrap interval of winnow's F1 minus each peer's. On wcxb-dev-even it
adds the F1 of each page type for winnow and the peers, and the mean
shares of the "with" and "without" snippets found in the output.

--data defaults to $WINNOW_DATA, else ../shared/data beside the module root.
With --json the last line of stdout is {"dataset","pages","precision",
"recall","f1","accuracy","lang_agreement"} (wcxb-dev-even: "by_type"
{type: F1}, "with_rate", "without_rate" instead of "accuracy").
lang_agreement is the share of pages whose record's lang is the set's
language (daniel-ru ru; daniel-zh, cleaneval-zh zh), null on the sets of
several languages; the text report counts the pages by lang on every set. --out FILE writes
{"id","precision","recall","f1"} per page. --vs TOOL (go-readability,
go-trafilatura; go-trafilatura-fallback on wcxb-dev-even) lists the pages
where that tool beats winnow, worst first. --half 1|2 scores the pages of
one half of the sites (wcxb-dev-even: CRC-32 of the domain, as winnow eval
metadata --half).`,
		Example: `  winnow eval extract scrapinghub
  winnow eval extract daniel-ru --json --out /tmp/daniel-ru.pages.jsonl
  winnow eval extract cleaneval-zh --vs go-readability
  winnow eval extract wcxb-dev-even --vs go-trafilatura-fallback`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvalExtract(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	addEvalFlags(cmd, &f.data, &f.json)
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "write per-page scores as JSON lines to this file")
	fl.StringVar(&f.vs, "vs", "", "list pages where this reference tool (go-readability, go-trafilatura, go-trafilatura-fallback) beats winnow")
	fl.IntVar(&f.workers, "workers", 0, "extraction goroutines (default: GOMAXPROCS)")
	fl.IntVar(&f.top, "top", 30, "how many pages --vs lists")
	fl.StringVar(&f.rules, "rules", "", "apply these per-site rules (a file or a folder)")
	fl.BoolVar(&f.render, "render", false, "run the layout stage: render every page offline in headless Chromium (the stored pages carry no stylesheets)")
	fl.StringVar(&f.chromium, "chromium", "", "with --render: the Chromium binary")
	addHalfFlag(cmd, &f.half)
	return cmd
}

// addHalfFlag adds --half, the split of a set by its sites
// (evaluate.DomainHalf) that tuned figures are reported on.
func addHalfFlag(cmd *cobra.Command, half *int) {
	cmd.Flags().IntVar(half, "half", 0, "score one half of the sites: 1 (CRC-32 of the domain even: the rules were tuned on it) or 2 (held out)")
}

func checkHalf(half int) error {
	if half < 0 || half > 2 {
		return usagef("--half %d: want 1 or 2 (0: every page)", half)
	}
	return nil
}

func dataDir(flag string) (string, error) {
	if flag != "" {
		st, err := os.Stat(flag)
		if err != nil || !st.IsDir() {
			return "", fmt.Errorf("--data %s: not a folder", flag)
		}
		return flag, nil
	}
	return shareddata.Dir()
}

func runEvalExtract(ctx context.Context, w io.Writer, name string, f evalFlags) error {
	if !slices.Contains(evaluate.ExtractDatasets, name) {
		return usagef("unknown dataset %q: want one of %s", name, strings.Join(evaluate.ExtractDatasets, ", "))
	}
	if peers := evaluate.SetPeers(name); f.vs != "" && !slices.Contains(peers, f.vs) {
		return usagef("--vs %q: want %s", f.vs, strings.Join(peers, " or "))
	}
	if err := errors.Join(atLeast("workers", f.workers, 0), atLeast("top", f.top, 0), checkHalf(f.half)); err != nil {
		return err
	}
	dir, err := dataDir(f.data)
	if err != nil {
		return err
	}
	ds, err := evaluate.LoadExtract(dir, name)
	if err != nil {
		return err
	}
	if err := ds.KeepHalf(f.half); err != nil {
		return usagef("--half: %v", err)
	}
	rules, err := loadRules(f.rules)
	if err != nil {
		return err
	}
	st := pipeline.Stages{Rules: rules}
	if f.render {
		cfg, closeFn, err := startRender(f.chromium, f.workers, render.Options{}, "")
		if err != nil {
			return err
		}
		defer closeFn()
		st.Render = cfg
	}
	rep := evaluate.CompareExtract(dir, ds, evaluate.WinnowExtractor(ctx, st), f.workers)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	rep.WriteText(bw)
	if f.out != "" {
		if err := withOutput(f.out, os.Stdout, rep.WritePageScores); err != nil {
			return err
		}
	}
	if f.json {
		printJSON(bw, rep.Result)
	}
	if f.vs != "" {
		return rep.WriteLosses(bw, f.vs, f.top)
	}
	return nil
}

// printJSON writes v as one line of JSON.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// addEvalFlags adds the flags every eval command has: --data and --json.
func addEvalFlags(cmd *cobra.Command, data *string, asJSON *bool) {
	cmd.Flags().StringVar(data, "data", "", "shared data folder (default: $WINNOW_DATA or ../shared/data)")
	cmd.Flags().BoolVar(asJSON, "json", false, "print the figures as one JSON object on the last line")
}
