package evaluate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/jsonl"
)

// Metric names how a dataset is scored; each follows ../shared/data/README.md.
type Metric int

const (
	// Shingles is the Scrapinghub benchmark: 4-token shingles, F1 of mean P and R.
	Shingles Metric = iota + 1
	// Snippets is the trafilatura benchmark: "with"/"without" snippets, micro counts.
	Snippets
	// BagOfWords is the DAnIEL/CleanEval-zh metric: token multisets (each
	// ideograph a token), mean of page F1.
	BagOfWords
	// WCXB is the WCXB metric: multisets of the `\w+` runs of the
	// lower-cased text, mean of page F1, reported also per page type, with
	// the shares of "with" and "without" snippets found.
	WCXB
)

// ExtractDatasets lists the single-page extraction datasets in a fixed order.
var ExtractDatasets = []string{"scrapinghub", "trafilatura", "daniel-ru", "daniel-zh", "cleaneval-zh", "wcxb-dev-even"}

// Page is one evaluation page: its raw bytes and what it is scored against.
type Page struct {
	ID      string
	URL     string
	HTML    []byte   // raw bytes as stored (wrapper lines already removed)
	Gold    string   // expected text (Shingles, BagOfWords, WCXB)
	With    []string // snippets that must appear (Snippets, WCXB)
	Without []string // snippets that must not appear (Snippets, WCXB)
	Type    string   // the page type (WCXB: article, forum, product, ...)
	Domain  string   // the page's site as the set names it (WCXB), for splits by domain
}

// Dataset is a loaded evaluation set.
type Dataset struct {
	Name   string
	Metric Metric
	Pages  []Page // sorted by ID
	// Lang is the ISO 639-1 code of the language every page is written
	// in, as the set's own documentation states it (SetLang); "" for a
	// set of several languages.
	Lang string
}

// KeepHalf keeps the pages of one half of the set's sites (DomainHalf:
// 1 or 2; 0 keeps every page), for figures on sites a rule was not tuned
// on. A set whose pages name no domain has no halves.
func (ds *Dataset) KeepHalf(half int) error {
	if half == 0 {
		return nil
	}
	if len(ds.Pages) > 0 && ds.Pages[0].Domain == "" {
		return fmt.Errorf("evaluate: %s names no domains: it has no halves", ds.Name)
	}
	ds.Pages = slices.DeleteFunc(ds.Pages, func(p Page) bool { return DomainHalf(p.Domain) != half })
	return nil
}

// SetLang is the language of every page of an extraction set, as
// ../shared/data/README.md describes the set (never as an identifier
// labels it): "ru" for daniel-ru, "zh" for daniel-zh (Simplified and
// Traditional) and cleaneval-zh, "" for the sets that mix languages
// (scrapinghub, trafilatura, wcxb-dev-even are mostly but not all
// English).
func SetLang(name string) string {
	switch name {
	case "daniel-ru":
		return "ru"
	case "daniel-zh", "cleaneval-zh":
		return "zh"
	}
	return ""
}

// ErrUnknownDataset is returned by LoadExtract for a name it does not know.
var ErrUnknownDataset = errors.New("evaluate: unknown dataset")

// LoadExtract reads one of ExtractDatasets from dataDir (the shared data
// folder). Pages are sorted by ID so every run sees the same order.
func LoadExtract(dataDir, name string) (*Dataset, error) {
	dir := filepath.Join(dataDir, "extract", name)
	var ds *Dataset
	var err error
	switch name {
	case "scrapinghub":
		ds, err = loadScrapinghub(dir)
	case "trafilatura":
		ds, err = loadTrafilatura(dir)
	case "daniel-ru", "daniel-zh", "cleaneval-zh":
		ds, err = loadGoldDir(dir)
	case "wcxb-dev-even":
		ds, err = loadWCXB(dir)
	default:
		return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnknownDataset, name, strings.Join(ExtractDatasets, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("evaluate: load %s: %w", name, err)
	}
	ds.Name, ds.Lang = name, SetLang(name)
	sort.Slice(ds.Pages, func(i, j int) bool { return ds.Pages[i].ID < ds.Pages[j].ID })
	return ds, nil
}

func loadScrapinghub(dir string) (*Dataset, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		return nil, err
	}
	var gt map[string]struct {
		ArticleBody string `json:"articleBody"`
		URL         string `json:"url"`
	}
	if err := json.Unmarshal(raw, &gt); err != nil {
		return nil, fmt.Errorf("ground-truth.json: %w", err)
	}
	ds := &Dataset{Metric: Shingles}
	for id, g := range gt {
		b, err := gz.ReadFile(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, err
		}
		ds.Pages = append(ds.Pages, Page{ID: id, URL: g.URL, HTML: b, Gold: g.ArticleBody})
	}
	return ds, nil
}

// evalEntry is one page of the trafilatura set's evaldata.json: its file,
// its snippets, and the metadata gold beside them.
type evalEntry struct {
	File    string          `json:"file"`
	With    []string        `json:"with"`
	Without []string        `json:"without"`
	Title   *string         `json:"title"`
	Author  json.RawMessage `json:"author"` // a name, a list of names or null
	Date    *string         `json:"date"`
}

// readEvaldata reads the trafilatura set's evaldata.json, keyed by URL.
func readEvaldata(dir string) (map[string]evalEntry, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "evaldata.json"))
	if err != nil {
		return nil, err
	}
	var ev map[string]evalEntry
	if err := json.Unmarshal(raw, &ev); err != nil {
		return nil, fmt.Errorf("evaldata.json: %w", err)
	}
	return ev, nil
}

func loadTrafilatura(dir string) (*Dataset, error) {
	ev, err := readEvaldata(dir)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Metric: Snippets}
	for u, e := range ev {
		b, err := gz.ReadFile(filepath.Join(dir, "html", e.File+".gz"))
		if err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(e.File, ".html")
		url := u
		if !strings.Contains(u, "://") {
			url = "" // the "hard::" entries carry no page URL
		}
		ds.Pages = append(ds.Pages, Page{ID: id, URL: url, HTML: b, With: e.With, Without: e.Without})
	}
	return ds, nil
}

// loadGoldDir reads html/<id>.html.gz with gold/<id>.txt (daniel-*, cleaneval-zh).
func loadGoldDir(dir string) (*Dataset, error) {
	files, err := filepath.Glob(filepath.Join(dir, "html", "*.html.gz"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no pages in %s", filepath.Join(dir, "html"))
	}
	ds := &Dataset{Metric: BagOfWords}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".html.gz")
		b, gold, err := readPageGold(dir, id)
		if err != nil {
			return nil, err
		}
		url, body := extract.StripTextWrapper(b)
		ds.Pages = append(ds.Pages, Page{ID: id, URL: url, HTML: body, Gold: gold})
	}
	return ds, nil
}

// readPageGold reads a page's html/<id>.html.gz and gold/<id>.txt in dir.
func readPageGold(dir, id string) (html []byte, gold string, err error) {
	if html, err = gz.ReadFile(filepath.Join(dir, "html", id+".html.gz")); err != nil {
		return nil, "", err
	}
	g, err := os.ReadFile(filepath.Join(dir, "gold", id+".txt"))
	return html, string(g), err
}

// loadWCXB reads a WCXB-style set: meta.jsonl gives each page's id, URL,
// page type and snippets, html/<id>.html.gz its bytes and gold/<id>.txt
// its main content.
func loadWCXB(dir string) (*Dataset, error) {
	meta, err := jsonl.ReadFile[struct {
		ID       string   `json:"id"`
		URL      string   `json:"url"`
		PageType string   `json:"pagetype"`
		Domain   string   `json:"domain"`
		With     []string `json:"with"`
		Without  []string `json:"without"`
	}](filepath.Join(dir, "meta.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(meta) == 0 {
		return nil, fmt.Errorf("no pages in %s", filepath.Join(dir, "meta.jsonl"))
	}
	ds := &Dataset{Metric: WCXB}
	for _, m := range meta {
		b, gold, err := readPageGold(dir, m.ID)
		if err != nil {
			return nil, err
		}
		ds.Pages = append(ds.Pages, Page{ID: m.ID, URL: m.URL, HTML: b, Gold: gold,
			With: m.With, Without: m.Without, Type: m.PageType, Domain: m.Domain})
	}
	return ds, nil
}
