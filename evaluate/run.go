package evaluate

import (
	"context"
	"runtime"
	"sort"

	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/pipeline"
)

// Extraction is what an Extractor gives for one page: the text that is
// scored and, from extractors that guess it, the page type (scored
// against a set's page types, as wcxb-dev-even has them).
type Extraction struct {
	Text     string
	PageType string // "" when the extractor does not guess page types
	Lang     string // the page's language (ISO 639-1); "" when not named
}

// Extractor turns one evaluation page into the text that is scored.
type Extractor func(p *Page) (Extraction, error)

// WinnowExtractor extracts each page on its own through the stages of
// st, as winnow extract and winnow run --single-page do; the page URL is
// filled in per page. The page type is the one the stages gave the page
// (extract.ClassifyType), and the language the one of its record
// (pipeline.PageLang).
func WinnowExtractor(ctx context.Context, st pipeline.Stages) Extractor {
	return func(p *Page) (Extraction, error) {
		pg, _, err := st.Page(ctx, pipeline.Input{URL: p.URL, Body: p.HTML}, nil, "")
		if err != nil {
			return Extraction{}, err
		}
		return Extraction{Text: pg.Text(), PageType: string(pg.Type), Lang: pipeline.PageLang(pg)}, nil
	}
}

// RunExtract extracts every page of ds with workers goroutines (0 means
// GOMAXPROCS) and scores the texts, and the page types where ds has them
// (Result.PageTypes). A page whose extraction fails scores as empty
// output; its error is returned in errs by page ID.
func RunExtract(ds *Dataset, fn Extractor, workers int) (res *Result, texts map[string]string, errs map[string]error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]Extraction, len(ds.Pages))
	fails := make([]error, len(ds.Pages))
	par.Each(len(ds.Pages), workers, func(i int) { out[i], fails[i] = fn(&ds.Pages[i]) })
	texts = make(map[string]string, len(ds.Pages))
	types := make([]string, len(ds.Pages))
	langs := make([]string, len(ds.Pages))
	errs = make(map[string]error)
	for i, p := range ds.Pages {
		texts[p.ID] = out[i].Text
		types[i], langs[i] = out[i].PageType, out[i].Lang
		if fails[i] != nil {
			errs[p.ID] = fails[i]
		}
	}
	res = Score(ds, texts)
	res.scorePageTypes(ds, types)
	res.scoreLangs(ds, langs)
	return res, texts, errs
}

// Loss is a page where another system scored a higher F1 than winnow.
type Loss struct {
	ID     string  `json:"id"`
	URL    string  `json:"url"`
	Winnow float64 `json:"winnow_f1"`
	Other  float64 `json:"other_f1"`
}

// Losses lists the pages where other beats mine by F1, worst first (ties
// by ID). Both must come from Score on the same dataset.
func Losses(ds *Dataset, mine, other *Result) []Loss {
	var out []Loss
	for i, m := range mine.PerPage {
		o := other.PerPage[i]
		if o.F1 > m.F1+1e-9 {
			out = append(out, Loss{ID: m.ID, URL: ds.Pages[i].URL, Winnow: m.F1, Other: o.F1})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := out[i].Other-out[i].Winnow, out[j].Other-out[j].Winnow
		if di != dj {
			return di > dj
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// ReferenceResult scores a peer's stored outputs
// (reference/<set>.<tool>.jsonl) on ds.
func ReferenceResult(dataDir string, ds *Dataset, tool string) (*Result, error) {
	texts, err := ReferenceTexts(dataDir, ds.Name, tool)
	if err != nil {
		return nil, err
	}
	return Score(ds, texts), nil
}

// ReferenceTexts reads a peer's stored outputs on a set
// (reference/<set>.<tool>.jsonl): the text by page ID.
func ReferenceTexts(dataDir, set, tool string) (map[string]string, error) {
	rows, err := jsonl.ReadFile[struct {
		ID   string `json:"id"`
		Text string `json:"text"`
	}](referencePath(dataDir, set, tool))
	if err != nil {
		return nil, err
	}
	texts := make(map[string]string, len(rows))
	for _, r := range rows {
		texts[r.ID] = r.Text
	}
	return texts, nil
}

func referencePath(dataDir, set, tool string) string {
	return dataDir + "/reference/" + set + "." + tool + ".jsonl"
}
