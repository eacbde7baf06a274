package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/evaluate"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/render"
	"github.com/winnow-go/winnow/xpathrules"
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
			var err error
			if f.rules, err = loadRules(f.rulesPath); err != nil {
				return err
			}
			if f.keep, err = evaluate.PageFilter(f.pages); err != nil {
				return usagef("eval sites: %v", err)
			}
			f.stages = pipeline.Stages{Rules: f.rules}
			if f.render {
				cfg, closeFn, err := startRender(f.chromium, 0, render.Options{}, "")
				if err != nil {
					return err
				}
				defer closeFn()
				f.stages.Render = cfg
			}
			switch args[0] {
			case "cleanportaleval":
				return runEvalSites(cmd.Context(), cmd.OutOrStdout(), f)
			case "swde-book", "swde":
				return runEvalSWDE(cmd.Context(), cmd.OutOrStdout(), f)
			}
			return usagef("eval sites: want cleanportaleval or swde-book")
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
	rules                  *xpathrules.Set
	stages                 pipeline.Stages
	keep                   func(id string) bool
}

// siteVariant is one row of the site evaluations: a variant with one of
// the template signatures (single-page uses none).
type siteVariant struct {
	name    string
	variant evaluate.SiteVariant
	sig     infholder.Signature
}

// siteVariants lists single-page, then template and template-only with
// each signature; the default signature's rows carry the bare names.
func siteVariants() []siteVariant {
	out := []siteVariant{{string(evaluate.SinglePage), evaluate.SinglePage, infholder.SigContent}}
	for _, v := range []evaluate.SiteVariant{evaluate.Template, evaluate.TemplateOnly} {
		for _, sig := range infholder.Signatures {
			name := string(v)
			if sig != infholder.SigContent {
				name += "/" + string(sig)
			}
			out = append(out, siteVariant{name, v, sig})
		}
	}
	return out
}

func runEvalSites(ctx context.Context, w io.Writer, f sitesEvalFlags) error {
	dir, err := dataDir(f.data)
	if err != nil {
		return err
	}
	all, err := evaluate.LoadCleanPortalEval(dir)
	if err != nil {
		return err
	}
	var pages []evaluate.SitePage
	for _, p := range all {
		if f.keep(p.ID) {
			pages = append(pages, p)
		}
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	variants := map[string]evaluate.PRF{}
	perPage := map[evaluate.SiteVariant][]evaluate.PageScore{}
	for _, sv := range siteVariants() {
		texts, err := evaluate.ExtractSites(ctx, all, sv.variant, f.stages.WithSignature(sv.sig))
		if err != nil {
			return err
		}
		s := evaluate.ScoreSites(pages, texts)
		if sv.name == string(evaluate.SinglePage) || sv.name == string(evaluate.Template) {
			perPage[sv.variant] = evaluate.SitePageScores(pages, texts)
		}
		variants[sv.name] = s
		fmt.Fprintf(bw, "%-24s pages %d  P %.4f  R %.4f  F1 %.4f\n", sv.name, len(pages), s.Precision, s.Recall, s.F1)
	}
	iv := evaluate.PairedBootstrap(evaluate.Snippets, perPage[evaluate.Template], perPage[evaluate.SinglePage], 1000, 1)
	fmt.Fprintf(bw, "template - single-page: F1 %+.4f [95%% %+.4f, %+.4f] (paired bootstrap over pages, 1000 rounds)\n", iv.Diff, iv.Low, iv.High)
	if f.rules != nil {
		texts, err := evaluate.ExtractSites(ctx, all, evaluate.Template, pipeline.Stages{Render: f.stages.Render})
		if err != nil {
			return err
		}
		s := evaluate.ScoreSites(pages, texts)
		iv := evaluate.PairedBootstrap(evaluate.Snippets, perPage[evaluate.Template], evaluate.SitePageScores(pages, texts), 1000, 1)
		fmt.Fprintf(bw, "%-24s pages %d  P %.4f  R %.4f  F1 %.4f\n", "template without rules", len(pages), s.Precision, s.Recall, s.F1)
		fmt.Fprintf(bw, "template with rules - without: F1 %+.4f [95%% %+.4f, %+.4f] (paired bootstrap over pages, 1000 rounds)\n", iv.Diff, iv.Low, iv.High)
	}
	if f.asJSON {
		best := variants[string(evaluate.Template)]
		b, err := json.Marshal(struct {
			Dataset   string                  `json:"dataset"`
			Pages     int                     `json:"pages"`
			Precision float64                 `json:"precision"`
			Recall    float64                 `json:"recall"`
			F1        float64                 `json:"f1"`
			Variants  map[string]evaluate.PRF `json:"variants"`
		}{"cleanportaleval", len(pages), best.Precision, best.Recall, best.F1, variants})
		if err != nil {
			return err
		}
		fmt.Fprintln(bw, string(b))
	}
	return nil
}

func runEvalSWDE(ctx context.Context, w io.Writer, f sitesEvalFlags) error {
	dir, err := dataDir(f.data)
	if err != nil {
		return err
	}
	sites, err := evaluate.LoadSWDE(dir)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	variants := map[string]evaluate.SWDEScore{}
	pages := 0
	for _, site := range sites {
		for _, p := range site.Pages {
			if f.keep(p.ID) {
				pages++
			}
		}
	}
	for _, sv := range siteVariants() {
		s, err := evaluate.ScoreSWDE(ctx, sites, sv.variant, f.stages.WithSignature(sv.sig), f.keep)
		if err != nil {
			return err
		}
		variants[sv.name] = s
		fmt.Fprintf(bw, "%-24s pages %d  survival %.4f (%d of %d values lost)  recurring removed %.4f\n", sv.name, pages, s.Survival, s.Lost, s.Values, s.RecurringRemoved)
	}
	if f.asJSON {
		best := variants[string(evaluate.Template)]
		b, err := json.Marshal(struct {
			Dataset          string                        `json:"dataset"`
			Pages            int                           `json:"pages"`
			Survival         float64                       `json:"survival"`
			RecurringRemoved float64                       `json:"recurring_removed"`
			Variants         map[string]evaluate.SWDEScore `json:"variants"`
		}{"swde-book", pages, best.Survival, best.RecurringRemoved, variants})
		if err != nil {
			return err
		}
		fmt.Fprintln(bw, string(b))
	}
	return nil
}
