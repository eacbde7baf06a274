// Package peers runs the Go peers that winnow's metadata stage is measured
// against — go-trafilatura and go-htmldate — on the shared metadata sets and
// writes what they find, one JSON line per page. The outputs are committed in
// the main module (evaluate/testdata/peers), whose evaluator scores them
// beside winnow without importing the peers: this module exists so that their
// dependencies stay out of winnow's go.mod.
//
// The outputs do not change from run to run or as time passes: the peers'
// "today" is pinned to [Today] and the process runs in UTC (see [InUTC]).
package peers

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// Record is one page's metadata as a peer gives it. Empty fields mean the
// peer gave nothing; Authors is never nil, so it encodes as [].
type Record struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Authors   []string `json:"authors"`
	Published string   `json:"published"` // YYYY-MM-DD
}

// A Set is one of the shared metadata sets: html/<id>.html.gz and meta.jsonl
// under Dir (relative to the shared data folder).
type Set struct {
	Name string
	Dir  string
	// WithURL says whether the peers get the page URL from meta.jsonl.
	// htmldate's own harness gives the HTML only, so its set does not.
	WithURL bool
	// Wrapped: the pages are listed in meta.tsv (an id column) instead,
	// and each opens with a CleanEval wrapper line that names its URL
	// (cleaneval-zh); the peers get the bytes after it.
	Wrapped bool
	// Evaldata: the pages are the entries of evaldata.json (the
	// trafilatura set), keyed by URL ("hard::" keys carry none), in the
	// order of their ids, the file names without ".html".
	Evaldata bool
}

// Sets are the sets the peers run on, in output order.
var Sets = []Set{
	{Name: "wcxb-dev-even", Dir: "extract/wcxb-dev-even", WithURL: true},
	{Name: "htmldate", Dir: "metadata/htmldate"},
	{Name: "cleaneval-zh", Dir: "extract/cleaneval-zh", WithURL: true, Wrapped: true},
	{Name: "trafilatura", Dir: "extract/trafilatura", WithURL: true, Evaldata: true},
}

// Page is one page of a set: its id, its URL (empty when the set gives the
// peers none) and its bytes as stored, not re-encoded.
type Page struct {
	ID   string
	URL  string
	HTML []byte
}

// ReadPages reads a set's pages in meta.jsonl order from the data folder.
func ReadPages(dataDir string, s Set) ([]Page, error) {
	dir := filepath.Join(dataDir, s.Dir)
	if s.Wrapped {
		return readWrapped(dir, s)
	}
	if s.Evaldata {
		return readEvaldata(dir, s)
	}
	f, err := os.Open(filepath.Join(dir, "meta.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("peers: %w", err)
	}
	defer f.Close()
	var pages []Page
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20) // wcxb lines carry snippets
	for sc.Scan() {
		var m struct{ ID, URL string }
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, fmt.Errorf("peers: %s meta.jsonl line %d: %w", s.Name, len(pages)+1, err)
		}
		html, err := readGzip(filepath.Join(dir, "html", m.ID+".html.gz"))
		if err != nil {
			return nil, err
		}
		p := Page{ID: m.ID, HTML: html}
		if s.WithURL {
			p.URL = m.URL
		}
		pages = append(pages, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("peers: %s meta.jsonl: %w", s.Name, err)
	}
	return pages, nil
}

// readWrapped reads the pages of a set whose meta.tsv lists them, in its
// order, without their CleanEval wrapper line.
func readEvaldata(dir string, s Set) ([]Page, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "evaldata.json"))
	if err != nil {
		return nil, fmt.Errorf("peers: %w", err)
	}
	var ev map[string]struct {
		File string `json:"file"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		return nil, fmt.Errorf("peers: %s evaldata.json: %w", s.Name, err)
	}
	var pages []Page
	for u, e := range ev {
		b, err := readGzip(filepath.Join(dir, "html", e.File+".gz"))
		if err != nil {
			return nil, err
		}
		p := Page{ID: strings.TrimSuffix(e.File, ".html"), HTML: b}
		if s.WithURL && strings.Contains(u, "://") {
			p.URL = u
		}
		pages = append(pages, p)
	}
	slices.SortFunc(pages, func(a, b Page) int { return strings.Compare(a.ID, b.ID) })
	return pages, nil
}

func readWrapped(dir string, s Set) ([]Page, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "meta.tsv"))
	if err != nil {
		return nil, fmt.Errorf("peers: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "id\t") {
		return nil, fmt.Errorf("peers: %s meta.tsv: no id column first", s.Name)
	}
	var pages []Page
	for _, l := range lines[1:] {
		id, _, _ := strings.Cut(l, "\t")
		b, err := readGzip(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			return nil, err
		}
		u, body := unwrap(b)
		p := Page{ID: id, HTML: body}
		if s.WithURL {
			p.URL = u
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// wrapperLine is a CleanEval page's first line, `<text id="URL" ...>`.
var wrapperLine = regexp.MustCompile(`^\s*<text\s[^>\n]*?\bid="([^"]*)"[^>\n]*>[ \t\r]*\n`)

// unwrap is a page's URL and bytes without the CleanEval wrapper line
// and the "</text>" that closes it, as winnow's extract.StripTextWrapper
// reads them (this module does not import winnow). TestUnwrap checks the
// URL of every page of the set against meta.tsv.
func unwrap(b []byte) (string, []byte) {
	m := wrapperLine.FindSubmatchIndex(b)
	if m == nil {
		return "", b
	}
	body := b[m[1]:]
	if t := bytes.TrimRight(body, " \t\r\n"); bytes.HasSuffix(t, []byte("</text>")) {
		body = t[:len(t)-len("</text>")]
	}
	return string(b[m[2]:m[3]]), body
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("peers: %w", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("peers: %s: %w", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("peers: %s: %w", path, err)
	}
	return b, nil
}

// Run gives every page to the tool with the given number of workers and
// returns the records in page order. A page the tool panics on gets an empty
// record; the panics are counted in the second result (and are deterministic,
// like the rest of the output).
func Run(t Tool, pages []Page, workers int) ([]Record, int) {
	out := make([]Record, len(pages))
	panics := make([]bool, len(pages))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], panics[i] = runPage(t, pages[i])
			}
		}()
	}
	for i := range pages {
		next <- i
	}
	close(next)
	wg.Wait()
	n := 0
	for _, p := range panics {
		if p {
			n++
		}
	}
	return out, n
}

func runPage(t Tool, p Page) (r Record, panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(os.Stderr, "peers: %s panicked on %s: %v\n%s", t.Name, p.ID, v, debug.Stack())
			r, panicked = Record{ID: p.ID, Authors: []string{}}, true
		}
	}()
	r = t.Meta(p)
	r.ID = p.ID
	if r.Authors == nil {
		r.Authors = []string{}
	}
	return r, false
}

// Encode writes records as JSON lines, HTML characters unescaped.
func Encode(records []Record) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range records {
		if err := enc.Encode(r); err != nil {
			panic(err) // a Record of strings always encodes
		}
	}
	return buf.Bytes()
}

// FileName is the output file of a set and tool: <set>.<tool>.jsonl.
func FileName(set, tool string) string { return set + "." + tool + ".jsonl" }
