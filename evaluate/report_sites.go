package evaluate

import (
	"context"
	"fmt"
	"io"

	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
)

// SiteRun is one row of the site evaluations: a variant with one of the
// template signatures (SinglePage uses none).
type SiteRun struct {
	Name      string
	Variant   SiteVariant
	Signature infholder.Signature
}

// SiteRuns lists the rows of the site evaluations: single-page, then
// template and template-only with each of infholder.Signatures. The rows
// of the default signature (content) carry the bare variant names, the
// others "variant/signature".
func SiteRuns() []SiteRun {
	out := []SiteRun{{string(SinglePage), SinglePage, infholder.SigContent}}
	for _, v := range []SiteVariant{Template, TemplateOnly} {
		for _, sig := range infholder.Signatures {
			name := string(v)
			if sig != infholder.SigContent {
				name += "/" + string(sig)
			}
			out = append(out, SiteRun{name, v, sig})
		}
	}
	return out
}

// SiteRows are the figures of the rows of SiteRuns, by name.
type SiteRows[S any] struct {
	Variants map[string]S `json:"variants"`
	// Rows are the names of Variants in the order of SiteRuns.
	Rows []string `json:"-"`
}

func (r *SiteRows[S]) add(name string, s S) {
	if r.Variants == nil {
		r.Variants = map[string]S{}
	}
	r.Variants[name] = s
	r.Rows = append(r.Rows, name)
}

// SitesReport is winnow eval sites cleanportaleval: every row of SiteRuns
// scored on CleanPortalEval. It marshals to the --json line:
// {"dataset","pages","precision","recall","f1","variants"}, the figures
// being the template row's.
type SitesReport struct {
	Dataset string `json:"dataset"`
	Pages   int    `json:"pages"` // the pages scored
	PRF            // the template row's figures
	SiteRows[PRF]
	// TemplateGain is the paired bootstrap interval (1000 rounds, seed 1)
	// of the template row's F1 minus single-page's.
	TemplateGain Interval `json:"-"`
	// With rules in the stages, WithoutRules is the template row without
	// them, and RulesGain the interval of the F1 with rules minus without.
	WithoutRules *PRF     `json:"-"`
	RulesGain    Interval `json:"-"`
}

// CompareCleanPortalEval loads CleanPortalEval from dataDir, extracts all
// its pages with each row of SiteRuns through the stages st (the
// templates learn from every page) and scores the pages keep selects
// (nil: all).
func CompareCleanPortalEval(ctx context.Context, dataDir string, keep func(id string) bool, st pipeline.Stages) (*SitesReport, error) {
	all, err := LoadCleanPortalEval(dataDir)
	if err != nil {
		return nil, err
	}
	var pages []SitePage
	for _, p := range all {
		if keep == nil || keep(p.ID) {
			pages = append(pages, p)
		}
	}
	rep := &SitesReport{Dataset: "cleanportaleval", Pages: len(pages)}
	perPage := map[SiteVariant][]PageScore{}
	for _, sr := range SiteRuns() {
		texts, err := ExtractSites(ctx, all, sr.Variant, st.WithSignature(sr.Signature))
		if err != nil {
			return nil, err
		}
		if sr.Name == string(SinglePage) || sr.Name == string(Template) {
			perPage[sr.Variant] = SitePageScores(pages, texts)
		}
		rep.add(sr.Name, ScoreSites(pages, texts))
	}
	rep.PRF = rep.Variants[string(Template)]
	rep.TemplateGain = PairedBootstrap(Snippets, perPage[Template], perPage[SinglePage], 1000, 1)
	if st.Rules != nil {
		texts, err := ExtractSites(ctx, all, Template, pipeline.Stages{Render: st.Render})
		if err != nil {
			return nil, err
		}
		s := ScoreSites(pages, texts)
		rep.WithoutRules = &s
		rep.RulesGain = PairedBootstrap(Snippets, perPage[Template], SitePageScores(pages, texts), 1000, 1)
	}
	return rep, nil
}

// WriteText writes a line per row, the interval of template minus
// single-page, and with rules the row and the interval without them.
func (r *SitesReport) WriteText(w io.Writer) error {
	for _, name := range r.Rows {
		s := r.Variants[name]
		fmt.Fprintf(w, "%-24s pages %d  P %.4f  R %.4f  F1 %.4f\n", name, r.Pages, s.Precision, s.Recall, s.F1)
	}
	iv := r.TemplateGain
	_, err := fmt.Fprintf(w, "template - single-page: F1 %+.4f [95%% %+.4f, %+.4f] (paired bootstrap over pages, 1000 rounds)\n", iv.Diff, iv.Low, iv.High)
	if s := r.WithoutRules; s != nil {
		iv := r.RulesGain
		fmt.Fprintf(w, "%-24s pages %d  P %.4f  R %.4f  F1 %.4f\n", "template without rules", r.Pages, s.Precision, s.Recall, s.F1)
		_, err = fmt.Fprintf(w, "template with rules - without: F1 %+.4f [95%% %+.4f, %+.4f] (paired bootstrap over pages, 1000 rounds)\n", iv.Diff, iv.Low, iv.High)
	}
	return err
}

// SWDEReport is winnow eval sites swde-book: every row of SiteRuns scored
// on the SWDE book pages. It marshals to the --json line:
// {"dataset","pages","survival","recurring_removed","variants"}, the
// figures being the template row's.
type SWDEReport struct {
	Dataset   string `json:"dataset"`
	Pages     int    `json:"pages"` // the pages scored
	SWDEScore        // the template row's figures
	SiteRows[SWDEScore]
}

// CompareSWDE loads the SWDE book pages from dataDir, extracts every page
// with each row of SiteRuns through the stages st and scores the pages
// keep selects (nil: all) with ScoreSWDE.
func CompareSWDE(ctx context.Context, dataDir string, keep func(id string) bool, st pipeline.Stages) (*SWDEReport, error) {
	sites, err := LoadSWDE(dataDir)
	if err != nil {
		return nil, err
	}
	rep := &SWDEReport{Dataset: "swde-book"}
	for _, site := range sites {
		for _, p := range site.Pages {
			if keep == nil || keep(p.ID) {
				rep.Pages++
			}
		}
	}
	for _, sr := range SiteRuns() {
		s, err := ScoreSWDE(ctx, sites, sr.Variant, st.WithSignature(sr.Signature), keep)
		if err != nil {
			return nil, err
		}
		rep.add(sr.Name, s)
	}
	rep.SWDEScore = rep.Variants[string(Template)]
	return rep, nil
}

// WriteText writes a line per row: survival (and the values lost) and
// recurring_removed.
func (r *SWDEReport) WriteText(w io.Writer) error {
	for _, name := range r.Rows {
		s := r.Variants[name]
		_, err := fmt.Fprintf(w, "%-24s pages %d  survival %.4f (%d of %d values lost)  recurring removed %.4f\n", name, r.Pages, s.Survival, s.Lost, s.Values, s.RecurringRemoved)
		if err != nil {
			return err
		}
	}
	return nil
}
