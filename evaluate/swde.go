package evaluate

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/pipeline"
)

// SWDEAttributes are the attributes of the book vertical scored for survival.
var SWDEAttributes = []string{"title", "author", "isbn_13", "publisher", "publication_date"}

// SWDESite is one shop of the SWDE book vertical: its pages on disk and
// the attribute values of each page.
type SWDESite struct {
	Name   string
	Pages  []SitePage
	Values map[string][]string // page ID -> normalised attribute values
}

// LoadSWDE reads the pages 0000-0499 of each shop of swde-book and their
// attribute values (entities unescaped, leading punctuation stripped,
// white space normalised; <NULL> values dropped).
func LoadSWDE(dataDir string) ([]SWDESite, error) {
	root := filepath.Join(dataDir, "sites", "swde-book")
	var sites []SWDESite
	for _, name := range []string{"booksamillion", "christianbook"} {
		s := SWDESite{Name: name, Values: map[string][]string{}}
		for i := range 500 {
			id := fmt.Sprintf("%04d", i)
			raw, err := gz.ReadFile(filepath.Join(root, name, id+".htm.gz"))
			if err != nil {
				return nil, err
			}
			text := strings.TrimPrefix(string(raw), "\ufeff")
			u := ""
			if first, rest, ok := strings.Cut(text, "\n"); ok && strings.HasPrefix(first, "<base href=") {
				u = strings.Trim(strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(first, "<base href=")), "/>"), `"' `)
				text = rest
			}
			s.Pages = append(s.Pages, SitePage{ID: id, Site: name, URL: u, HTML: []byte(text)})
		}
		for _, attr := range SWDEAttributes {
			f, err := os.Open(filepath.Join(root, "groundtruth", "book-"+name+"-"+attr+".txt"))
			if err != nil {
				return nil, err
			}
			sc := bufio.NewScanner(f)
			for line := 0; sc.Scan(); line++ {
				cols := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
				if line < 2 || len(cols) < 3 || cols[0] >= "0500" {
					continue
				}
				for _, v := range cols[2:] {
					if v = normValue(v); v != "" && v != "<NULL>" {
						s.Values[cols[0]] = append(s.Values[cols[0]], v)
					}
				}
			}
			f.Close()
		}
		sites = append(sites, s)
	}
	return sites, nil
}

func normValue(v string) string {
	v = html.UnescapeString(v)
	v = strings.TrimLeft(v, ":;,.- \u00a0")
	return strings.Join(strings.Fields(v), " ")
}

// SWDEScore is survival (attribute values still in the kept text) and
// recurring_removed: the words of text nodes that recur on more than half
// of the site's pages, counted on the raw DOM, that the kept text no
// longer has. A node counts as kept when its text is in the kept text as
// whole words ("Go" is not in "God"), each occurrence in the kept text
// accounting for one node occurrence on the page.
type SWDEScore struct {
	Survival         float64 `json:"survival"`
	RecurringRemoved float64 `json:"recurring_removed"`
	Values, Lost     int     `json:"-"`
}

// ScoreSWDE extracts every page of each site with a variant (and the
// optional stages) and scores the pages keep selects (nil: all).
// recurring_removed counts nodes that recur on more than half of all the
// site's pages.
func ScoreSWDE(ctx context.Context, sites []SWDESite, v SiteVariant, st pipeline.Stages, keep func(id string) bool) (SWDEScore, error) {
	var values, lost, recurring, removed int
	for _, site := range sites {
		texts, err := ExtractSites(ctx, site.Pages, v, st)
		if err != nil {
			return SWDEScore{}, err
		}
		nodes := make([][]string, len(site.Pages))
		pagesWith := map[string]int{}
		for i, p := range site.Pages {
			nodes[i] = textNodes(p.HTML)
			seen := map[string]bool{}
			for _, n := range nodes[i] {
				if !seen[n] {
					seen[n] = true
					pagesWith[n]++
				}
			}
		}
		for i, p := range site.Pages {
			if keep != nil && !keep(p.ID) {
				continue
			}
			kept := strings.Join(strings.Fields(texts[p.ID]), " ")
			for _, val := range site.Values[p.ID] {
				values++
				if !strings.Contains(kept, val) {
					lost++
				}
			}
			// Each occurrence of a node is matched with one occurrence of
			// its text in the kept text: a related-products table of eight
			// "In Stock" cells is not kept because the page's own
			// "Availability: In Stock" is.
			left := map[string]int{}
			for _, n := range nodes[i] {
				if 2*pagesWith[n] <= len(site.Pages) {
					continue
				}
				c, ok := left[n]
				if !ok {
					c = countWhole(kept, n)
				}
				w := len(strings.Fields(n))
				recurring += w
				if c == 0 {
					removed += w
				} else {
					c--
				}
				left[n] = c
			}
		}
	}
	s := SWDEScore{Values: values, Lost: lost}
	if values > 0 {
		s.Survival = 1 - float64(lost)/float64(values)
	}
	if recurring > 0 {
		s.RecurringRemoved = float64(removed) / float64(recurring)
	}
	return s, nil
}

// countWhole counts the occurrences of sub in s that do not overlap and
// are not part of a longer word: a recurring node "Go" is not in "God",
// nor "for" in "before".
func countWhole(s, sub string) int {
	if sub == "" {
		return 0
	}
	first, _ := utf8.DecodeRuneInString(sub)
	last, _ := utf8.DecodeLastRuneInString(sub)
	n := 0
	for from := 0; ; {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return n
		}
		i += from
		end := i + len(sub)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (i == 0 || !isWordChar(first) || !isWordChar(before)) &&
			(end == len(s) || !isWordChar(last) || !isWordChar(after)) {
			n++
			from = end
		} else {
			from = i + 1
		}
	}
}

func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// textNodes returns the white-space-normalised text nodes of a page's
// body, without scripts, styles and the like.
func textNodes(b []byte) []string {
	doc, err := xhtml.Parse(strings.NewReader(string(b)))
	if err != nil {
		return nil
	}
	var out []string
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode {
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Head:
				return
			}
		}
		if n.Type == xhtml.TextNode {
			if t := strings.Join(strings.Fields(n.Data), " "); t != "" {
				out = append(out, t)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}
