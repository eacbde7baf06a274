package extract

import (
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
	blocks := p.ContentBlocks()
	n := 0
	for _, b := range blocks {
		n += len(b.Text) + 2
	}
	var sb strings.Builder
	sb.Grow(n) // once, rather than doubling block by block
	var prev *Block
	for _, b := range blocks {
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

// MarkdownDocument is Markdown opened by the page's metadata as a YAML
// front-matter block (see metadata.Metadata.FrontMatter), when the
// metadata stage found any.
func (p *Page) MarkdownDocument() string {
	return p.Meta.FrontMatter() + p.Markdown()
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
