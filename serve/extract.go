package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/pipeline"
)

// Formats of /v1/extract.
const (
	FormatJSON     = "json"
	FormatText     = "text"
	FormatMarkdown = "markdown"
)

// extractQuery is what the query string of /v1/extract and /v1/batch asks.
type extractQuery struct {
	format string
	record pipeline.RecordOptions
}

func parseExtractQuery(q url.Values) (extractQuery, error) {
	eq := extractQuery{format: FormatJSON}
	if f := q.Get("format"); f != "" {
		eq.format = f
	}
	switch eq.format {
	case FormatJSON:
	case FormatText:
	case FormatMarkdown:
		eq.record.Markdown = true
	default:
		return eq, fmt.Errorf("format %q: want json, text or markdown", eq.format)
	}
	var err error
	if eq.record.Blocks, err = boolParam(q, "blocks"); err != nil {
		return eq, err
	}
	md, err := boolParam(q, "markdown")
	eq.record.Markdown = eq.record.Markdown || md
	return eq, err
}

func boolParam(q url.Values, name string) (bool, error) {
	v := q.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false", name, v)
	}
	return b, nil
}

// isJSON says whether a request body is JSON by its Content-Type.
func isJSON(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/json"
}

// pageURL is the page URL a raw body comes with: the url parameter, else
// the X-Winnow-URL header.
func pageURL(r *http.Request) string {
	if u := r.URL.Query().Get("url"); u != "" {
		return u
	}
	return r.Header.Get("X-Winnow-URL")
}

// badRequest is an error the client made: answered 400.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func badf(format string, a ...any) error { return &badRequest{fmt.Sprintf(format, a...)} }

// pageInput is the page a /v1/extract body gives: JSON {"url","html",...}
// as a line of winnow run's JSONL input, or the raw page with its URL
// beside it. A page named by its URL alone is fetched when the policy
// allows.
func (s *Server) pageInput(ctx context.Context, r *http.Request, body []byte) (pipeline.Input, error) {
	if isJSON(r) {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(body, &probe); err != nil || probe == nil {
			return pipeline.Input{}, badf("body is not a JSON object: %v", err)
		}
		if _, ok := probe["html"]; !ok {
			var u string
			json.Unmarshal(probe["url"], &u)
			return s.fetchInput(ctx, u)
		}
		in := pipeline.JSONInput(body, "")
		if in.Status != "" {
			return in, badf("%s", in.Err)
		}
		if in.URL == "" {
			return in, badf(`no "url"`)
		}
		return in, nil
	}
	u := pageURL(r)
	if len(body) == 0 {
		return s.fetchInput(ctx, u)
	}
	if u == "" {
		return pipeline.Input{}, badf("no page URL: give it as the url parameter or the X-Winnow-URL header")
	}
	if _, err := url.Parse(u); err != nil {
		return pipeline.Input{}, badf("page URL: %v", err)
	}
	return pipeline.Input{URL: u, Body: body, ContentType: r.Header.Get("Content-Type")}, nil
}

// fetchInput is the page of a request that names its URL alone.
func (s *Server) fetchInput(ctx context.Context, u string) (pipeline.Input, error) {
	switch {
	case u == "":
		return pipeline.Input{}, badf("no page: send it as the body, or JSON with \"url\" and \"html\"")
	case !s.fetch.enabled():
		return pipeline.Input{}, badf("no page for %s, and fetching is off (--allow-fetch)", u)
	}
	body, ct, err := s.fetch.get(ctx, u)
	if err != nil {
		return pipeline.Input{}, err
	}
	return pipeline.Input{URL: u, Body: body, ContentType: ct, FetchedAt: time.Now().UTC().Truncate(time.Second)}, nil
}

// inputError answers the error of pageInput: 400 for the client's, 403
// for a refused fetch, 502 for a fetch that failed.
func inputError(w http.ResponseWriter, r *http.Request, err error) {
	var br *badRequest
	switch {
	case errors.As(err, &br):
		writeError(w, r, http.StatusBadRequest, br.msg)
	case errors.Is(err, ErrFetchRefused):
		writeError(w, r, http.StatusForbidden, err.Error())
	default:
		writeError(w, r, http.StatusBadGateway, "fetch: "+err.Error())
	}
}

// record labels one input through the stages, with the saved template of
// its group when the page fits it: the record winnow run writes for that
// page alone.
func (s *Server) record(ctx context.Context, in pipeline.Input, ro pipeline.RecordOptions) *pipeline.Record {
	rec := s.saved.Load().Record(ctx, &s.cfg.Stages, in, ro)
	s.metrics.pages.WithLabelValues(rec.Status).Inc()
	return rec
}

func (s *Server) handleExtract(w http.ResponseWriter, r *http.Request) {
	eq, err := parseExtractQuery(r.URL.Query())
	if err != nil {
		writeError(w, r, http.StatusBadRequest, err.Error())
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	release, ok := s.acquire(w, r)
	if !ok {
		return
	}
	defer release()
	in, err := s.pageInput(r.Context(), r, body)
	if err != nil {
		inputError(w, r, err)
		return
	}
	rec := s.record(r.Context(), in, eq.record)
	switch {
	case eq.format == FormatJSON:
		w.Header().Set("Content-Type", "application/json")
		pipeline.WriteRecord(w, rec)
	case rec.Status != pipeline.StatusOK:
		writeError(w, r, http.StatusUnprocessableEntity, rec.Error)
	case eq.format == FormatText:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(rec.Text))
	default:
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Write([]byte(rec.FrontMatter() + rec.Markdown))
	}
}

// batchLineLimit is the longest batch line: a page of MaxBodyBytes
// written as a JSON string may take twice its bytes (escapes), and a
// line has other fields (as pipeline reads JSONL).
func (s *Server) batchLineLimit() int {
	return int(2*s.cfg.MaxBodyBytes + 1<<20)
}

// handleBatch answers a JSONL body of pages (winnow run's JSONL input)
// with a JSONL stream of their records, one per non-empty line, in
// order, each written as soon as it is made; a line that is not a page
// gets an error record, as in a run. Each line takes a worker slot once
// it is read (see acquireBatch) and renews the read and write deadlines,
// so that a long batch is not cut while a stalled one still is.
func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	eq, err := parseExtractQuery(r.URL.Query())
	if err == nil && eq.format != FormatJSON {
		err = errors.New("a batch answers records: format=json only")
	}
	if err != nil {
		writeError(w, r, http.StatusBadRequest, err.Error())
		return
	}
	release, ok := s.acquireBatch(w, r)
	if !ok {
		return
	}
	defer release()
	w.Header().Set("Content-Type", "application/x-ndjson")
	rc := http.NewResponseController(w)
	bw := bufio.NewWriter(w)
	lines := 0
	err = jsonl.ScanLimit(r.Body, "batch", s.batchLineLimit(), func(line int, b []byte, long bool) error {
		source := fmt.Sprintf("batch:%d", line)
		in := pipeline.Input{Source: source, Status: pipeline.StatusError, Kind: pipeline.KindJSON,
			Err: fmt.Sprintf("line longer than %d bytes (a page over the size limit)", s.batchLineLimit())}
		if !long {
			in = pipeline.JSONInput(b, source)
		}
		lines++
		done, err := s.waitSlot(r.Context())
		if err != nil {
			return err
		}
		rec := s.record(r.Context(), in, eq.record)
		done()
		if err := pipeline.WriteRecord(bw, rec); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		rc.Flush()
		rc.SetReadDeadline(time.Now().Add(s.cfg.ReadTimeout))
		rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout))
		return r.Context().Err()
	})
	if err != nil {
		s.batchFailed(w, r, bw, lines, err)
	}
}

// batchFailed ends a batch whose body could not be read to its end: an
// answer not yet begun is an error answer; a begun one ends with an
// error line, so the client knows the stream is cut.
func (s *Server) batchFailed(w http.ResponseWriter, r *http.Request, bw *bufio.Writer, lines int, err error) {
	var tooBig *http.MaxBytesError
	code := http.StatusBadRequest
	if errors.As(err, &tooBig) {
		code = http.StatusRequestEntityTooLarge
	}
	id, _ := r.Context().Value(ctxKey{}).(string)
	s.log.Warn("batch cut", "request_id", id, "lines", lines, "error", err.Error())
	if lines == 0 {
		writeError(w, r, code, "reading the batch: "+err.Error())
		return
	}
	json.NewEncoder(bw).Encode(map[string]any{"status": pipeline.StatusError, "error": "batch cut after line " + strconv.Itoa(lines) + ": " + err.Error(), "request_id": id})
	bw.Flush()
}
