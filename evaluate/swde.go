package evaluate

import (
	"bufio"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/winnow-go/winnow/infholder"
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
			raw, err := ReadGzip(filepath.Join(root, name, id+".htm.gz"))
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
// recurring_removed (words of text nodes that recur on more than half of
// the site's pages, counted on the raw DOM, that the kept text no longer
// has).
type SWDEScore struct {
	Survival         float64 `json:"survival"`
	RecurringRemoved float64 `json:"recurring_removed"`
	Values, Lost     int     `json:"-"`
}

// ScoreSWDE extracts every page of each site with a variant and scores it.
func ScoreSWDE(sites []SWDESite, v SiteVariant, opts infholder.Options) (SWDEScore, error) {
	var values, lost, recurring, removed int
	for _, site := range sites {
		texts, err := ExtractSites(site.Pages, v, opts)
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
			kept := strings.Join(strings.Fields(texts[p.ID]), " ")
			for _, val := range site.Values[p.ID] {
				values++
				if !strings.Contains(kept, val) {
					lost++
				}
			}
			for _, n := range nodes[i] {
				if 2*pagesWith[n] <= len(site.Pages) {
					continue
				}
				w := len(strings.Fields(n))
				recurring += w
				if !strings.Contains(kept, n) {
					removed += w
				}
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
