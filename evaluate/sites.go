package evaluate

import (
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/winnow-go/winnow/extract"
)

// SitePage is one page of a multi-page site set.
type SitePage struct {
	ID, Site, URL string
	HTML          []byte // the page, its wrapper line removed
	Gold          string // CleanPortalEval: the cleaned gold text
}

// LoadCleanPortalEval reads the 71 pages of the 5 site sections, sorted by
// ID, with their gold texts (URL line and <p>, <h>, <l> markers removed,
// entities unescaped).
func LoadCleanPortalEval(dataDir string) ([]SitePage, error) {
	root := filepath.Join(dataDir, "sites", "cleanportaleval")
	inputs, err := filepath.Glob(filepath.Join(root, "*", "input", "*.html.gz"))
	if err != nil {
		return nil, err
	}
	var pages []SitePage
	for _, in := range inputs {
		id := strings.TrimSuffix(filepath.Base(in), ".html.gz")
		site := filepath.Base(filepath.Dir(filepath.Dir(in)))
		raw, err := ReadGzip(in)
		if err != nil {
			return nil, err
		}
		url, body := extract.StripTextWrapper(raw)
		gold, err := os.ReadFile(filepath.Join(root, site, "gold", id+".txt"))
		if err != nil {
			return nil, err
		}
		pages = append(pages, SitePage{ID: id, Site: site, URL: url, HTML: body, Gold: cleanPortalGold(string(gold))})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
	return pages, nil
}

// cleanPortalGold drops the URL line and the paragraph markers of a
// CleanPortalEval gold file and unescapes entities.
func cleanPortalGold(s string) string {
	var out []string
	for i, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if i < 3 && strings.HasPrefix(t, "URL:") {
			continue
		}
		for _, m := range []string{"<p>", "<h>", "<l>"} {
			t = strings.TrimPrefix(t, m)
		}
		out = append(out, html.UnescapeString(t))
	}
	return strings.Join(out, "\n")
}

// LCSCounts aligns output and gold words (white-space tokens) with a
// longest common subsequence: matched words are true positives, the rest
// of the output false positives and the rest of the gold false negatives.
func LCSCounts(gold, output string) (tp, fp, fn int) {
	g, o := strings.Fields(gold), strings.Fields(output)
	l := lcs(g, o)
	return l, len(o) - l, len(g) - l
}

// lcs is the length of the longest common subsequence, in two rows.
func lcs(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}

// MicroPRF turns summed counts into precision, recall and F1.
func MicroPRF(tp, fp, fn int) PRF {
	var p PRF
	if tp+fp > 0 {
		p.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		p.Recall = float64(tp) / float64(tp+fn)
	}
	p.F1 = f1(p.Precision, p.Recall)
	return p
}
