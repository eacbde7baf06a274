package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/evaluate"
	"github.com/winnow-go/winnow/pipeline"
)

func newEvalMetadataCmd() *cobra.Command {
	var data string
	var asJSON bool
	var workers, half int
	cmd := &cobra.Command{
		Use:   "metadata <dataset>",
		Short: "Score page metadata on " + strings.Join(evaluate.MetadataDatasets, ", "),
		Long: `Score the metadata stage with the rules of ../shared/data/README.md:
wcxb-dev-even (title exact match and token F1, author and publication date
accuracy, each also split by pages with and without a gold value) and
htmldate (publication date P, R, F and accuracy by htmldate's TP/FP/FN
rules; the tools get the HTML only, no URL). cleaneval-zh (69 Chinese
pages, most in GB2312/GBK) is scored by wcxb-dev-even's author and date
rules on the author and date gold of its meta.tsv, its Chinese names
also parted at white space and "、"; UNKNOWN is null, and a gold month
or year compares the month or year. trafilatura (990 pages, mostly
German) is scored by the same rules on the title, author and date that
its evaldata.json gives beside the snippets, each on the pages with a
gold value for it alone (its empty cells were not annotated), its
author parts also split at "und" and ";" as its German gold writes
them. Beside
winnow it prints the
figures of go-trafilatura and go-htmldate on the same pages, from their
outputs committed in evaluate/testdata/peers (peers/cmd/peermeta).

With --json the last line of stdout is {"dataset","pages","date_p",
"date_r","date_f","date_accuracy","author_accuracy","title_exact",
"title_f1","lang_agreement"}, null where the set has no gold for a field.`,
		Example: `  winnow eval metadata wcxb-dev-even
  winnow eval metadata htmldate --json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvalMetadata(cmd.Context(), cmd.OutOrStdout(), args[0], data, asJSON, workers, half)
		},
	}
	addEvalFlags(cmd, &data, &asJSON)
	cmd.Flags().IntVar(&workers, "workers", 0, "goroutines (default: GOMAXPROCS)")
	addHalfFlag(cmd, &half)
	return cmd
}

func runEvalMetadata(ctx context.Context, w io.Writer, name, data string, asJSON bool, workers, half int) error {
	if !slices.Contains(evaluate.MetadataDatasets, name) {
		return usagef("unknown dataset %q: want one of %s", name, strings.Join(evaluate.MetadataDatasets, ", "))
	}
	if err := atLeast("workers", workers, 0); err != nil {
		return err
	}
	if err := checkHalf(half); err != nil {
		return err
	}
	dir, err := dataDir(data)
	if err != nil {
		return err
	}
	rep, err := evaluate.CompareMetadata(ctx, dir, name, pipeline.Stages{}, workers, half)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	if err := rep.WriteText(bw); err != nil {
		return err
	}
	if len(rep.Errors) > 0 {
		fmt.Fprintf(bw, "  %d pages failed in winnow (scored as no output)\n", len(rep.Errors))
	}
	if asJSON {
		return printJSON(bw, rep.Rows[0].Scores)
	}
	return nil
}
