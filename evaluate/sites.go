package evaluate

import (
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/pipeline"
)

// SitePage is one page of a multi-page site set.
type SitePage struct {
	ID, Site, URL string
	HTML          []byte // the page, its wrapper line removed
	Gold          string // CleanPortalEval: the cleaned gold text
}

// LoadCleanPortalEval reads the 71 pages of the 5 site sections, sorted by
// ID, with their gold texts (URL line and <p>, <h>, <l> markers removed,
// entities unescaped).
func LoadCleanPortalEval(dataDir string) ([]SitePage, error) {
	root := filepath.Join(dataDir, "sites", "cleanportaleval")
	inputs, err := filepath.Glob(filepath.Join(root, "*", "input", "*.html.gz"))
	if err != nil {
		return nil, err
	}
	var pages []SitePage
	for _, in := range inputs {
		id := strings.TrimSuffix(filepath.Base(in), ".html.gz")
		site := filepath.Base(filepath.Dir(filepath.Dir(in)))
		raw, err := gz.ReadFile(in)
		if err != nil {
			return nil, err
		}
		url, body := extract.StripTextWrapper(raw)
		gold, err := os.ReadFile(filepath.Join(root, site, "gold", id+".txt"))
		if err != nil {
			return nil, err
		}
		pages = append(pages, SitePage{ID: id, Site: site, URL: url, HTML: body, Gold: cleanPortalGold(string(gold))})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
	return pages, nil
}

// cleanPortalGold drops the URL line and the paragraph markers of a
// CleanPortalEval gold file and unescapes entities.
func cleanPortalGold(s string) string {
	var out []string
	for i, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if i < 3 && strings.HasPrefix(t, "URL:") {
			continue
		}
		for _, m := range []string{"<p>", "<h>", "<l>"} {
			t = strings.TrimPrefix(t, m)
		}
		out = append(out, html.UnescapeString(t))
	}
	return strings.Join(out, "\n")
}

// LCSCounts aligns output and gold words (white-space tokens) with a
// longest common subsequence: matched words are true positives, the rest
// of the output false positives and the rest of the gold false negatives.
func LCSCounts(gold, output string) (tp, fp, fn int) {
	g, o := strings.Fields(gold), strings.Fields(output)
	l := lcs(g, o)
	return l, len(o) - l, len(g) - l
}

// lcs is the length of the longest common subsequence, in two rows.
func lcs(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}

// MicroPRF turns summed counts into precision, recall and F1.
func MicroPRF(tp, fp, fn int) PRF {
	var p PRF
	if tp+fp > 0 {
		p.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		p.Recall = float64(tp) / float64(tp+fn)
	}
	p.F1 = f1(p.Precision, p.Recall)
	return p
}

// ScoreSites scores texts (by page ID) on CleanPortalEval pages: micro
// precision, recall and F1 over LCS-aligned words.
func ScoreSites(pages []SitePage, texts map[string]string) PRF {
	var tp, fp, fn int
	for _, p := range pages {
		a, b, c := LCSCounts(p.Gold, texts[p.ID])
		tp, fp, fn = tp+a, fp+b, fn+c
	}
	return MicroPRF(tp, fp, fn)
}

// SitePageScores scores each CleanPortalEval page on its own, with the
// LCS word counts behind it, so that PairedBootstrap (with the Snippets
// metric, which sums such counts) can compare two variants page by page.
func SitePageScores(pages []SitePage, texts map[string]string) []PageScore {
	out := make([]PageScore, len(pages))
	for i, p := range pages {
		tp, fp, fn := LCSCounts(p.Gold, texts[p.ID])
		prf := MicroPRF(tp, fp, fn)
		out[i] = PageScore{ID: p.Site + "/" + p.ID, Precision: prf.Precision, Recall: prf.Recall, F1: prf.F1,
			snip: SnippetCounts{TP: tp, FP: fp, FN: fn}}
	}
	return out
}

// SiteVariant is one way of extracting the pages of a site set.
type SiteVariant string

// Variants of the site evaluation.
const (
	SinglePage   SiteVariant = "single-page"   // density classifier alone, page by page
	Template     SiteVariant = "template"      // Infholder template, then the density classifier
	TemplateOnly SiteVariant = "template-only" // Infholder template alone: everything else is kept
)

// ExtractSites extracts every page with a variant through the stages of
// st, exactly as winnow run does over the same pages (pass 1 learns the
// site templates from them; SinglePage is run --single-page), and returns
// the texts by page ID.
func ExtractSites(ctx context.Context, pages []SitePage, v SiteVariant, st pipeline.Stages) (map[string]string, error) {
	inputs := make([]pipeline.Input, len(pages))
	for i, p := range pages {
		inputs[i] = pipeline.Input{URL: p.URL, Source: p.ID, Body: p.HTML}
	}
	st.TemplateOnly = v == TemplateOnly
	texts := make([]string, len(pages))
	errs := make([]string, len(pages))
	_, err := pipeline.ProcessPages(ctx, inputs, pipeline.Options{Stages: st, SinglePage: v == SinglePage}, func(i int, r *pipeline.Record, _ *extract.Page) {
		texts[i] = r.Text
		if r.Status != pipeline.StatusOK {
			errs[i] = r.Error
		}
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(pages))
	for i, p := range pages {
		if errs[i] != "" {
			return nil, fmt.Errorf("%s: %s", p.ID, errs[i])
		}
		out[p.ID] = texts[i]
	}
	return out, nil
}

// PageFilter reads a page selection: "" or "all", "odd" or "even" (by the
// number that ends the page ID), or "A-B" (page numbers A to B).
func PageFilter(spec string) (func(id string) bool, error) {
	num := func(id string) (int, bool) {
		j := len(id)
		for j > 0 && id[j-1] >= '0' && id[j-1] <= '9' {
			j--
		}
		n, err := strconv.Atoi(id[j:])
		return n, err == nil
	}
	switch spec {
	case "", "all":
		return func(string) bool { return true }, nil
	case "odd", "even":
		want := 0
		if spec == "odd" {
			want = 1
		}
		return func(id string) bool { n, ok := num(id); return ok && n%2 == want }, nil
	}
	a, b, ok := strings.Cut(spec, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || lo > hi {
		return nil, fmt.Errorf("pages %q: want all, odd, even or A-B", spec)
	}
	return func(id string) bool { n, ok := num(id); return ok && n >= lo && n <= hi }, nil
}
