package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/winnow-go/winnow/infholder"
)

// SavedSites are the site templates a templates folder holds (what
// Options.TemplatesDir keeps), for pages that come one at a time, as a
// service gets them: no pass 1 sees a page's site, so a page takes the
// template of the deepest saved group its URL lies in.
type SavedSites struct {
	sites *Sites
	// groups are the saved group keys, longest first, so that the first
	// one a URL's key starts with is its deepest.
	groups []string
}

// LoadSavedSites reads every template saved in dir (files written by a
// run with Options.TemplatesDir; other files and templates of another
// version are left out). An empty dir gives no templates.
func LoadSavedSites(dir string) (*SavedSites, error) {
	s := &SavedSites{sites: &Sites{templates: map[string]*infholder.Template{}}}
	if dir == "" {
		return s, nil
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("pipeline: templates: %w", err)
	}
	for _, name := range names {
		tpl, err := loadTemplateFile(name)
		switch {
		case errors.Is(err, infholder.ErrVersion), errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, fmt.Errorf("pipeline: template %s: %w", name, err)
		case filepath.Base(name) != infholder.FileName(tpl.Group):
			continue // not a file a run saved under its group's name
		}
		s.sites.templates[tpl.Group] = tpl
		s.groups = append(s.groups, tpl.Group)
	}
	sort.Slice(s.groups, func(i, j int) bool {
		if len(s.groups[i]) != len(s.groups[j]) {
			return len(s.groups[i]) > len(s.groups[j])
		}
		return s.groups[i] < s.groups[j]
	})
	return s, nil
}

func loadTemplateFile(name string) (*infholder.Template, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return infholder.Load(f)
}

// Len is the number of saved templates.
func (s *SavedSites) Len() int { return len(s.groups) }

// Group is the site group of a page URL on its own: the deepest saved
// group whose key (host and directories, infholder.GroupKeys) starts the
// URL's, or else the group a run over this page alone gives it (its
// host's).
func (s *SavedSites) Group(rawURL string) string {
	host, dirs := infholder.Site(rawURL)
	key := host + "/"
	if len(dirs) > 0 {
		key += strings.Join(dirs, "/") + "/"
	}
	for _, g := range s.groups {
		if strings.HasPrefix(key, g) {
			return g
		}
	}
	return infholder.GroupKeys([]string{rawURL}, infholder.MinPages)[0]
}

// Sites are the saved templates as Stages.Record takes them; a group
// without a saved template has none.
func (s *SavedSites) Sites() *Sites { return s.sites }

// Record is st.Record for a page on its own, with the saved template of
// its group (Group) when the page still fits it: a page whose blocks
// share less than minFit of the template's (the site changed its
// layout) is labelled without it, as a run would relearn the template
// rather than apply it.
func (s *SavedSites) Record(ctx context.Context, st *Stages, in Input, ro RecordOptions) *Record {
	if in.Status != "" {
		return st.Record(ctx, in, nil, "", ro)
	}
	group := s.Group(in.URL)
	tpl := s.sites.Template(group)
	if tpl == nil {
		return st.Record(ctx, in, nil, group, ro)
	}
	p, err := st.Parse(in)
	if err != nil {
		return st.Record(ctx, in, nil, group, ro) // the page's error record
	}
	sig := tpl.Signature
	if sig == "" {
		sig = infholder.SigContent
	}
	sites := s.sites
	if tpl.Fit(infholder.NewSample(p, sig)) < minFit {
		sites = nil
	}
	r, _ := st.record(ctx, in, p, sites, group, ro)
	return r
}

// JSONInput reads one JSONL input line as winnow run reads it ("url",
// "html", optional "fetched_at", "score", "content_type"; other fields
// pass through): a line that is not a JSON object, or has no "html"
// string, is an input with StatusError, which Stages.Record turns into an
// error record.
func JSONInput(line []byte, source string) Input {
	in := Input{Source: source}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		in.Status, in.Err, in.Kind = StatusError, "bad JSON: "+err.Error(), KindJSON
		return in
	}
	return jsonInput(in, raw)
}
