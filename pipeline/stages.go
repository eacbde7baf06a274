package pipeline

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/langid"
	"github.com/winnow-go/winnow/metadata"
	"github.com/winnow-go/winnow/render"
	"github.com/winnow-go/winnow/xpathrules"
)

// Stages is the one description of winnow's labelling stages and of their
// order (DESIGN.md, "Data flow"). Every entry point labels pages through
// it: Run, ProcessPages (the evaluations, winnow extract --site, rules
// suggest) and winnow extract. On a parsed page the stages run as:
//
//  1. rules: the page's site rule (drop selectors leave the tree, a
//     matching content selector is firm), judged against the rule's
//     typical content length over the site's sampled pages;
//  2. layout: the rendered page (hidden, fixed and off-column blocks),
//     when Render is set;
//  3. template: the Infholder template of the page's site group, when
//     pass 1 learned one (Sites);
//  4. density: the density classifier labels every block no stage
//     labelled;
//  5. metadata: the page's headline, authors, dates, site name, language
//     and the rest (package metadata), read from the tree and the start
//     of the labelled text; a site rule's title selector names the
//     headline, and package langid identifies the language.
//
// Templates are learned (pass 1, SiteLearner) from the pages as they are
// parsed, before any stage has cut them, and applied in step 3.
//
// The zero value runs the density classifier alone.
type Stages struct {
	// Extract are the decoding and parsing options; URL, FetchedAt and
	// ContentType are set per page.
	Extract extract.Options
	// Rules are per-site XPath/CSS rules (nil for none).
	Rules *xpathrules.Set
	// Render, when set, is the layout stage.
	Render *RenderConfig
	// Template configures template learning and application.
	Template infholder.Options
	// TemplateOnly skips the density classifier: every block that no
	// earlier stage labelled is kept. It measures the template stage
	// alone (winnow eval sites); a run never sets it.
	TemplateOnly bool
	// Metadata configures the metadata stage. When its Identify is nil
	// the stage identifies the language with langid.Default (built on the
	// first page, shared by every goroutine), unless NoLangID is set.
	Metadata metadata.Options
	// NoLangID leaves the language to what the page declares (<html
	// lang>, JSON-LD inLanguage, og:locale): no identifier is built or run.
	NoLangID bool
}

// WithSignature returns a copy of the stages whose templates compare
// blocks by signature v.
func (s Stages) WithSignature(v infholder.Signature) Stages {
	s.Template.Signature = v
	return s
}

// RenderConfig turns on the layout stage.
type RenderConfig struct {
	Browser render.Browser
	Options render.Options
	// Resources serves the pages' subresources. Run serves them from
	// its input WARC files when it is nil; elsewhere nil serves none.
	Resources render.Resources
	// Log, when set, gets every rendered page's requests (served, or
	// blocked), as the pages are rendered.
	Log func(pageURL string, requests []render.Request)
}

// placeholderURL is the address a page without an http(s) URL of its own
// is rendered under: a name that resolves nowhere.
const placeholderURL = "https://winnow.invalid/page.html"

// layout runs the layout stage on one page.
func (rc *RenderConfig) layout(ctx context.Context, p *extract.Page) error {
	pageURL := placeholderURL
	if p.URL != nil && (p.URL.Scheme == "http" || p.URL.Scheme == "https") {
		pageURL = p.URL.String()
	}
	res := rc.Resources
	if res == nil {
		res = render.NoResources{}
	}
	l, err := render.Page(ctx, rc.Browser, p, pageURL, res, rc.Options)
	if err != nil {
		return err
	}
	if rc.Log != nil {
		rc.Log(pageURL, l.Requests)
	}
	return nil
}

// Parse decodes and parses one input page; its blocks are unlabelled.
// The metadata stage's collector follows the segmenter's walk of the
// tree (extract.Options.Visitor), so that the stage does not walk the
// tree again.
func (s *Stages) Parse(in Input) (*extract.Page, error) {
	eo := s.Extract
	eo.URL, _ = url.Parse(in.URL)
	eo.FetchedAt, eo.ContentType = in.FetchedAt, in.ContentType
	eo.Visitor = metadata.NewCollector()
	return extract.Parse(in.Body, eo)
}

// Label runs the stages on a parsed page, in order. sites (nil for a page
// on its own) gives the template of the page's group and the typical
// content length of its rule. It returns what the site rule did; an error
// comes only from the layout stage.
func (s *Stages) Label(ctx context.Context, p *extract.Page, sites *Sites, group string) (xpathrules.Outcome, error) {
	ro, err := s.labelBlocks(ctx, p, sites, group)
	if err != nil {
		return ro, err
	}
	s.readMetadata(p, ro)
	return ro, nil
}

// labelBlocks is Label up to the metadata stage, which reads the labelled
// blocks.
func (s *Stages) labelBlocks(ctx context.Context, p *extract.Page, sites *Sites, group string) (xpathrules.Outcome, error) {
	p.SetType(extract.ClassifyType(p)) // first, so that every stage can read p.Type
	var ro xpathrules.Outcome
	if rule := s.Rules.Match(p.URL); rule != nil {
		ro = rule.Apply(p, sites.typical(rule))
	}
	if s.Render != nil {
		if err := s.Render.layout(ctx, p); err != nil {
			return ro, err
		}
	}
	if tpl := sites.Template(group); tpl != nil {
		tpl.Apply(p, s.Template)
	}
	if s.TemplateOnly {
		for _, b := range p.Blocks {
			if b.Label == extract.Unknown {
				b.Label = extract.Content
			}
		}
	} else {
		extract.Classify(p)
	}
	return ro, nil
}

// metadataText bounds the text the metadata stage reads: the start of
// the page's main text is where a date line stands, and enough to tell
// the language.
const metadataText = 4 << 10

// readMetadata is the metadata stage.
func (s *Stages) readMetadata(p *extract.Page, ro xpathrules.Outcome) {
	mo := s.Metadata
	if mo.Identify == nil && !s.NoLangID {
		mo.Identify = langid.Default().IdentifyDeclared
	}
	if mo.Fetched.IsZero() {
		// A page cannot give a date after it was fetched: a crawl of 2019
		// read today refuses a "2025" as it refuses tomorrow's date. Its
		// "3 hours ago" is read against that time too.
		mo.Fetched = p.FetchedAt
	}
	in := metadata.Input{URL: p.URL, Text: openingText(p), Closing: closingText(p), PageType: string(p.Type)}
	if k, ok := p.Visited().(*metadata.Collector); ok {
		p.Meta = k.Read(p.Doc, in, mo)
	} else { // no collector followed the tree as it now is: walk it
		p.Meta = metadata.Read(p.Doc, in, mo)
	}
	if ro.Title != "" {
		p.Meta.Title = ro.Title
		if p.Meta.Sources == nil {
			p.Meta.Sources = map[string]string{}
		}
		p.Meta.Sources["title"] = MetadataSourceRule
	}
	p.Warnings = append(p.Warnings, p.Meta.Warnings...)
}

// openingText is the start of the page's main text, at most metadataText
// bytes, that the metadata stage reads.
func openingText(p *extract.Page) string {
	var sb strings.Builder
	sb.Grow(metadataText)
	for _, b := range p.Blocks {
		if b.Label != extract.Content {
			continue
		}
		if sb.Len() >= metadataText {
			break
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		t := b.Text
		if room := metadataText - sb.Len(); len(t) > room {
			// A long first block is cut, at a character's start: the
			// language and the date are read from the text's opening.
			for room > 0 && !utf8.RuneStart(t[room]) {
				room--
			}
			t = t[:room]
		}
		sb.WriteString(t)
	}
	return sb.String()
}

// closingText is the end of the page's main text that the metadata
// stage reads: its last two content blocks, each at most closingBlock
// bytes from its end.
func closingText(p *extract.Page) string {
	var last []string
	for i := len(p.Blocks) - 1; i >= 0 && len(last) < 2; i-- {
		if b := p.Blocks[i]; b.Label == extract.Content {
			t := b.Text
			if len(t) > closingBlock {
				cut := len(t) - closingBlock
				for cut < len(t) && !utf8.RuneStart(t[cut]) {
					cut++
				}
				t = t[cut:]
			}
			last = append(last, t)
		}
	}
	slices.Reverse(last)
	return strings.Join(last, "\n")
}

// closingBlock bounds each block closingText reads.
const closingBlock = 400

// MetadataSourceRule is the source of a headline a site rule's title
// selector found.
const MetadataSourceRule = "rule"

// Page parses and labels one input page. A page that cannot be parsed or
// rendered gives an error.
func (s *Stages) Page(ctx context.Context, in Input, sites *Sites, group string) (*extract.Page, xpathrules.Outcome, error) {
	return s.page(ctx, in, nil, sites, group)
}

// page is Page on a page pass 1 parsed already, when parsed is not nil.
func (s *Stages) page(ctx context.Context, in Input, parsed *extract.Page, sites *Sites, group string) (*extract.Page, xpathrules.Outcome, error) {
	p := parsed
	if p == nil {
		var err error
		if p, err = s.Parse(in); err != nil {
			return nil, xpathrules.Outcome{}, err
		}
	}
	ro, err := s.Label(ctx, p, sites, group)
	if err != nil {
		return nil, ro, err
	}
	return p, ro, nil
}

// Record turns one input into its record: a page's record, or the
// record of an input that is no page (skipped, failed) or of a page that
// failed. It never returns nil.
func (s *Stages) Record(ctx context.Context, in Input, sites *Sites, group string, ro RecordOptions) *Record {
	r, _ := s.record(ctx, in, nil, sites, group, ro)
	return r
}

// record is Record that also returns the labelled page (nil when the
// input is no page or failed).
func (s *Stages) record(ctx context.Context, in Input, parsed *extract.Page, sites *Sites, group string, ro RecordOptions) (*Record, *extract.Page) {
	if in.Status != "" {
		r := &Record{URL: in.URL, Source: in.Source, FetchedAt: rfc3339(in.FetchedAt), Status: in.Status, Error: in.Err,
			Score: in.Score, Extra: in.Extra, Kind: in.Kind, Warnings: in.Warnings}
		return r, nil
	}
	p, out, err := s.page(ctx, in, parsed, sites, group)
	if err != nil {
		r := ErrorRecord(in.URL, in.Source, err)
		r.Score, r.Extra, r.Kind, r.Warnings = in.Score, in.Extra, errKind(err), in.Warnings
		return r, nil
	}
	r := NewRecord(p, in.Source, ro)
	if len(in.Warnings) > 0 {
		r.Warnings = append(slices.Clip(in.Warnings), r.Warnings...)
	}
	r.Group = group
	r.SetRule(out)
	r.Score, r.Extra = in.Score, in.Extra
	return r, p
}

// ProcessPages runs the stages over inputs held in memory as Run runs them
// over files: pass 1 learns the sites' templates from the inputs (unless
// opts.SinglePage), then every input is labelled on opts.Workers
// goroutines, the pages pass 1 parsed without parsing them again. fn gets
// each input's index, its record and its labelled page (nil for an input
// that is no page or failed), from several goroutines at once.
// opts.Skip, HoldBytes and Progress do not apply. It returns what pass 1
// learned (nil with SinglePage).
func ProcessPages(ctx context.Context, inputs []Input, opts Options, fn func(i int, r *Record, p *extract.Page)) (*Sites, error) {
	var sites *Sites
	if !opts.SinglePage {
		l := NewSiteLearner(ctx, opts, 0)
		l.keepParsed(-1)
		for _, in := range inputs {
			if err := l.Add(in); err != nil {
				l.stop()
				return nil, err
			}
		}
		var err error
		if sites, err = l.Learn(); err != nil {
			return nil, err
		}
		sites.parsed = l.keptPages()
	}
	par.Each(len(inputs), opts.workers(), func(i int) {
		r, p := opts.Stages.record(ctx, inputs[i], sites.take(i), sites, sites.Group(i), opts.Record)
		fn(i, r, p)
	})
	return sites, ctx.Err()
}
