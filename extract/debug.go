package extract

import (
	"cmp"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/winnow-go/winnow/metadata"
)

// The debug page: one row per block, the block's text coloured by its
// label, and in the left margin the reason that decided it, so that a
// screenshot or a printout shows why each block went. The legend at the
// top explains every reason the page uses in one line (debug_legend.go
// holds the lines).
var debugTmpl = template.Must(template.New("debug").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>winnow: {{.Title}}</title>
<style>
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:76em;padding:0 1em;color:#222}
.row{display:grid;grid-template-columns:14em minmax(0,1fr);column-gap:.6em;margin:.3em 0}
.why{font:11px/1.35 ui-monospace,monospace;text-align:right;padding-top:.4em;overflow-wrap:anywhere;color:#555}
.b{padding:.25em .5em;border-left:4px solid #bbb;white-space:pre-wrap;overflow-wrap:anywhere}
.b.content,.chip.content{background:#e6f6e6;border-color:#2a2}
.b.boilerplate,.chip.boilerplate{background:#f6e6e6;border-color:#c33;color:#777}
.b.template,.chip.template{background:#fdf0dc;border-color:#d80}
.b.unknown{background:#eee}
.why.content{color:#282}
.why.boilerplate{color:#a22}
.why.template{color:#a50}
.same>.why{opacity:.5}
.k{font:11px monospace;color:#555;float:right;margin-left:1em}
.chip{padding:0 .5em;margin-right:.5em;border-left:4px solid #bbb;white-space:nowrap}
.note{background:#eee}
table.legend{border-collapse:collapse;margin:.6em 0 1.2em;font-size:13px}
.legend td{padding:.1em .6em .1em 0;vertical-align:top}
.legend td.n{font:11px/1.8 ui-monospace,monospace;color:#555;white-space:nowrap;text-align:right}
.legend .chip{font:11px/1.8 ui-monospace,monospace;color:#222}
</style></head><body>
<h1>{{.Title}}</h1>
{{with .Meta}}<p class="meta">{{with .Authors}}by {{range $i, $a := .}}{{if $i}}, {{end}}{{$a}}{{end}} · {{end}}{{with .Published}}published {{.}} · {{end}}{{with .Modified}}modified {{.}} · {{end}}{{with .SiteName}}{{.}} · {{end}}{{with .CanonicalURL}}canonical {{.}}{{end}}</p>
{{end}}<p><span class="chip content">content</span><span class="chip boilerplate">boilerplate</span><span class="chip boilerplate template">site template</span>
{{.URL}} · charset {{.Charset}} · lang {{.Lang}} · page type <b class="pagetype">{{.Type}}</b>{{with .TypeEvidence}} <small>({{.}})</small>{{end}} · {{.Kept}} of {{.All}} words kept{{range .Warnings}} · ⚠ {{.}}{{end}}</p>
{{if .Legend}}<table class="legend">
{{range .Legend}}<tr class="legend-line"><td><span class="chip {{.Class}}">{{.Key}}</span></td><td class="n">{{if eq .Blocks 1}}1 block · {{.Words}}w{{else if .Blocks}}{{.Blocks}} blocks · {{.Words}}w{{else if .Words}}{{.Words}}w{{else}}hover only{{end}}</td><td>{{or .Text "(no legend line: see the stage's package)"}}{{with .Names}} ({{.}}){{end}}</td></tr>
{{end}}</table>
{{end}}{{range .Blocks}}<div class="row{{if .Same}} same{{end}}" title="{{.Tip}}"><div class="why {{.Class}}">{{.Why}}</div><div class="b {{.Class}}"><span class="k">{{.Kind}} · {{.Words}}w · ld {{printf "%.2f" .LD}}</span>{{.Text}}</div></div>
{{end}}</body></html>
`))

// debugBlock is one row of the debug page.
type debugBlock struct {
	Class string // the label, and "template" when the template stage decided it
	Why   string // the deciding reason, "stage: rule", shown in the margin
	Same  bool   // Why is the previous row's, so it is shown faint
	Kind  string
	Text  string
	Tip   string // the path and every reason, on hover
	Words int
	LD    float64
}

// legendLine is one line of the debug page's legend: a reason name the
// page uses, what it means, and how many blocks and words it decided.
type legendLine struct {
	Key    string // "stage: name"
	Class  string // the label the reason gave on this page, or "note"
	Text   string
	Names  string // the element names a density "class:" rule saw
	Blocks int    // blocks it decided
	Words  int    // their words, or the words a drop took out of the tree

	stage int // position in stageOrder, for sorting
}

// decisive returns the reason that settled b's label: its last vote with
// a verdict. The render stage's notes (position and font size, score 0)
// are evidence for the density stage, not verdicts. ok is false for a
// block no stage labelled.
func decisive(b *Block) (r Reason, ok bool) {
	for i := len(b.Reasons) - 1; i >= 0; i-- {
		if r := b.Reasons[i]; r.Score != 0 || r.Stage != StageRender {
			return r, true
		}
	}
	return Reason{}, false
}

// legend gathers the legend lines of a page's reasons.
type legend struct {
	lines map[string]*legendLine
	names map[string][]string
}

// line returns the legend line of a stage's rule name, adding it.
func (g *legend) line(stage, name string) *legendLine {
	key := stage + ": " + name
	if l, ok := g.lines[key]; ok {
		return l
	}
	display := key
	if stage == StageDensity && name == ReasonClassPrefix {
		display += "…"
	}
	l := &legendLine{Key: display, Class: "note", Text: legendText(stage, name), stage: len(stageOrder)}
	if i := slices.Index(stageOrder, stage); i >= 0 {
		l.stage = i
	}
	g.lines[key] = l
	return l
}

// decided counts a block on the line of the reason that decided it.
func (g *legend) decided(r Reason, b *Block, class string) {
	name := legendName(r)
	l := g.line(r.Stage, name)
	l.Blocks++
	l.Words += b.Words
	if l.Class == "note" || class != Content.String() {
		l.Class = class
	}
	if el := strings.TrimPrefix(r.Rule, name); name == ReasonClassPrefix && !slices.Contains(g.names[l.Key], el) {
		g.names[l.Key] = append(g.names[l.Key], el)
	}
}

// maxLegendNames is how many element names a legend line lists, to keep
// it one line.
const maxLegendNames = 4

// sorted returns the lines in stage order, the most words first.
func (g *legend) sorted() []legendLine {
	var out []legendLine
	for _, l := range g.lines {
		if names := g.names[l.Key]; len(names) > maxLegendNames {
			l.Names = strings.Join(names[:maxLegendNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxLegendNames)
		} else {
			l.Names = strings.Join(names, ", ")
		}
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b legendLine) int {
		return cmp.Or(cmp.Compare(a.stage, b.stage), cmp.Compare(b.Words, a.Words),
			cmp.Compare(b.Blocks, a.Blocks), strings.Compare(a.Key, b.Key))
	})
	return out
}

// WriteDebugHTML writes a self-contained page that shows every block of p
// coloured by its label, with the reason that decided it in the left
// margin (left out for plain article text, density's in-region) and the
// block's path and all its reasons on hover. A legend at the top explains,
// one line each, every reason the page's blocks carry, with the blocks
// and words each decided, and the words a stage removed from the tree
// before the blocks were cut (Page.Removed).
func (p *Page) WriteDebugHTML(w io.Writer) error {
	all, kept := p.Words()
	data := struct {
		Title, URL, Charset, Lang string
		Meta                      *metadata.Metadata
		Type                      PageType
		TypeEvidence              string
		All, Kept                 int
		Warnings                  []string
		Legend                    []legendLine
		Blocks                    []debugBlock
	}{Title: p.Title, Charset: p.Charset, Lang: p.Lang, All: all, Kept: kept, Warnings: p.Warnings,
		Type: p.Type, TypeEvidence: strings.Join(p.TypeEvidence, " ")}
	if p.Meta.Title != "" {
		data.Title = p.Meta.Title
	}
	if len(p.Meta.Sources) > 0 {
		data.Meta = &p.Meta
	}
	if p.Meta.Lang != "" {
		data.Lang = p.Meta.Lang
	}
	if data.Type == "" { // a page no pipeline labelled
		tg := ClassifyType(p)
		data.Type, data.TypeEvidence = tg.Type, strings.Join(tg.Evidence, " ")
	}
	if p.URL != nil {
		data.URL = p.URL.String()
	}
	g := legend{lines: map[string]*legendLine{}, names: map[string][]string{}}
	for stage, words := range p.Removed {
		l := g.line(stage, "drop")
		l.Words, l.Class = words, Boilerplate.String()
	}
	prev := ""
	for _, b := range p.Blocks {
		row := debugBlock{Class: b.Label.String(), Kind: b.Kind.String(), Text: b.Text, Words: b.Words, LD: b.LinkDensity()}
		var tip strings.Builder
		tip.WriteString(b.Path)
		for _, r := range b.Reasons {
			fmt.Fprintf(&tip, "\n%s: %s (%.2f)", r.Stage, r.Rule, r.Score)
			g.line(r.Stage, legendName(r))
		}
		row.Tip = tip.String()
		if r, ok := decisive(b); ok && b.Label != Unknown {
			if b.Label == Boilerplate && r.Stage == StageTemplate {
				row.Class += " template"
			}
			g.decided(r, b, row.Class)
			if b.Label == Boilerplate || r.Stage != StageDensity || r.Rule != ReasonInRegion {
				row.Why = r.Stage + ": " + r.Rule
			}
		}
		row.Same = row.Why != "" && row.Why == prev
		prev = row.Why
		data.Blocks = append(data.Blocks, row)
	}
	data.Legend = g.sorted()
	return debugTmpl.Execute(w, data)
}
