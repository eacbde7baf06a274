package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/render"
)

// ExtractOne labels one page through the stages and returns it with its
// record (opts.Record says what the record holds). With site (a folder,
// WARC or JSONL file) the page is labelled as a run over the site's pages
// and this one labels it: with the template of its group, learned from
// those pages; a group too small for a template is an error.
func ExtractOne(ctx context.Context, in Input, site string, opts Options) (*extract.Page, *Record, error) {
	var inputs []Input
	if site != "" {
		err := ReadInputs([]string{site}, func(s Input) error {
			if s.Status == "" && (s.URL != in.URL || in.URL == "") {
				inputs = append(inputs, s)
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("site %s: %w", site, err)
		}
	}
	self := len(inputs)
	inputs = append(inputs, in)
	var p *extract.Page
	var rec *Record
	opts.SinglePage = site == ""
	sites, err := ProcessPages(ctx, inputs, opts, func(i int, r *Record, pg *extract.Page) {
		if i == self {
			p, rec = pg, r
		}
	})
	switch {
	case err != nil:
		return nil, nil, err
	case p == nil:
		return nil, nil, fmt.Errorf("%s: %s", in.Source, rec.Error)
	case site != "" && sites.Template(rec.Group) == nil:
		return nil, nil, fmt.Errorf("site %s: the page's group %q has too few pages there for a template (at least %d)", site, rec.Group, infholder.MinPages)
	}
	return p, rec, nil
}

// ReadLimited reads at most limit+1 bytes of r (all when limit <= 0), so
// that extract can tell a page longer than limit and mark it truncated.
func ReadLimited(r io.Reader, limit int) ([]byte, error) {
	if limit > 0 {
		r = io.LimitReader(r, int64(limit)+1)
	}
	return io.ReadAll(r)
}

// Spool copies a WARC or JSONL stream to a temporary file named for its
// format (WARC, gzip WARC or JSONL, from its first bytes), since a run
// reads its input twice. The caller removes the file.
func Spool(r io.Reader) (string, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(5)
	ext := ".jsonl"
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		ext = ".warc.gz"
	case bytes.HasPrefix(head, []byte("WARC/")):
		ext = ".warc"
	}
	fh, err := os.CreateTemp("", "winnow-stdin-*"+ext)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(fh, br); err != nil {
		fh.Close()
		os.Remove(fh.Name())
		return "", fmt.Errorf("pipeline: spool: %w", err)
	}
	return fh.Name(), fh.Close()
}

// RequestLog returns a RenderConfig.Log that writes every rendered page's
// requests to w as JSON lines ({"url","requests"}); it may be called from
// several workers at once.
func RequestLog(w io.Writer) func(pageURL string, requests []render.Request) {
	var mu sync.Mutex
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return func(u string, reqs []render.Request) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(struct {
			URL      string           `json:"url"`
			Requests []render.Request `json:"requests"`
		}{u, reqs})
	}
}
