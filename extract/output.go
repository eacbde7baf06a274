package extract

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ContentBlocks returns the blocks labelled Content, in document order.
func (p *Page) ContentBlocks() []*Block {
	var out []*Block
	for _, b := range p.Blocks {
		if b.Label == Content {
			out = append(out, b)
		}
	}
	return out
}

// Text returns the main content: the text of the content blocks separated
// by a blank line. This is what every evaluation scores.
// The cells of one table row are joined by a tab, and the rows of one
// table by a line break, so that a table reads as a table.
func (p *Page) Text() string {
	var sb strings.Builder
	var prev *Block
	for _, b := range p.ContentBlocks() {
		switch {
		case sb.Len() == 0:
		case prev.Kind == TableCell && b.Kind == TableCell && rowOf(prev.Node) == rowOf(b.Node):
			sb.WriteByte('\t')
		case prev.Kind == TableCell && b.Kind == TableCell && tableOf(prev.Node) == tableOf(b.Node):
			sb.WriteByte('\n')
		default:
			sb.WriteString("\n\n")
		}
		sb.WriteString(b.Text)
		prev = b
	}
	return sb.String()
}

func tableOf(n *html.Node) *html.Node { return ancestor(n, atom.Table) }

// Words returns the words of all blocks and of the content blocks.
func (p *Page) Words() (all, kept int) {
	for _, b := range p.Blocks {
		all += b.Words
		if b.Label == Content {
			kept += b.Words
		}
	}
	return all, kept
}

// Markdown returns the main content as Markdown: headings with #, list
// items with - (or 1. in ordered lists), quotes with >, code fenced, and
// the cells of one table row on one line separated by |.
func (p *Page) Markdown() string {
	var sb strings.Builder
	blocks := p.ContentBlocks()
	for i := 0; i < len(blocks); i++ {
		b := blocks[i]
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		switch b.Kind {
		case Heading:
			sb.WriteString(strings.Repeat("#", max(1, b.Level)) + " " + oneLine(b.Text))
		case ListItem:
			// Consecutive items of one list are not separated by blank lines.
			for j := i; j < len(blocks) && blocks[j].Kind == ListItem; j++ {
				if j > i {
					sb.WriteByte('\n')
				}
				bj := blocks[j]
				indent := strings.Repeat("  ", max(0, bj.Level-1))
				marker := "- "
				if bj.Node != nil && bj.Node.Parent != nil && bj.Node.Parent.DataAtom == atom.Ol {
					marker = "1. "
				}
				sb.WriteString(indent + marker + strings.ReplaceAll(bj.Text, "\n", "\n"+indent+"  "))
				i = j
			}
		case Pre:
			sb.WriteString("```\n" + b.Text + "\n```")
		case Quote:
			sb.WriteString("> " + strings.ReplaceAll(b.Text, "\n", "\n> "))
		case TableCell:
			row := rowOf(b.Node)
			sb.WriteString("| " + oneLine(b.Text))
			for i+1 < len(blocks) && blocks[i+1].Kind == TableCell && row != nil && rowOf(blocks[i+1].Node) == row {
				i++
				sb.WriteString(" | " + oneLine(blocks[i].Text))
			}
			sb.WriteString(" |")
		default:
			sb.WriteString(mdEscapeLine(b.Text))
		}
	}
	return sb.String()
}

func rowOf(n *html.Node) *html.Node { return ancestor(n, atom.Tr) }

// ancestor returns the nearest element of type a at or above n, or nil.
func ancestor(n *html.Node, a atom.Atom) *html.Node {
	for ; n != nil; n = n.Parent {
		if n.DataAtom == a {
			return n
		}
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mdEscapeLine keeps a paragraph that starts like Markdown syntax literal.
func mdEscapeLine(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '>', '-', '*', '+', '|', '`':
		return `\` + s
	}
	return s
}

var debugTmpl = template.Must(template.New("debug").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>winnow: {{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:60em;color:#222}
.b{margin:.3em 0;padding:.25em .5em;border-left:4px solid #bbb;white-space:pre-wrap}
.content{background:#e6f6e6;border-color:#2a2}
.boilerplate{background:#f6e6e6;border-color:#c33;color:#777}
.template{background:#fdf0dc;border-color:#d80}
.unknown{background:#eee}
.k{font:11px monospace;color:#555;float:right;margin-left:1em}
.legend span{padding:0 .5em;margin-right:.5em}
</style></head><body>
<h1>{{.Title}}</h1>
<p class="legend"><span class="content">content</span><span class="boilerplate">boilerplate</span><span class="boilerplate template">site template</span>
{{.URL}} · charset {{.Charset}} · lang {{.Lang}} · {{.Kept}} of {{.All}} words kept{{range .Warnings}} · ⚠ {{.}}{{end}}</p>
{{range .Blocks}}<div class="b {{.Label}}" title="{{.Tip}}"><span class="k">{{.Kind}} · {{.Words}}w · ld {{printf "%.2f" .LD}}</span>{{.Text}}</div>
{{end}}</body></html>
`))

type debugBlock struct {
	Label, Kind, Text, Tip string
	Words                  int
	LD                     float64
}

// decidedBy is the stage of the last negative reason of a block.
func decidedBy(b *Block) string {
	for i := len(b.Reasons) - 1; i >= 0; i-- {
		if b.Reasons[i].Score < 0 {
			return b.Reasons[i].Stage
		}
	}
	return ""
}

// WriteDebugHTML writes a self-contained page that shows every block of p
// coloured by its label, with the block's path and reasons on hover.
func (p *Page) WriteDebugHTML(w io.Writer) error {
	all, kept := p.Words()
	data := struct {
		Title, URL, Charset, Lang string
		All, Kept                 int
		Warnings                  []string
		Blocks                    []debugBlock
	}{Title: p.Title, Charset: p.Charset, Lang: p.Lang, All: all, Kept: kept, Warnings: p.Warnings}
	if p.URL != nil {
		data.URL = p.URL.String()
	}
	for _, b := range p.Blocks {
		var tip strings.Builder
		tip.WriteString(b.Path)
		for _, r := range b.Reasons {
			fmt.Fprintf(&tip, "\n%s: %s (%.2f)", r.Stage, r.Rule, r.Score)
		}
		label := b.Label.String()
		if b.Label == Boilerplate && decidedBy(b) == StageTemplate {
			label += " template"
		}
		data.Blocks = append(data.Blocks, debugBlock{
			Label: label, Kind: b.Kind.String(), Text: b.Text,
			Tip: tip.String(), Words: b.Words, LD: b.LinkDensity(),
		})
	}
	return debugTmpl.Execute(w, data)
}
