package peers

import (
	"bytes"
	nurl "net/url"
	"slices"
	"strings"
	"time"

	dps "github.com/markusmobius/go-dateparser"
	"github.com/markusmobius/go-htmldate"
	"github.com/markusmobius/go-trafilatura"
)

// Today is the peers' "today": go-htmldate's MaxDate (by default the end of
// the current day) and go-dateparser's CurrentTime (by default now, used to
// complete dates without a year or month) are pinned to 2026-06-01, the day
// htmldate's published table on the htmldate set was measured, so that the
// outputs do not change as time passes. The remaining clock reads in the
// peers (go-dateutil's two-digit-year window, fixed at start-up) move
// dates only outside MinDate 1995 .. MaxDate, which rejects them anyway.
var Today = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// maxDate is the end of Today, as go-htmldate's own default is the end of
// the current day at microsecond precision.
var maxDate = time.Date(2026, 6, 1, 23, 59, 59, 999999000, time.UTC)

// dateParserConfig is go-htmldate's own go-dateparser configuration
// (externalDpsConfig in go-htmldate's constant.go) with CurrentTime pinned.
func dateParserConfig() *dps.Configuration {
	return &dps.Configuration{
		PreferredDateSource: dps.Past,
		StrictParsing:       true,
		CurrentTime:         Today,
	}
}

// htmldateOptions are the options htmldate's harness uses
// (find_date(html, original_date=True, extensive_search=...)), with the
// clock pinned.
func htmldateOptions(extensive bool, url string) htmldate.Options {
	return htmldate.Options{
		UseOriginalDate:     true,
		SkipExtensiveSearch: !extensive,
		URL:                 url,
		MaxDate:             maxDate,
		DateParserConfig:    dateParserConfig(),
	}
}

// A Tool is a peer and the way it is run.
type Tool struct {
	Name string
	// Meta returns what the tool finds on the page (the ID is filled in by
	// the caller).
	Meta func(Page) Record
}

// Tools are the peers, in output order.
var Tools = []Tool{
	{Name: "go-trafilatura", Meta: trafilaturaMeta},
	{Name: "go-htmldate-extensive", Meta: func(p Page) Record { return htmldateMeta(p, true) }},
	{Name: "go-htmldate-fast", Meta: func(p Page) Record { return htmldateMeta(p, false) }},
}

// dateLayout writes the calendar day as the peer states it: time.Time.Format
// uses the value's own location, so there is no time-zone conversion.
const dateLayout = "2006-01-02"

// htmldateMeta runs go-htmldate's FromReader on the stored bytes: its reader
// detects the charset itself (go-shiori/dom.Parse with gogs/chardet), so
// the 17 pages of the htmldate set that are not UTF-8 are decoded the way
// the peer decodes them.
func htmldateMeta(p Page, extensive bool) Record {
	res, err := htmldate.FromReader(bytes.NewReader(p.HTML), htmldateOptions(extensive, p.URL))
	if err != nil || res.IsZero() {
		return Record{}
	}
	return Record{Published: res.Format(dateLayout)}
}

// trafilaturaMeta runs go-trafilatura's Extract with its default options.
// Metadata extraction has no switch: ExtractDocument always runs it, and
// its date comes from go-htmldate in the mode its defaults choose (fast,
// as the fallback extractors are off), given here as explicit options only
// to pin the clock. When Extract fails (too little text) it returns no
// metadata either, and the page gets an empty record.
func trafilaturaMeta(p Page) Record {
	dateOpts := htmldateOptions(false, "")
	opts := trafilatura.Options{HtmlDateOptions: &dateOpts}
	if p.URL != "" {
		if u, err := nurl.ParseRequestURI(p.URL); err == nil {
			opts.OriginalURL = u
		}
	}
	res, err := trafilatura.Extract(bytes.NewReader(p.HTML), opts)
	if err != nil || res == nil {
		return Record{}
	}
	m := res.Metadata
	r := Record{Title: m.Title, Authors: splitAuthors(m.Author)}
	if !m.Date.IsZero() {
		r.Published = m.Date.Format(dateLayout)
	}
	return r
}

// splitAuthors splits go-trafilatura's author string, which joins several
// names with "; " (normalizeAuthors in its metadata.go), and sorts the
// names: go-trafilatura's order of several authors varies from run to
// run on some pages (haufe.de-ordnungsgeld of the trafilatura set), and
// the evaluator compares authors as a multiset, so the order says
// nothing and the committed outputs stay the same.
func splitAuthors(s string) []string {
	authors := []string{}
	for _, a := range strings.Split(s, "; ") {
		if a = strings.TrimSpace(a); a != "" {
			authors = append(authors, a)
		}
	}
	slices.Sort(authors)
	return authors
}
