package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/evaluate"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/render"
)

func newEvalSitesCmd() *cobra.Command {
	var f sitesEvalFlags
	cmd := &cobra.Command{
		Use:   "sites cleanportaleval|swde-book [--rules R] [--pages odd|even|A-B]",
		Short: "Score cross-page template removal on CleanPortalEval",
		Long: `Scores every variant on the 71 pages of CleanPortalEval with its metric
(LCS-aligned words, micro precision, recall and F1): single-page (the
density classifier alone), template (the site's Infholder template, then
the density classifier) and template-only. Pages are grouped by URL with
back-off to shorter path prefixes and to the host.

swde-book: 500 product pages of each of two shops. survival is the share of
the attribute values (title, author, ISBN-13, publisher, date) still in the
kept text; recurring_removed the share of words of text nodes recurring on
more than half of a shop's pages that the kept text no longer has (as
whole words, each occurrence in the kept text matching one node).

--rules applies per-site rules in every variant; --pages scores only the
pages whose number is odd, even, or in a range A-B (all pages are still
read, so templates learn from the same pages). To measure suggested
rules on pages they were not learned from:

  winnow rules suggest $(ls DATA/sites/cleanportaleval/*/input/*[13579].html.gz) --out odd.yaml
  winnow eval sites cleanportaleval --pages even --rules odd.yaml`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvalSites(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	addEvalFlags(cmd, &f.data, &f.asJSON)
	cmd.Flags().StringVar(&f.rulesPath, "rules", "", "apply these per-site rules (a file or a folder)")
	cmd.Flags().StringVar(&f.pages, "pages", "all", "score only these pages: all, odd, even, or A-B")
	cmd.Flags().BoolVar(&f.render, "render", false, "run the layout stage: render every page offline in headless Chromium")
	cmd.Flags().StringVar(&f.chromium, "chromium", "", "with --render: the Chromium binary")
	return cmd
}

type sitesEvalFlags struct {
	data, rulesPath, pages string
	chromium               string
	asJSON, render         bool
}

func runEvalSites(ctx context.Context, w io.Writer, dataset string, f sitesEvalFlags) error {
	switch dataset {
	case "cleanportaleval", "swde-book", "swde":
	default:
		return usagef("eval sites: want cleanportaleval or swde-book")
	}
	rules, err := loadRules(f.rulesPath)
	if err != nil {
		return err
	}
	keep, err := evaluate.PageFilter(f.pages)
	if err != nil {
		return usagef("eval sites: %v", err)
	}
	st := pipeline.Stages{Rules: rules}
	if f.render {
		cfg, closeFn, err := startRender(f.chromium, 0, render.Options{}, "")
		if err != nil {
			return err
		}
		defer closeFn()
		st.Render = cfg
	}
	dir, err := dataDir(f.data)
	if err != nil {
		return err
	}
	var rep interface{ WriteText(io.Writer) error }
	if dataset == "cleanportaleval" {
		rep, err = evaluate.CompareCleanPortalEval(ctx, dir, keep, st)
	} else {
		rep, err = evaluate.CompareSWDE(ctx, dir, keep, st)
	}
	if err != nil {
		return err
	}
	return writeReport(w, rep, f.asJSON)
}
