package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

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
}

func newEvalCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure winnow on the evaluation data in ../shared/data",
	}
	cmd.AddCommand(newEvalExtractCmd(), newEvalDedupCmd(), newEvalSitesCmd())
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
words, mean page F1). Prints the figures and, beside them, those of the
peers whose outputs are stored in reference/, with a paired bootstrap
interval of winnow's F1 minus the best peer's.

--data defaults to $WINNOW_DATA, else ../shared/data beside the module root.
With --json the last line of stdout is {"dataset","pages","precision",
"recall","f1","accuracy"}. --out FILE writes {"id","precision","recall",
"f1"} per page. --vs go-readability|go-trafilatura lists the pages where
that tool beats winnow, worst first.`,
		Example: `  winnow eval extract scrapinghub
  winnow eval extract daniel-ru --json --out /tmp/daniel-ru.pages.jsonl
  winnow eval extract cleaneval-zh --vs go-readability`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvalExtract(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	addEvalFlags(cmd, &f.data, &f.json)
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "write per-page scores as JSON lines to this file")
	fl.StringVar(&f.vs, "vs", "", "list pages where this reference tool (go-readability, go-trafilatura) beats winnow")
	fl.IntVar(&f.workers, "workers", 0, "extraction goroutines (default: GOMAXPROCS)")
	fl.IntVar(&f.top, "top", 30, "how many pages --vs lists")
	fl.StringVar(&f.rules, "rules", "", "apply these per-site rules (a file or a folder)")
	fl.BoolVar(&f.render, "render", false, "run the layout stage: render every page offline in headless Chromium (the stored pages carry no stylesheets)")
	fl.StringVar(&f.chromium, "chromium", "", "with --render: the Chromium binary")
	return cmd
}

var peers = []string{"go-trafilatura", "go-readability"}

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
	known := false
	for _, d := range evaluate.ExtractDatasets {
		known = known || d == name
	}
	if !known {
		return usagef("unknown dataset %q: want one of %s", name, strings.Join(evaluate.ExtractDatasets, ", "))
	}
	if f.vs != "" && f.vs != peers[0] && f.vs != peers[1] {
		return usagef("--vs %q: want %s", f.vs, strings.Join(peers, " or "))
	}
	dir, err := dataDir(f.data)
	if err != nil {
		return err
	}
	ds, err := evaluate.LoadExtract(dir, name)
	if err != nil {
		return err
	}
	start := time.Now()
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
	res, _, errs := evaluate.RunExtract(ds, evaluate.WinnowExtractor(ctx, st), f.workers)
	elapsed := time.Since(start)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, "%-16s pages %-4d P %.4f  R %.4f  F1 %.4f", "winnow", res.Pages, res.Precision, res.Recall, res.F1)
	if res.Accuracy != nil {
		fmt.Fprintf(bw, "  acc %.4f", *res.Accuracy)
	}
	fmt.Fprintf(bw, "  (%.1fs, %d errors)\n", elapsed.Seconds(), len(errs))
	ids := make([]string, 0, len(errs))
	for id := range errs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(bw, "  error %s: %v\n", id, errs[id])
	}
	for _, tool := range peers {
		ref, err := evaluate.ReferenceResult(dir, ds, tool)
		if err != nil {
			fmt.Fprintf(bw, "%-16s (no reference outputs: %v)\n", tool, err)
			continue
		}
		iv := evaluate.PairedBootstrap(ds.Metric, res.PerPage, ref.PerPage, 1000, 1)
		fmt.Fprintf(bw, "%-16s pages %-4d P %.4f  R %.4f  F1 %.4f   winnow-peer %+.4f [95%% %+.4f, %+.4f]\n",
			tool, ref.Pages, ref.Precision, ref.Recall, ref.F1, iv.Diff, iv.Low, iv.High)
		if tool == f.vs {
			defer printLosses(bw, ds, res, ref, tool, f.top)
		}
	}
	if f.out != "" {
		if err := writePageScores(f.out, res); err != nil {
			return err
		}
	}
	if f.json {
		defer func() {
			b, _ := json.Marshal(struct {
				Dataset   string   `json:"dataset"`
				Pages     int      `json:"pages"`
				Precision float64  `json:"precision"`
				Recall    float64  `json:"recall"`
				F1        float64  `json:"f1"`
				Accuracy  *float64 `json:"accuracy,omitempty"`
			}{res.Dataset, res.Pages, res.Precision, res.Recall, res.F1, res.Accuracy})
			fmt.Fprintln(bw, string(b))
		}()
	}
	return nil
}

func printLosses(w io.Writer, ds *evaluate.Dataset, mine, ref *evaluate.Result, tool string, top int) {
	losses := evaluate.Losses(ds, mine, ref)
	fmt.Fprintf(w, "\n%d pages where %s beats winnow (worst first):\n", len(losses), tool)
	for i, l := range losses {
		if i == top {
			fmt.Fprintf(w, "  ... %d more\n", len(losses)-top)
			break
		}
		fmt.Fprintf(w, "  %-70s winnow %.3f  %s %.3f  %s\n", l.ID, l.Winnow, tool, l.Other, l.URL)
	}
}

// addEvalFlags adds the flags every eval command has: --data and --json.
func addEvalFlags(cmd *cobra.Command, data *string, asJSON *bool) {
	cmd.Flags().StringVar(data, "data", "", "shared data folder (default: $WINNOW_DATA or ../shared/data)")
	cmd.Flags().BoolVar(asJSON, "json", false, "print the figures as one JSON object on the last line")
}

func writePageScores(path string, res *evaluate.Result) error {
	return withOutput(path, os.Stdout, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for _, p := range res.PerPage {
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
		return nil
	})
}
