package extract

import (
	"net/url"
	"time"

	"github.com/winnow-go/winnow/metadata"
	"golang.org/x/net/html"
)

// Kind is the structural kind of a block.
type Kind uint8

// Block kinds.
const (
	Paragraph Kind = iota // running text, and any block-level element not listed below
	Heading               // h1-h6
	ListItem              // li, dd, dt
	TableCell             // td, th
	Pre                   // pre, or a block of code; whitespace is kept
	Quote                 // blockquote
	Caption               // figcaption, caption
	Title                 // the page's <title>, never part of the body
)

var kindNames = [...]string{"paragraph", "heading", "listitem", "tablecell", "pre", "quote", "caption", "title"}

// String returns the kind's lower-case name as used in JSON output.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Label is a block's verdict.
type Label uint8

// Labels.
const (
	Unknown Label = iota
	Content
	Boilerplate
)

// String returns "unknown", "content" or "boilerplate".
func (l Label) String() string {
	switch l {
	case Content:
		return "content"
	case Boilerplate:
		return "boilerplate"
	}
	return "unknown"
}

// MarshalText implements encoding.TextMarshaler.
func (l Label) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Reason records one stage's vote on a block: which stage, which rule or
// feature, and a score (positive for content, negative for boilerplate).
type Reason struct {
	Stage string  `json:"stage"`
	Rule  string  `json:"rule"`
	Score float64 `json:"score"`
}

// Block is a run of text between block-level boundaries, with the shallow
// features the classifiers use.
type Block struct {
	Node      *html.Node `json:"-"` // the block-level element the text belongs to
	Kind      Kind       `json:"kind"`
	Level     int        `json:"level,omitempty"` // heading level 1-6, list depth for list items
	Text      string     `json:"text"`
	Words     int        `json:"words"`      // \w+ runs, each CJK character counting as one
	LinkWords int        `json:"link_words"` // words inside <a>
	Path      string     `json:"path"`       // tag path, e.g. html/body/div/article/p
	Sig       uint32     `json:"-"`          // CRC32 of the attribute-free tag path and text (Infholder)
	Label     Label      `json:"label"`
	Reasons   []Reason   `json:"reasons,omitempty"`
	// Firm marks a label no later stage may change: a site rule's verdict
	// (DESIGN.md: rules.drop > rules.keep > the other stages).
	Firm bool `json:"firm,omitempty"`
	// Aside marks a block a layout stage saw beside the main column or in
	// fine print: it weighs half when the density stage grows the article
	// region.
	Aside bool `json:"-"`

	// Features filled by segmentation and used by the density classifier
	// (the flags beside Firm and Aside: a block is 160 bytes, not 176).
	inLink   bool // the whole block is one link
	teaser   bool // text of a unit headed by a link to another page
	trailed  bool // a teaser only by a short link after its text (a call to action: "Book a consultation")
	hint     int  // class/id hints of the ancestors: >0 content-like, <0 boilerplate-like
	hintRule string
	cjk      int // CJK characters in Text
	punct    int // sentence punctuation in Text
	order    int // position among blocks
}

// Page is one parsed page with its blocks in document order.
type Page struct {
	URL       *url.URL
	FetchedAt time.Time
	Doc       *html.Node
	Blocks    []*Block
	Title     string
	Lang      string
	Charset   string   // charset the bytes were decoded from
	Warnings  []string // problems that did not stop extraction (e.g. depth fallback)
	Truncated bool     // the input was cut at Options.MaxPageBytes

	// Type is the page type and TypeEvidence its reasons, as ClassifyType
	// gave them; pipeline sets both before its labelling stages run ("" and
	// nil until then).
	Type         PageType
	TypeEvidence []string
	// TypeConfidence is the model's probability of Type (0-1; 0 without
	// a model).
	TypeConfidence float64

	// Meta is what the page says about itself; pipeline's metadata stage
	// reads it once the blocks are labelled (zero until then).
	Meta metadata.Metadata

	// Removed counts the words a stage took out of the tree before the
	// blocks were cut (a rule's drop selectors), by stage.
	Removed map[string]int

	names map[*html.Node]nameInfo // what class, id and itemprop say, by element
	// visitor followed the tree as it was first cut into blocks; nil once
	// the tree changed (Visited).
	visitor Visitor
}

// Remove takes elements out of the page's tree, cuts the blocks again and
// counts the words removed under stage. Every block is new and unlabelled:
// it is for the stages that run before any labelling (a rule's drop
// selectors), and it reaches inside blocks, where a label cannot.
func (p *Page) Remove(nodes []*html.Node, stage string) int {
	before, _ := p.Words()
	removed := false
	for _, n := range nodes {
		if n.Parent != nil && n != p.Doc {
			n.Parent.RemoveChild(n)
			removed = true
		}
	}
	if !removed {
		return 0
	}
	p.Blocks, p.names = segment(p.Doc)
	p.visitor = nil
	after, _ := p.Words()
	if p.Removed == nil {
		p.Removed = map[string]int{}
	}
	p.Removed[stage] += before - after
	return before - after
}

// CountWords counts words as blocks do: \w+ runs, each CJK character one.
func CountWords(s string) int {
	w, _, _ := countWords(s)
	return w
}

// Vote adds a reason to the block.
func (b *Block) Vote(stage, rule string, score float64) {
	b.Reasons = append(b.Reasons, Reason{Stage: stage, Rule: rule, Score: score})
}

// LinkDensity is the share of the block's words inside links.
func (b *Block) LinkDensity() float64 {
	if b.Words == 0 {
		return 0
	}
	return float64(b.LinkWords) / float64(b.Words)
}
