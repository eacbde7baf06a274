package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/metadata"
	"github.com/winnow-go/winnow/render"
	"github.com/winnow-go/winnow/xpathrules"
)

// Record statuses.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusSkipped = "skipped"
)

// Kinds of skipped and failed records, as the run summary counts them.
const (
	KindWARC     = "malformed WARC record"
	KindRedirect = "redirect"
	KindHTTP     = "HTTP error"
	KindRevisit  = "revisit"
	KindJSON     = "bad JSONL line"
	KindRead     = "unreadable file"
	KindEmpty    = "empty page"
	KindNotHTML  = "not HTML"
	KindRender   = "layout stage"
	KindPage     = "page"
)

// errKind classifies the error of a page that failed in the stages.
func errKind(err error) string {
	switch {
	case errors.Is(err, extract.ErrEmpty):
		return KindEmpty
	case errors.Is(err, extract.ErrNotHTML):
		return KindNotHTML
	case errors.Is(err, render.ErrBrowser):
		return KindRender
	}
	return KindPage
}

// Record is one output line, one per input page (see DESIGN.md, "The
// record"). Optional fields are omitted when empty; fetched_at is null when
// unknown.
type Record struct {
	URL       string  `json:"url"`
	Source    string  `json:"source,omitempty"`
	FetchedAt *string `json:"fetched_at"`
	Status    string  `json:"status"`
	Error     string  `json:"error,omitempty"`
	// Metadata is what the page says about itself (the metadata stage):
	// title, authors, dates, site name, language and the rest, with
	// their sources. Its fields are the record's own in JSON.
	metadata.Metadata
	PageType         extract.PageType `json:"page_type,omitempty"`          // every ok record has one
	PageTypeEvidence []string         `json:"page_type_evidence,omitempty"` // with RecordOptions.Blocks
	Charset          string           `json:"charset,omitempty"`
	Text             string           `json:"text"`
	Markdown         string           `json:"markdown,omitempty"`
	Blocks           []*extract.Block `json:"blocks,omitempty"`
	Site             string           `json:"site,omitempty"`
	Group            string           `json:"group,omitempty"`
	BoilerplateRatio float64          `json:"boilerplate_ratio"`
	Removed          map[string]int   `json:"removed,omitempty"`
	Rule             string           `json:"rule,omitempty"`
	RuleStatus       string           `json:"rule_status,omitempty"` // ok, or broken with the reason in Error
	Truncated        bool             `json:"truncated,omitempty"`
	Warnings         []string         `json:"warnings,omitempty"`
	Score            *float64         `json:"score,omitempty"`

	// Extra holds input fields winnow does not know; they are written
	// after the known ones, in key order, and never replace them.
	Extra map[string]json.RawMessage `json:"-"`
	// Kind classifies a skipped or failed record for the summary.
	Kind string `json:"-"`
}

// SetRule records what a site rule did: its name and status, and why it
// is broken in Error (the page then has the other stages' result).
func (r *Record) SetRule(o xpathrules.Outcome) {
	if o.Rule == nil {
		return
	}
	r.Rule, r.RuleStatus = o.Rule.Name, o.Status
	if o.Status == xpathrules.StatusBroken {
		r.Error = "rule broken: " + o.Reason
	}
}

// RecordOptions choose the optional parts of a record.
type RecordOptions struct {
	Markdown bool // fill Markdown
	Blocks   bool // list every block with its label and reasons
}

// NewRecord builds the record of an extracted page.
func NewRecord(p *extract.Page, source string, o RecordOptions) *Record {
	r := &Record{Source: source, Status: StatusOK, Metadata: p.Meta,
		Charset: p.Charset, Text: p.Text(), Truncated: p.Truncated, Warnings: p.Warnings}
	if p.URL != nil {
		r.URL = p.URL.String()
		r.Site = Site(p.URL.Hostname())
	}
	r.FetchedAt = rfc3339(p.FetchedAt)
	r.fallbackMetadata(p)
	if o.Markdown {
		r.Markdown = p.Markdown()
	}
	if p.Type == "" { // a page the stages did not label
		p.SetType(extract.ClassifyType(p))
	}
	r.PageType = p.Type
	if o.Blocks {
		r.Blocks = p.Blocks
		r.PageTypeEvidence = p.TypeEvidence
	}
	all, kept := p.Words()
	r.Removed = removedByStage(p)
	for stage, w := range p.Removed {
		all += w
		r.Removed[stage] += w
	}
	if all > 0 {
		r.BoilerplateRatio = round4(float64(all-kept) / float64(all))
	}
	return r
}

// fallbackMetadata stands the <title> and the declared or guessed
// script in for a headline and a language the metadata stage did not
// find (a page the stages did not label has neither).
func (r *Record) fallbackMetadata(p *extract.Page) {
	if r.Title == "" {
		r.Title = p.Title
	}
	r.Lang = PageLang(p)
	r.Metadata.Warnings = nil // the page's warnings have them
}

// PageLang is the language a page's record names: the metadata stage's
// (identified, or declared), else extract's script guess.
func PageLang(p *extract.Page) string {
	if p.Meta.Lang != "" {
		return p.Meta.Lang
	}
	return p.Lang
}

// ErrorRecord is the record of a page that could not be processed.
func ErrorRecord(url, source string, err error) *Record {
	return &Record{URL: url, Source: source, Status: StatusError, Error: err.Error()}
}

// RemovedTemplate is the key of the site template stage in a record's
// "removed" (the stage votes as infholder.Stage); the other keys are the
// stages' own names: xpathrules.Stage, render.Stage, extract.StageDensity.
const RemovedTemplate = "template"

// removedByStage counts the words of boilerplate blocks by the stage whose
// vote removed them (the last negative reason).
func removedByStage(p *extract.Page) map[string]int {
	m := map[string]int{}
	for _, b := range p.Blocks {
		if b.Label != extract.Boilerplate {
			continue
		}
		stage := extract.StageDensity
		for i := len(b.Reasons) - 1; i >= 0; i-- {
			if b.Reasons[i].Score < 0 {
				stage = b.Reasons[i].Stage
				break
			}
		}
		if stage == infholder.Stage {
			stage = RemovedTemplate // the record's name for the site template stage
		}
		m[stage] += b.Words
	}
	return m
}

// Site returns the host with a leading "www." folded, lower-cased.
func Site(host string) string {
	h := strings.ToLower(host)
	return strings.TrimPrefix(h, "www.")
}

// rfc3339 formats a time for a record: nil when it is unknown.
func rfc3339(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func round4(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

// WriteRecord writes r as one compact JSON line, without HTML escaping so
// text keeps <, > and &.
func WriteRecord(w io.Writer, r *Record) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return err
	}
	out := buf.Bytes()
	if len(r.Extra) > 0 {
		known := map[string]bool{}
		var probe map[string]json.RawMessage
		json.Unmarshal(out, &probe)
		for k := range probe {
			known[k] = true
		}
		keys := make([]string, 0, len(r.Extra))
		for k := range r.Extra {
			if !known[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		out = bytes.TrimRight(out, "\n")
		out = out[:len(out)-1] // the closing brace
		for _, k := range keys {
			kb, _ := json.Marshal(k)
			out = append(out, ',')
			out = append(out, kb...)
			out = append(out, ':')
			out = append(out, r.Extra[k]...)
		}
		out = append(out, '}', '\n')
	}
	_, err := w.Write(out)
	return err
}
