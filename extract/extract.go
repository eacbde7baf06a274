package extract

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/winnow-go/winnow/internal/textseg"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Errors returned by Extract for input that is not a page.
var (
	ErrEmpty   = errors.New("extract: empty input")
	ErrNotHTML = errors.New("extract: input is not HTML")
)

// DefaultMaxPageBytes is the default for Options.MaxPageBytes.
const DefaultMaxPageBytes = 16 << 20

// Options configure Extract. The zero value is ready to use.
type Options struct {
	// URL of the page, used for the record and for resolving links. May be nil.
	URL *url.URL
	// FetchedAt is when the page was fetched; zero when unknown.
	FetchedAt time.Time
	// ContentType is the HTTP Content-Type header, when known; its charset
	// parameter is the second thing Decode trusts, after a BOM.
	ContentType string
	// Charset forces a charset and skips detection. Empty means detect.
	Charset string
	// MaxPageBytes cuts longer input before parsing and sets Page.Truncated.
	// Zero means DefaultMaxPageBytes; a negative value means no limit.
	MaxPageBytes int
	// KeepMojibake leaves text that was decoded in the wrong charset
	// before it reached winnow ("donâ€™t") as it is; by default it is
	// restored and the page warns (see repairMojibake).
	KeepMojibake bool
	// Visitor, when set, follows the walk that cuts the parsed tree into
	// blocks (see Visitor), and Page.Visited returns it. It serves one
	// page: set it per call, as URL.
	Visitor Visitor
}

// Extract decodes, parses and segments raw page bytes and labels the blocks
// with the density classifier. Problems that still leave text to extract
// (a cut page, a tree too deep for the parser) are listed in Page.Warnings.
func Extract(raw []byte, opts Options) (*Page, error) {
	p, err := Parse(raw, opts)
	if err != nil {
		return nil, err
	}
	Classify(p)
	return p, nil
}

// ExtractReader is Extract for a reader; it reads at most MaxPageBytes+1
// bytes and never closes r.
func ExtractReader(r io.Reader, opts Options) (*Page, error) {
	limit := int64(opts.maxBytes())
	var src io.Reader = r
	if limit > 0 {
		src = io.LimitReader(r, limit+1)
	}
	raw, err := io.ReadAll(src)
	if err != nil {
		return nil, fmt.Errorf("extract: read: %w", err)
	}
	return Extract(raw, opts)
}

func (o Options) maxBytes() int {
	switch {
	case o.MaxPageBytes == 0:
		return DefaultMaxPageBytes
	case o.MaxPageBytes < 0:
		return 0
	}
	return o.MaxPageBytes
}

// Classify runs the density classifier on every block that no earlier
// stage labelled. Stages that run before it (rules, templates, layout) set
// Label and add a Reason; density never overrides them. The page's type
// chooses the content model; Classify sets it (ClassifyType) when no one
// has.
func Classify(p *Page) {
	if p.Type == "" {
		p.SetType(ClassifyType(p))
	}
	classifyDensity(p)
}

// Parse decodes and parses raw bytes and cuts the body into blocks, all
// labelled Unknown.
func Parse(raw []byte, opts Options) (*Page, error) {
	p := &Page{URL: opts.URL, FetchedAt: opts.FetchedAt}
	if m := opts.maxBytes(); m > 0 && len(raw) > m {
		raw = raw[:m]
		p.Truncated = true
		p.Warnings = append(p.Warnings, fmt.Sprintf("truncated: page cut at %d bytes", m))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, ErrEmpty
	}
	if err := sniffHTML(raw); err != nil {
		return nil, err
	}
	var dec Decoded
	var err error
	if opts.Charset != "" {
		dec, err = DecodeAs(raw, opts.Charset)
	} else {
		dec, err = Decode(raw, opts.ContentType)
	}
	if err != nil {
		return nil, err
	}
	p.Charset = dec.Charset
	if dec.Invalid > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("invalid-utf8: %d bytes", dec.Invalid))
	}
	if !opts.KeepMojibake {
		declared := func() []string { return []string{headerCharset(opts.ContentType), metaCharset(raw)} }
		if text, n, how := repairMojibake(dec.Text, declared); n > 0 {
			dec.Text = text
			p.Warnings = append(p.Warnings, mojibakeWarning(n, how))
		}
	}
	doc, err := html.Parse(bytes.NewReader(dec.Text))
	if err != nil {
		// x/net/html refuses trees nested deeper than 512 elements. Keep
		// the text: rebuild a flat tree from the token stream.
		doc, err = parseFlat(dec.Text)
		if doc == nil {
			return nil, fmt.Errorf("extract: parse: %w", err)
		}
		p.Warnings = append(p.Warnings, "depth: tree nested deeper than the parser allows; text extracted from a flattened tree")
		if err != nil {
			// The text before the tokenizer stopped is kept, as the
			// package keeps what it can of a cut page.
			p.Warnings = append(p.Warnings, fmt.Sprintf("depth: the tokenizer stopped early (%v); the text after that point is lost", err))
		}
	}
	if hasStreamed(dec.Text) {
		revealStreamed(doc)
	}
	p.Doc = doc
	p.Title, p.Lang = headInfo(doc)
	p.Blocks, p.names = segmentVisit(doc, opts.Visitor)
	p.visitor = opts.Visitor
	if all, _ := p.Words(); all < unhideMaxWords {
		noscriptFallback(p, dec.Text, all)
	}
	unhideFallback(p)
	if p.Lang == "" {
		p.Lang = guessLang(p.Blocks)
	}
	return p, nil
}

// sniffHTML rejects input that is clearly not a web page: binary formats
// and text with no markup at all.
func sniffHTML(b []byte) error {
	ct := http.DetectContentType(b)
	switch {
	case strings.HasPrefix(ct, "text/html"), strings.HasPrefix(ct, "text/xml"):
		return nil
	case strings.HasPrefix(ct, "image/"), strings.HasPrefix(ct, "audio/"),
		strings.HasPrefix(ct, "video/"), strings.HasPrefix(ct, "font/"),
		ct == "application/pdf", ct == "application/zip", ct == "application/x-gzip",
		ct == "application/wasm", ct == "application/vnd.ms-fontobject",
		ct == "application/postscript", ct == "application/x-rar-compressed":
		return fmt.Errorf("%w (looks like %s)", ErrNotHTML, ct)
	}
	head := b
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	if bytes.IndexByte(head, '<') < 0 {
		return fmt.Errorf("%w (no markup in the first %d bytes)", ErrNotHTML, len(head))
	}
	if bytes.Count(head, []byte{0}) > len(head)/100 {
		return fmt.Errorf("%w (binary data)", ErrNotHTML)
	}
	return nil
}

// parseFlat builds a shallow tree, html/body/p*, from the token stream:
// each run of text between block-level tags becomes one <p> (or <h1>-<h6>,
// <li>, <pre> after such a start tag). Used when the real tree is too deep.
// When the tokenizer stops on an error other than io.EOF, parseFlat
// returns the tree built so far together with the error.
func parseFlat(b []byte) (*html.Node, error) {
	doc, err := html.Parse(strings.NewReader("<html><head></head><body></body></html>"))
	if err != nil {
		return nil, err
	}
	var head, body *html.Node
	for n := range doc.Descendants() {
		switch n.DataAtom {
		case atom.Head:
			head = n
		case atom.Body:
			body = n
		}
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	cur := &html.Node{Type: html.ElementNode, Data: "p", DataAtom: atom.P}
	skip := 0
	var inTitle bool
	flush := func(next atom.Atom, name string) {
		if cur.FirstChild != nil {
			body.AppendChild(cur)
		}
		cur = &html.Node{Type: html.ElementNode, Data: name, DataAtom: next}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			flush(atom.P, "p")
			if err := z.Err(); err != io.EOF {
				return doc, err // the tree holds the text read before it
			}
			return doc, nil
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skipped(a) && a != atom.Head {
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
				continue
			}
			if a == atom.Title {
				inTitle = tt == html.StartTagToken
				continue
			}
			if a == atom.Br {
				cur.AppendChild(&html.Node{Type: html.TextNode, Data: "\n"})
				continue
			}
			if blockLevel(a) {
				if tt == html.StartTagToken {
					switch a {
					case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Li, atom.Pre, atom.Td, atom.Blockquote:
						flush(a, a.String())
						continue
					}
				}
				flush(atom.P, "p")
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			t := string(z.Text())
			if inTitle {
				title := &html.Node{Type: html.ElementNode, Data: "title", DataAtom: atom.Title}
				title.AppendChild(&html.Node{Type: html.TextNode, Data: t})
				head.AppendChild(title)
				continue
			}
			cur.AppendChild(&html.Node{Type: html.TextNode, Data: t})
		}
	}
}

// headInfo returns the page title (og:title when present, else <title>)
// and the language of <html lang>.
func headInfo(doc *html.Node) (title, lang string) {
	var og string
walk:
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.DataAtom {
		case atom.Html:
			if lang == "" {
				lang = strings.TrimSpace(attr(n, "lang"))
				if lang == "" {
					lang = strings.TrimSpace(attr(n, "xml:lang"))
				}
			}
		case atom.Title:
			if title == "" && n.FirstChild != nil {
				title = strings.Join(strings.Fields(textOf(n)), " ")
			}
		case atom.Meta:
			if og == "" && (attr(n, "property") == "og:title" || attr(n, "name") == "og:title") {
				og = strings.Join(strings.Fields(attr(n, "content")), " ")
			}
		case atom.Body:
			// og:title wins wherever it sits, so the walk may stop at the
			// body only once the head gave it. A <title> alone is not
			// enough: some pages put their og:title meta in the body (a
			// National Review page of the scrapinghub set), and stopping
			// there would change the title of 5 of the 1,627 pages of the
			// shared extraction sets.
			if og != "" {
				break walk
			}
		}
	}
	if og != "" {
		title = og
	}
	return title, lang
}

func textOf(n *html.Node) string {
	var sb strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			sb.WriteString(d.Data)
		}
	}
	return sb.String()
}

// guessLang names the dominant script of the text when the page declares
// no language: "zh", "ja", "ko", "ru" (Cyrillic) or "" when Latin or
// unclear. It is a script guess, not language identification.
func guessLang(blocks []*Block) string {
	var han, kana, hangul, cyr, latin int
	for _, b := range blocks {
		for _, r := range b.Text {
			switch {
			case r >= 0x3040 && r <= 0x30FF:
				kana++
			case r >= 0xAC00 && r <= 0xD7AF:
				hangul++
			case textseg.IsCJK(r):
				han++
			case r >= 0x0400 && r <= 0x04FF:
				cyr++
			case r < 0x250 && textseg.IsWordRune(r):
				latin++
			}
		}
	}
	switch {
	case kana > 50 && kana*5 > han:
		return "ja"
	case hangul > 50 && hangul > han:
		return "ko"
	case han > 50 && han > latin/3:
		return "zh"
	case cyr > 50 && cyr > latin:
		return "ru"
	}
	return ""
}
