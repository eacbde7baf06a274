package evaluate

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/internal/textseg"
	"github.com/winnow-go/winnow/pipeline"
)

// MetadataDatasets are the sets with metadata gold, in a fixed order.
var MetadataDatasets = []string{"wcxb-dev-even", "htmldate", "cleaneval-zh", "trafilatura"}

// MetadataPeers are the tools whose metadata outputs on the same pages
// are committed in testdata/peers (peers/cmd/peermeta writes them).
var MetadataPeers = []string{"go-trafilatura", "go-htmldate-extensive", "go-htmldate-fast"}

// MetaPage is one page with metadata gold. A nil gold field is null in
// the set (the page has no such value), or the set has no gold for the
// field at all (MetaDataset.Fields).
type MetaPage struct {
	ID, URL string
	HTML    []byte
	Domain  string
	Title   *string
	Author  *string
	Date    *string // YYYY-MM-DD (or YYYY-MM)
}

// MetaDataset is a loaded metadata set.
type MetaDataset struct {
	Name  string
	Pages []MetaPage
	// HTMLOnly: the tools get the HTML without its URL (htmldate's
	// harness does so).
	HTMLOnly bool
	// Titles and Authors say whether the set has gold for those fields;
	// DateRule is "accuracy" (WCXB) or "htmldate" (TP/FP/FN).
	Titles, Authors bool
	DateRule        string
	// AuthorParts splits an author gold and an output into their parts;
	// nil is the README's rule (commas, "&" and "and"). cleaneval-zh's
	// gold writes Chinese names apart with white space or "、" as well
	// ("宋怡 杨志华": hanNameParts), the trafilatura set's German gold
	// "und" and ";" ("Benjamin Fischer und Marcus Theurer": germanParts).
	AuthorParts *regexp.Regexp
	// GoldOnly: an empty gold cell is a field nobody annotated, not a
	// page without the value, so each field is scored on the pages with
	// a gold value for it alone (the trafilatura set).
	GoldOnly bool
}

// LoadMetadata reads one of MetadataDatasets from the shared data folder.
func LoadMetadata(dataDir, name string) (*MetaDataset, error) {
	switch name {
	case "wcxb-dev-even":
		dir := filepath.Join(dataDir, "extract", name)
		meta, err := jsonl.ReadFile[struct {
			ID     string  `json:"id"`
			URL    string  `json:"url"`
			Domain string  `json:"domain"`
			Title  *string `json:"title"`
			Author *string `json:"author"`
			Date   *string `json:"publish_date"`
		}](filepath.Join(dir, "meta.jsonl"))
		if err != nil {
			return nil, err
		}
		ds := &MetaDataset{Name: name, Titles: true, Authors: true, DateRule: "accuracy"}
		for _, m := range meta {
			b, err := gz.ReadFile(filepath.Join(dir, "html", m.ID+".html.gz"))
			if err != nil {
				return nil, err
			}
			ds.Pages = append(ds.Pages, MetaPage{ID: m.ID, URL: m.URL, HTML: b, Domain: m.Domain,
				Title: nonEmpty(m.Title), Author: nonEmpty(m.Author), Date: nonEmpty(m.Date)})
		}
		return ds, nil
	case "cleaneval-zh":
		return loadCleanevalMeta(filepath.Join(dataDir, "extract", name))
	case "trafilatura":
		return loadTrafilaturaMeta(filepath.Join(dataDir, "extract", name))
	case "htmldate":
		dir := filepath.Join(dataDir, "metadata", name)
		meta, err := jsonl.ReadFile[struct {
			ID   string  `json:"id"`
			URL  string  `json:"url"`
			Date *string `json:"date"`
		}](filepath.Join(dir, "meta.jsonl"))
		if err != nil {
			return nil, err
		}
		ds := &MetaDataset{Name: name, HTMLOnly: true, DateRule: "htmldate"}
		for _, m := range meta {
			b, err := gz.ReadFile(filepath.Join(dir, "html", m.ID+".html.gz"))
			if err != nil {
				return nil, err
			}
			ds.Pages = append(ds.Pages, MetaPage{ID: m.ID, URL: m.URL, HTML: b, Domain: hostOf(m.URL), Date: nonEmpty(m.Date)})
		}
		return ds, nil
	}
	return nil, fmt.Errorf("%w %q (metadata sets: %s)", ErrUnknownDataset, name, strings.Join(MetadataDatasets, ", "))
}

// loadCleanevalMeta reads cleaneval-zh's author and date gold from its
// meta.tsv (author_gold, date_gold) for the pages under html/, which keep
// their original bytes after the CleanEval wrapper line (its URL is the
// page's). "UNKNOWN" (once misspelt "UNKNWON"), an empty cell and a date
// cell that holds no date (one holds a name) are null. A date is its
// calendar day ("2005-5-7 21:23:57" is 2005-05-07), or its month or year
// when the gold gives no more ("1998-3", "2018").
func loadCleanevalMeta(dir string) (*MetaDataset, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "meta.tsv"))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	head := strings.Split(lines[0], "\t")
	col := func(name string) int { return slices.Index(head, name) }
	id, author, date := col("id"), col("author_gold"), col("date_gold")
	if id < 0 || author < 0 || date < 0 {
		return nil, fmt.Errorf("evaluate: %s/meta.tsv has no id, author_gold or date_gold column", dir)
	}
	ds := &MetaDataset{Name: "cleaneval-zh", Authors: true, DateRule: "accuracy", AuthorParts: hanNameParts}
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != len(head) {
			return nil, fmt.Errorf("evaluate: %s/meta.tsv line %d: %d fields, want %d", dir, i+2, len(f), len(head))
		}
		b, err := gz.ReadFile(filepath.Join(dir, "html", f[id]+".html.gz"))
		if err != nil {
			return nil, err
		}
		u, body := extract.StripTextWrapper(b)
		ds.Pages = append(ds.Pages, MetaPage{ID: f[id], URL: u, HTML: body, Domain: hostOf(u),
			Author: known(f[author]), Date: goldDay(f[date])})
	}
	return ds, nil
}

// loadTrafilaturaMeta reads the title, author and date gold that the
// trafilatura set's evaldata.json gives beside its snippets. Its empty
// cells were not annotated (GoldOnly); a list of authors is written
// joined by ", ", and a date is its calendar day ("2022-11-1" is
// 2022-11-01). The "hard::" entries carry no page URL.
func loadTrafilaturaMeta(dir string) (*MetaDataset, error) {
	ev, err := readEvaldata(dir)
	if err != nil {
		return nil, err
	}
	ds := &MetaDataset{Name: "trafilatura", Titles: true, Authors: true, DateRule: "accuracy", GoldOnly: true, AuthorParts: germanParts}
	for u, e := range ev {
		b, err := gz.ReadFile(filepath.Join(dir, "html", e.File+".gz"))
		if err != nil {
			return nil, err
		}
		author, err := goldAuthors(e.Author)
		if err != nil {
			return nil, fmt.Errorf("evaldata.json %s: %w", e.File, err)
		}
		if !strings.Contains(u, "://") {
			u = ""
		}
		var date *string
		if e.Date != nil {
			date = goldDay(*e.Date)
		}
		ds.Pages = append(ds.Pages, MetaPage{ID: strings.TrimSuffix(e.File, ".html"), URL: u, HTML: b,
			Domain: hostOf(u), Title: nonEmpty(e.Title), Author: author, Date: date})
	}
	slices.SortFunc(ds.Pages, func(a, b MetaPage) int { return strings.Compare(a.ID, b.ID) })
	return ds, nil
}

// goldAuthors is an author cell that holds a name, a list of names
// (joined by ", ") or nothing (nil).
func goldAuthors(raw json.RawMessage) (*string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return nonEmpty(&one), nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("author is neither a name nor a list of names: %s", raw)
	}
	joined := strings.Join(many, ", ")
	return nonEmpty(&joined), nil
}

// known is a gold cell, nil when it is empty or says UNKNOWN.
func known(s string) *string {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "UNKNOWN") || strings.EqualFold(s, "UNKNWON") {
		return nil
	}
	return &s
}

var goldDate = regexp.MustCompile(`^(\d{4})(?:[-/.年](\d{1,2})(?:[-/.月](\d{1,2}))?)?`)

// goldDay is a gold date cell as YYYY-MM-DD, YYYY-MM or YYYY, nil when it
// holds no date.
func goldDay(s string) *string {
	m := goldDate.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil
	}
	d := m[1]
	for _, p := range m[2:] {
		if p == "" {
			break
		}
		if len(p) == 1 {
			p = "0" + p
		}
		d += "-" + p
	}
	return &d
}

func nonEmpty(s *string) *string {
	if s == nil || *s == "" {
		return nil
	}
	return s
}

func hostOf(u string) string {
	v, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return pipeline.Site(v.Hostname())
}

// DomainHalf puts a site in half 1 or 2 of a set by the parity of the
// CRC-32 of its domain.
func DomainHalf(domain string) int {
	return 1 + int(crc32.ChecksumIEEE([]byte(domain))%2)
}

// MetaOutput is what a tool gives for one page (the peers' committed
// files have this shape, one JSON line per page).
type MetaOutput struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Authors   []string `json:"authors"`
	Published string   `json:"published"`
	// Sources are winnow's metadata_sources (the peers give none).
	Sources map[string]string `json:"sources,omitempty"`
	// PageType is the type winnow gave the page.
	PageType string `json:"page_type,omitempty"`
}

// RunMetadata reads every page's metadata through the stages of st, each
// page on its own, with workers goroutines (0: GOMAXPROCS). A page that
// fails gives an empty output and its error by ID.
func RunMetadata(ctx context.Context, ds *MetaDataset, st pipeline.Stages, workers int) ([]MetaOutput, map[string]error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]MetaOutput, len(ds.Pages))
	fails := make([]error, len(ds.Pages))
	par.Each(len(ds.Pages), workers, func(i int) {
		p := &ds.Pages[i]
		in := pipeline.Input{URL: p.URL, Body: p.HTML}
		if ds.HTMLOnly {
			in.URL = ""
		}
		out[i].ID = p.ID
		pg, _, err := st.Page(ctx, in, nil, "")
		if err != nil {
			fails[i] = err
			return
		}
		r := pipeline.NewRecord(pg, "", pipeline.RecordOptions{})
		out[i].Title, out[i].Authors, out[i].Published = r.Title, r.Authors, r.Published
		out[i].Sources, out[i].PageType = r.Sources, string(r.PageType)
	})
	errs := map[string]error{}
	for i, err := range fails {
		if err != nil {
			errs[ds.Pages[i].ID] = err
		}
	}
	return out, errs
}

// PeerMetadata reads a peer's outputs for a set from peers, a folder of
// <set>.<tool>.jsonl files (nil, nil when the peer has none for it).
func PeerMetadata(peers fs.FS, set, tool string) ([]MetaOutput, error) {
	f, err := peers.Open(set + "." + tool + ".jsonl")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonl.Read[MetaOutput](f, set+"."+tool+".jsonl")
}

// MetaScores are the metadata figures of one tool on one set, by the
// rules of ../shared/data/README.md. A nil figure is a field the set has
// no gold for.
type MetaScores struct {
	Dataset        string   `json:"dataset"`
	Pages          int      `json:"pages"`
	DateP          *float64 `json:"date_p"`
	DateR          *float64 `json:"date_r"`
	DateF          *float64 `json:"date_f"`
	DateAccuracy   *float64 `json:"date_accuracy"`
	AuthorAccuracy *float64 `json:"author_accuracy"`
	TitleExact     *float64 `json:"title_exact"`
	TitleF1        *float64 `json:"title_f1"`
	LangAgreement  *float64 `json:"lang_agreement"`

	// The htmldate rule's counts, and the accuracies split by whether
	// the page has a gold value (with) or not (without).
	TP, FP, FN                int             `json:"-"`
	DateWith, DateWithout     Ratio           `json:"-"`
	AuthorWith, AuthorWithout Ratio           `json:"-"`
	PerPage                   []MetaPageScore `json:"-"`
}

// Ratio is a count of correct pages out of a number of pages.
type Ratio struct{ Correct, Of int }

func (r Ratio) String() string {
	if r.Of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f (%d/%d)", float64(r.Correct)/float64(r.Of), r.Correct, r.Of)
}

// MetaPageScore is one page's verdicts.
type MetaPageScore struct {
	ID                   string
	TitleExact, AuthorOK bool
	TitleF1              float64
	Date                 string // "tp", "fp", "fn" (htmldate) or "ok", "wrong" (accuracy)
}

// ScoreMetadata scores outputs (one per page, in the set's order) on ds.
func ScoreMetadata(ds *MetaDataset, outs []MetaOutput) (*MetaScores, error) {
	if len(outs) != len(ds.Pages) {
		return nil, fmt.Errorf("evaluate: %d metadata outputs for %d pages", len(outs), len(ds.Pages))
	}
	s := &MetaScores{Dataset: ds.Name, Pages: len(ds.Pages)}
	var titleExact, titleF1, nTitles float64
	for i, p := range ds.Pages {
		o := outs[i]
		if o.ID != p.ID {
			return nil, fmt.Errorf("evaluate: metadata output %d is page %q, want %q", i, o.ID, p.ID)
		}
		ps := MetaPageScore{ID: p.ID}
		if ds.Titles && p.Title != nil {
			nTitles++
			ps.TitleExact = normMeta(o.Title) == normMeta(*p.Title) && normMeta(o.Title) != ""
			if ps.TitleExact {
				titleExact++
			}
			ps.TitleF1 = bagScore(WCXBTokens(normMeta(*p.Title)), WCXBTokens(normMeta(o.Title))).F1
			titleF1 += ps.TitleF1
		}
		if ds.Authors && (p.Author != nil || !ds.GoldOnly) {
			ps.AuthorOK = authorCorrect(p.Author, o.Authors, cmp.Or(ds.AuthorParts, authorParts))
			tally(&s.AuthorWith, &s.AuthorWithout, p.Author != nil, ps.AuthorOK)
		}
		switch ds.DateRule {
		case "htmldate":
			switch {
			case o.Published == "":
				s.FN++
				ps.Date = "fn"
			case p.Date != nil && *p.Date == o.Published:
				s.TP++
				ps.Date = "tp"
			default:
				s.FP++
				ps.Date = "fp"
			}
		case "accuracy":
			if p.Date == nil && ds.GoldOnly {
				break
			}
			ok := dateCorrect(p.Date, o.Published)
			tally(&s.DateWith, &s.DateWithout, p.Date != nil, ok)
			ps.Date = "wrong"
			if ok {
				ps.Date = "ok"
			}
		}
		s.PerPage = append(s.PerPage, ps)
	}
	n := float64(len(ds.Pages))
	if ds.Titles {
		t := n
		if ds.GoldOnly {
			t = nTitles
		}
		s.TitleExact, s.TitleF1 = ptr(fdiv(titleExact, t)), ptr(fdiv(titleF1, t))
	}
	if ds.Authors {
		s.AuthorAccuracy = ptr(fdiv(float64(s.AuthorWith.Correct+s.AuthorWithout.Correct), float64(s.AuthorWith.Of+s.AuthorWithout.Of)))
	}
	switch ds.DateRule {
	case "htmldate":
		tp, fp, fn := float64(s.TP), float64(s.FP), float64(s.FN)
		s.DateP, s.DateR = ptr(fdiv(tp, tp+fp)), ptr(fdiv(tp, tp+fn))
		s.DateF, s.DateAccuracy = ptr(fdiv(2*tp, 2*tp+fp+fn)), ptr(tp/n)
	case "accuracy":
		s.DateAccuracy = ptr(fdiv(float64(s.DateWith.Correct+s.DateWithout.Correct), float64(s.DateWith.Of+s.DateWithout.Of)))
	}
	return s, nil
}

// tally counts one page, right or not, in the ratio of pages with a gold
// value or in that of pages without.
func tally(with, without *Ratio, hasGold, ok bool) {
	r := without
	if hasGold {
		r = with
	}
	r.Of++
	if ok {
		r.Correct++
	}
}

func ptr(f float64) *float64 { f = round4(f); return &f }

func fdiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func round4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

var caseFold = cases.Fold()

// normMeta is the README's norm: NFC, full case folding, white space
// runs folded to one space, trimmed.
func normMeta(s string) string {
	return strings.Join(strings.Fields(caseFold.String(norm.NFC.String(s))), " ")
}

var authorParts = regexp.MustCompile(`\s*(?:,|&|\band\b)\s*`)

// authorCorrect: with no gold the page is right only without output;
// otherwise the multisets of parts (split by sep: at commas, "&" and
// "and" by the README's rule) must be equal. Several output authors are
// written joined by ", ".
func authorCorrect(gold *string, out []string, sep *regexp.Regexp) bool {
	o := normMeta(strings.Join(out, ", "))
	if gold == nil {
		return o == ""
	}
	a, b := parts(normMeta(*gold), sep), parts(o, sep)
	return len(a) == len(b) && len(a) > 0 && textseg.Common(a, b) == len(a)
}

// hanNameParts split cleaneval-zh's names at white space and "、" too,
// germanParts the trafilatura set's at "und" and ";".
var (
	hanNameParts = regexp.MustCompile(`\s*(?:,|&|\band\b|、|\s)\s*`)
	germanParts  = regexp.MustCompile(`\s*(?:,|&|;|\band\b|\bund\b)\s*`)
)

func parts(s string, re *regexp.Regexp) []string {
	var out []string
	for _, p := range re.Split(s, -1) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// dateCorrect: with no gold the page is right only without output; a
// month-only gold compares the month.
func dateCorrect(gold *string, out string) bool {
	if gold == nil {
		return out == ""
	}
	if out == "" {
		return false
	}
	g := *gold
	if (len(g) == 4 || len(g) == 7) && len(out) >= len(g) { // a year or a month only
		return out[:len(g)] == g
	}
	return len(out) >= 10 && out[:10] == g
}

//go:embed testdata/peers
var peerFiles embed.FS

// MetaReport is winnow's metadata figures on one set, with the peers'
// on the same pages.
type MetaReport struct {
	Set     *MetaDataset
	Rows    []NamedMetaScores // winnow first, then the peers with outputs for the set
	Outputs []MetaOutput      // winnow's
	Errors  map[string]error  // pages winnow failed on, by ID
}

// CompareMetadata runs winnow's stages on a metadata set and scores them
// beside the peers' committed outputs.
//
// half, when not 0, keeps the pages of one half of the set's sites: 1 or
// 2 for the domains whose CRC-32 is even or odd (the split the metadata
// rules were tuned on: tuned on half 1, half 2 held out).
func CompareMetadata(ctx context.Context, dataDir, set string, st pipeline.Stages, workers, half int) (*MetaReport, error) {
	ds, err := LoadMetadata(dataDir, set)
	if err != nil {
		return nil, err
	}
	if half != 0 {
		ds.Pages = slices.DeleteFunc(ds.Pages, func(p MetaPage) bool { return DomainHalf(p.Domain) != half })
	}
	outs, errs := RunMetadata(ctx, ds, st, workers)
	s, err := ScoreMetadata(ds, outs)
	if err != nil {
		return nil, err
	}
	rep := &MetaReport{Set: ds, Rows: []NamedMetaScores{{"winnow", s}}, Outputs: outs, Errors: errs}
	peers, err := fs.Sub(peerFiles, "testdata/peers")
	if err != nil {
		return nil, err
	}
	for _, tool := range MetadataPeers {
		po, err := PeerMetadata(peers, set, tool)
		if err != nil {
			return nil, err
		}
		if po == nil {
			continue
		}
		if half != 0 {
			keep := map[string]bool{}
			for _, p := range ds.Pages {
				keep[p.ID] = true
			}
			po = slices.DeleteFunc(po, func(o MetaOutput) bool { return !keep[o.ID] })
		}
		ps, err := ScoreMetadata(ds, po)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tool, err)
		}
		if strings.HasPrefix(tool, "go-htmldate") { // it gives dates alone
			ps.AuthorAccuracy, ps.TitleExact, ps.TitleF1 = nil, nil, nil
		}
		rep.Rows = append(rep.Rows, NamedMetaScores{tool, ps})
	}
	return rep, nil
}

// WriteText prints the figures, one line per tool, winnow first.
func (r *MetaReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: %d pages\n", r.Set.Name, len(r.Set.Pages))
	for _, r := range r.Rows {
		s := r.Scores
		fmt.Fprintf(w, "  %-22s", r.Tool)
		if s.DateF != nil {
			fmt.Fprintf(w, " date P %.3f R %.3f F %.3f acc %.3f (TP %d FP %d FN %d)", *s.DateP, *s.DateR, *s.DateF, *s.DateAccuracy, s.TP, s.FP, s.FN)
		} else if s.DateAccuracy != nil {
			fmt.Fprintf(w, " date %.3f [with %s, without %s]", *s.DateAccuracy, s.DateWith, s.DateWithout)
		}
		if s.AuthorAccuracy != nil {
			fmt.Fprintf(w, " author %.3f [with %s, without %s]", *s.AuthorAccuracy, s.AuthorWith, s.AuthorWithout)
		}
		if s.TitleExact != nil {
			fmt.Fprintf(w, " title exact %.3f F1 %.3f", *s.TitleExact, *s.TitleF1)
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// NamedMetaScores are one tool's scores.
type NamedMetaScores struct {
	Tool   string
	Scores *MetaScores
}
