package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/ascii"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/warc"
)

// Input is one page to process, or a record to pass on as skipped or
// error (Status set).
type Input struct {
	URL         string
	Source      string // file and record offset, file and line, or relative path
	FetchedAt   time.Time
	ContentType string
	Body        []byte
	Score       *float64
	Extra       map[string]json.RawMessage // JSONL fields winnow does not know
	Status      string                     // "" for a page; StatusSkipped or StatusError otherwise
	Err         string
	// Kind classifies a skipped or failed input for the run summary (one
	// of the Kind... constants).
	Kind string
	// Warnings are what the reader noticed about the input (stray bytes
	// a WARC reader skipped after it); the record lists them.
	Warnings []string

	// at says where the page's body can be read again on its own, when
	// the reader knows (a WARC response record, a file of a folder).
	at locator
}

// locator is where one page's body is stored: the record of a WARC file
// at an offset, or a file of a folder.
type locator struct {
	path   string // the WARC file, or the page file
	offset int64  // of the WARC record; -1 for a page file
	dir    string // the folder a page file was read from
	limit  int    // the page size limit it was read with
}

// read reads the page's body (and its content type) again; the locator
// must name a place (path set).
func (l locator) read() (body []byte, contentType string, err error) {
	if l.offset < 0 {
		in := readPage(l.dir, l.path, l.limit)
		if in.Status != "" {
			return nil, "", errors.New(in.Err)
		}
		return in.Body, "", nil
	}
	return payloadAt(l.path, l.offset)
}

// ReadInputs calls fn for every page of every path, in order: WARC files
// (.warc, .warc.gz), JSONL files (.jsonl, .jsonl.gz, .json), .html/.htm
// files and folders of them (gzipped or not). fn may keep the Input, Body
// included: every Body is a buffer of its own.
func ReadInputs(paths []string, fn func(Input) error) error {
	return readInputs(paths, fn, nil, 1, extract.DefaultMaxPageBytes, false)
}

// readInputs is ReadInputs that also reports, to res when it is not nil,
// where each subresource of a WARC (a 2xx response that is not a page, or
// a revisit of one) is stored, and reads the files of a folder on up to
// readers goroutines. With skim, the pages of a plain WARC file come
// without their Body (their locator says where it is), read past rather
// than read.
func readInputs(paths []string, fn func(Input) error, res func(url, path string, offset int64), readers, limit int, skim bool) error {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		switch {
		case st.IsDir():
			err = readFolder(p, fn, readers, limit)
		case strings.HasSuffix(p, ".warc") || strings.HasSuffix(p, ".warc.gz"):
			err = readWARC(p, fn, res, skim)
		case strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".jsonl.gz") || strings.HasSuffix(p, ".json"):
			err = readJSONL(p, fn, limit)
		case htmlFile(p):
			err = fn(readPage(filepath.Dir(p), p, limit))
		default:
			return fmt.Errorf("pipeline: %s: not a WARC, JSONL or HTML file, or a folder", p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// gzipRatio is how many bytes a gzipped byte of HTML is taken to hold when
// inputBytes guesses the size of an input; real pages compress 4 to 6
// times.
const gzipRatio = 8

// inputBytes guesses, from the sizes of the files only, how many bytes
// the inputs hold once decompressed; generously, so that an input it
// puts under a limit rarely exceeds it. Paths it cannot read count as
// nothing: reading them reports the error.
func inputBytes(paths []string) int64 {
	size := func(name string, n int64) int64 {
		if strings.HasSuffix(name, ".gz") {
			return n * gzipRatio
		}
		return n
	}
	var total int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			total += size(p, st.Size())
			continue
		}
		filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && htmlFile(d.Name()) {
				if info, err := d.Info(); err == nil {
					total += size(q, info.Size())
				}
			}
			return nil
		})
	}
	return total
}

// isHTML decides from the Content-Type, or by sniffing when there is none.
func isHTML(contentType string, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && contentType != "" {
		return mt == "text/html" || mt == "application/xhtml+xml"
	}
	// DetectContentType calls any text after a UTF-8 byte-order mark
	// plain text, and knows only pages that start with one of a few tags:
	// a page saved with a BOM is sniffed without it, and a text page with
	// an <html> or doctype tag in its first 1,024 bytes (after a <base> or
	// <meta> line, say) is a page.
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	switch ct := http.DetectContentType(body); {
	case strings.HasPrefix(ct, "text/html"):
		return true
	case strings.HasPrefix(ct, "text/plain"):
		head := body[:min(len(body), 1024)]
		return ascii.IndexFold(head, "<html") >= 0 || ascii.IndexFold(head, "<!doctype html") >= 0
	}
	return false
}

// warcDate parses WARC-Date; invalid dates (ClueWeb09 has "2008-10-294T...")
// give the zero time.
func warcDate(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05-0700", "20060102150405"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// readWARC turns records into pages as DESIGN.md's table says: 2xx HTML
// responses and HTML resources are pages; 3xx responses are skipped with
// their Location; other HTTP errors are skipped with their status;
// revisits are resolved to an earlier payload of the same file when it
// is there (a revisit whose payload is in another file is skipped, in
// winnow run as in winnow-beam); a record's source is the path as given
// and its offset; other types give no record; a malformed record is an error
// record with its offset.
func readWARC(path string, fn func(Input) error, res func(url, path string, offset int64), skim bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := warc.NewReader(f)
	if err != nil {
		return err
	}
	r.SetOwnBlocks(true) // pages keep their bodies: no copy of each
	skim = skim && r.Skim(skimPrefix)
	var skipped int64  // stray bytes skipped so far
	var stray []string // warnings of stray bytes not yet told
	// Earlier 2xx responses, for revisits: by record ID, by payload digest
	// and by target URI; html says whether the payload is a page.
	type earlier struct {
		offset int64
		html   bool
	}
	byID := map[string]earlier{}
	byDigest := map[string]earlier{}
	byURI := map[string]earlier{}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var re *warc.RecordError
			if errors.As(err, &re) {
				skipped = r.Skipped() // the error record stands for them
				if ferr := fn(Input{Source: fmt.Sprintf("%s@%d", path, re.Offset), Status: StatusError, Err: err.Error(), Kind: KindWARC}); ferr != nil {
					return ferr
				}
				continue
			}
			return err
		}
		if n := r.Skipped() - skipped; n > 0 {
			// The reader looks past a block for the next record: bytes
			// there that are no record mean the record's Content-Length
			// was likely short, and its page cut.
			stray = append(stray, fmt.Sprintf("warc: %d stray bytes after the record at offset %d were skipped (its Content-Length may be short and its page cut)", n, rec.Offset))
			skipped = r.Skipped()
		}
		in := Input{URL: rec.TargetURI(), Source: fmt.Sprintf("%s@%d", path, rec.Offset), FetchedAt: warcDate(rec.Get("WARC-Date")), Warnings: stray}
		// A skimmed record whose first bytes do not say what it is is
		// read whole.
		whole := func() error {
			var err error
			if rec.Block, err = blockAt(path, rec.Offset); err != nil {
				return fmt.Errorf("reading the record at %d again: %w", rec.Offset, err)
			}
			return nil
		}
		typ := rec.Type()
		if rec.Partial() && typ != "response" {
			if err := whole(); err != nil {
				return err
			}
		}
		switch typ {
		case "response":
			resp, err := warc.ParseResponseOwned(rec.Block)
			if rec.Partial() && !headDecides(rec.Block, resp, err) {
				if err := whole(); err != nil {
					return err
				}
				resp, err = warc.ParseResponseOwned(rec.Block)
			}
			if err != nil {
				continue // a response that is not HTTP (dns:, whois) is no page
			}
			in.ContentType = resp.Header.Get("Content-Type")
			html := isHTML(in.ContentType, resp.Body)
			if resp.StatusCode >= 200 && resp.StatusCode < 300 {
				e := earlier{rec.Offset, html}
				if id := rec.Get("WARC-Record-ID"); id != "" {
					byID[id] = e
				}
				if d := rec.Get("WARC-Payload-Digest"); d != "" {
					byDigest[d] = e
				}
				byURI[in.URL] = e
			}
			switch {
			case resp.StatusCode >= 300 && resp.StatusCode < 400:
				in.Status, in.Err, in.Kind = StatusSkipped, fmt.Sprintf("redirect %d: to %s", resp.StatusCode, resp.Header.Get("Location")), KindRedirect
			case resp.StatusCode >= 400:
				if !html {
					continue
				}
				in.Status, in.Err, in.Kind = StatusSkipped, fmt.Sprintf("HTTP %d: %s", resp.StatusCode, resp.Status), KindHTTP
			case !html:
				if res != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
					res(in.URL, path, rec.Offset)
				}
				continue // CSS, scripts, images: resources, not pages
			default:
				if !rec.Partial() {
					in.Body = resp.Body // a slice of the record's own block (SetOwnBlocks)
				}
				in.at = locator{path: path, offset: rec.Offset}
			}
		case "resource":
			ct := rec.Get("Content-Type")
			if !isHTML(ct, rec.Block) {
				continue
			}
			in.ContentType, in.Body = ct, rec.Block // a block of its own (SetOwnBlocks)
		case "revisit":
			e, ok := byID[rec.Get("WARC-Refers-To")]
			if !ok {
				e, ok = byDigest[rec.Get("WARC-Payload-Digest")]
			}
			if !ok {
				e, ok = byURI[strings.Trim(rec.Get("WARC-Refers-To-Target-URI"), "<>")]
			}
			if !ok {
				// Only a revisit of a page is a page: its own HTTP header
				// (when it has one) says what it was.
				if resp, err := warc.ParseResponseOwned(rec.Block); err != nil || !isHTML(resp.Header.Get("Content-Type"), nil) {
					continue
				}
				in.Status, in.Err, in.Kind = StatusSkipped, "revisit: the payload is not in the input", KindRevisit
				break
			}
			if !e.html {
				if res != nil {
					res(in.URL, path, e.offset)
				}
				continue // a revisit of a stylesheet or a script
			}
			body, ct, err := payloadAt(path, e.offset)
			if err != nil {
				in.Status, in.Err, in.Kind = StatusError, "revisit: "+err.Error(), KindRevisit
				break
			}
			in.ContentType, in.Body = ct, body
			in.at = locator{path: path, offset: e.offset}
		default:
			continue // request, metadata, warcinfo, conversion
		}
		stray = nil // told, on this record or the first one given after it
		if err := fn(in); err != nil {
			return err
		}
	}
}

// skimPrefix is how many first bytes of each record a skimming read
// reads: the HTTP header and enough of the body to sniff its type.
const skimPrefix = 16 << 10

// headDecides reports whether the first bytes of a response record's
// block, parsed as resp (or failing with err), decide all that a
// skimming read takes from it: they hold the whole HTTP header, and
// either a Content-Type or, to sniff, the first 1,024 bytes of a body
// that is neither chunked nor encoded.
func headDecides(head []byte, resp *warc.Response, err error) bool {
	if !bytes.Contains(head, []byte("\r\n\r\n")) && !bytes.Contains(head, []byte("\n\n")) {
		return false
	}
	if err != nil {
		return true // no HTTP response, whatever follows
	}
	if _, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil {
		return true
	}
	coded := resp.Header.Get("Transfer-Encoding") != "" || resp.Header.Get("Content-Encoding") != ""
	return !coded && len(resp.Body) >= 1024
}

// payloadAt re-reads the HTTP body of the response record at offset.
func payloadAt(path string, offset int64) ([]byte, string, error) {
	block, err := blockAt(path, offset)
	if err != nil {
		return nil, "", err
	}
	resp, err := warc.ParseResponseOwned(block)
	if err != nil {
		return nil, "", err
	}
	return resp.Body, resp.Header.Get("Content-Type"), nil
}

// blockAt re-reads the whole block of the record at offset, in a buffer
// of its own.
func blockAt(path string, offset int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	r, err := warc.NewReader(f)
	if err != nil {
		return nil, err
	}
	r.SetOwnBlocks(true)
	rec, err := r.Next()
	if err != nil {
		return nil, err
	}
	return rec.Block, nil
}

// readJSONL reads objects with "url" and "html" (optional "fetched_at",
// "score", "content_type"); other fields pass through to the output.
func readJSONL(path string, fn func(Input) error, limit int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	return jsonl.ScanLimit(r, path, jsonLineLimit(limit), func(line int, b []byte, long bool) error {
		in := Input{Source: fmt.Sprintf("%s:%d", path, line)}
		if long {
			in.Status, in.Err, in.Kind = StatusError, fmt.Sprintf("line longer than %d bytes (a page over the page size limit)", jsonLineLimit(limit)), KindJSON
			return fn(in)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			in.Status, in.Err, in.Kind = StatusError, "bad JSON: "+err.Error(), KindJSON
		} else {
			in = jsonInput(in, raw)
		}
		return fn(in)
	})
}

// jsonLineLimit is the longest JSONL line read for pages of at most limit
// bytes: JSON escapes make a page's string longer than the page (Go
// writes < as \u003c), so a line may be longer than its page, and it has
// other fields. A longer line is an error record, read past in bounded
// memory.
func jsonLineLimit(limit int) int {
	if limit <= 0 {
		return 0
	}
	return 2*limit + 1<<20
}

func jsonInput(in Input, raw map[string]json.RawMessage) Input {
	var s string
	if json.Unmarshal(raw["url"], &s) == nil {
		in.URL = s
	}
	if json.Unmarshal(raw["html"], &s) == nil {
		in.Body = []byte(s)
	} else {
		in.Status, in.Err, in.Kind = StatusError, `no "html" string`, KindJSON
	}
	if json.Unmarshal(raw["content_type"], &s) == nil {
		in.ContentType = s
	}
	if json.Unmarshal(raw["fetched_at"], &s) == nil {
		in.FetchedAt, _ = time.Parse(time.RFC3339, s)
	}
	var score float64
	if json.Unmarshal(raw["score"], &score) == nil {
		in.Score = &score
	}
	for _, k := range []string{"url", "html", "content_type", "fetched_at", "score"} {
		delete(raw, k)
	}
	if len(raw) > 0 {
		in.Extra = raw
	}
	return in
}

var (
	baseHref  = regexp.MustCompile(`(?i)^<base\s[^>]*href\s*=`)
	canonical = regexp.MustCompile(`(?i)^<link\s[^>]*rel\s*=\s*["']?canonical["']?[^>]*>$`)
	hrefAttr  = regexp.MustCompile(`(?i)href\s*=\s*["']?([^"'\s>]+)`)
)

// readFolder reads .html and .htm files (gzipped or not) under dir in
// lexical order. The URL comes from a first-line <text id="URL"> wrapper,
// <base href>, <link rel=canonical>, or else the file path.
func readFolder(dir string, fn func(Input) error, readers, limit int) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && htmlFile(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	if readers <= 1 {
		for _, p := range files {
			if err := fn(readPage(dir, p, limit)); err != nil {
				return err
			}
		}
		return nil
	}
	// Files are read and decompressed on several goroutines and handed
	// to fn in path order.
	order := make(chan chan Input, 2*readers)
	sem := make(chan struct{}, readers)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(order)
		for _, p := range files {
			ch := make(chan Input, 1)
			select {
			case sem <- struct{}{}:
			case <-stop:
				return
			}
			go func() {
				ch <- readPage(dir, p, limit)
				<-sem
			}()
			select {
			case order <- ch:
			case <-stop:
				return
			}
		}
	}()
	for ch := range order {
		if err := fn(<-ch); err != nil {
			return err
		}
	}
	return nil
}

// htmlFile reports whether a file name is a page: .html or .htm, gzipped
// or not.
func htmlFile(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	return strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".htm")
}

// readPage reads one page file; source is its path relative to dir. At
// most limit+1 bytes are read, decompressed ones for a gzipped file, so
// that a small file that expands to gigabytes costs no more than a page
// (extract marks the page truncated). A file that is not a regular file
// (a FIFO, a device) is not opened: reading one could wait forever.
func readPage(dir, p string, limit int) Input {
	rel, _ := filepath.Rel(dir, p)
	in := Input{Source: filepath.ToSlash(rel), URL: fileURL(p), at: locator{path: p, offset: -1, dir: dir, limit: limit}}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		in.Status, in.Err, in.Kind = StatusError, "not a regular file", KindRead
		if err != nil {
			in.Err = err.Error()
		}
		return in
	}
	b, err := gz.ReadFileLimit(p, limit)
	if err != nil {
		in.Status, in.Err, in.Kind = StatusError, err.Error(), KindRead
		return in
	}
	in.Body = b
	if u, body := extract.StripTextWrapper(b); u != "" {
		in.URL, in.Body = u, body
	} else if u := pageURL(b); u != "" {
		in.URL = u
	}
	return in
}

// fileURL is the file: URL of a path, made absolute: the site of a page
// with no URL of its own is the folder it lies in (infholder.Site).
func fileURL(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// pageURL finds a saved page's own absolute URL: a <base href> line that
// a saver put before the document itself (SWDE's pages start with one,
// as CleanEval's start with a <text id> line), else <link
// rel=canonical>. A <base> inside the document is the site's, not the
// page's: a site may give every page <base href="http://site/">, and
// taking it would give nine articles one URL. Relative URLs name no site
// and are ignored. A case-blind scan finds the tag names, and the
// expressions only read the tag found: most pages have neither tag, and
// an expression run over the whole head is slow to fail.
func pageURL(b []byte) string {
	head := b[:min(len(b), 64<<10)]
	first := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(first) > 5 && ascii.IndexFold(first[:5], "<base") == 0 {
		if tag := tagAround(first, 0); baseHref.Match(tag) {
			if m := hrefAttr.FindSubmatch(tag); m != nil {
				if u := absoluteURL(m[1]); u != "" {
					return u
				}
			}
		}
	}
	for off := 0; ; {
		i := ascii.IndexFold(head[off:], "canonical")
		if i < 0 {
			return ""
		}
		i += off
		if tag := tagAround(head, i); canonical.Match(tag) {
			if m := hrefAttr.FindSubmatch(tag); m != nil {
				return absoluteURL(m[1])
			}
		}
		off = i + len("canonical")
	}
}

// tagAround is the markup from the last '<' at or before i to the first
// '>' after it (nil when there is none).
func tagAround(b []byte, i int) []byte {
	start := bytes.LastIndexByte(b[:i+1], '<')
	end := bytes.IndexByte(b[i:], '>')
	if start < 0 || end < 0 {
		return nil
	}
	return b[start : i+end+1]
}

// absoluteURL returns s when it is an absolute URL with a host, else "".
func absoluteURL(s []byte) string {
	if u, err := url.Parse(string(s)); err == nil && u.IsAbs() && u.Host != "" {
		return string(s)
	}
	return ""
}
