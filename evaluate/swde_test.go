package evaluate

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// swdeAttr reads PAGEID -> value of one attribute for the pages of a shop.
func swdeAttr(t *testing.T, dir, site, attr string) map[string]string {
	f, err := os.Open(filepath.Join(dir, "groundtruth", "book-"+site+"-"+attr+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line < 2 || len(cols) < 3 {
			continue
		}
		out[cols[0]] = strings.ToLower(strings.Join(strings.Fields(strings.TrimLeft(cols[2], ": ")), " "))
	}
	return out
}

// TestSWDEHardNegatives: the 500 pages of each SWDE shop share one
// template but describe different books. After extraction no cluster may
// join two books, whatever the method. A book is its title: two editions
// of one book (a paperback and a hardcover of "Dear John") carry the same
// description and are rightly near-duplicates.
func TestSWDEHardNegatives(t *testing.T) {
	dir := filepath.Join(shareddata.Require(t), "sites", "swde-book")
	norm, _ := dedup.NewNormalizer(dedup.Options{})
	simNorm, _ := dedup.NewNormalizer(dedup.Options{Shingles: []int{1, 2}})
	for _, site := range []string{"booksamillion", "christianbook"} {
		t.Run(site, func(t *testing.T) {
			title := swdeAttr(t, dir, site, "title")
			var docs []dedup.Doc
			var ids []string
			for i := range 500 {
				id := fmt.Sprintf("%04d", i)
				raw, err := gz.ReadFile(filepath.Join(dir, site, id+".htm.gz"))
				if err != nil {
					t.Fatal(err)
				}
				// The first line is <base href="ORIGINAL_URL"/> (after a BOM).
				u := ""
				if first, rest, ok := strings.Cut(strings.TrimPrefix(string(raw), "\ufeff"), "\n"); ok && strings.HasPrefix(first, "<base href=") {
					u = strings.Trim(strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(first, "<base href=")), "/>"), `"' `)
					raw = []byte(rest)
				}
				pu, _ := url.Parse(u)
				p, err := extract.Extract(raw, extract.Options{URL: pu})
				if err != nil {
					t.Fatalf("%s/%s: %v", site, id, err)
				}
				text := p.Text()
				d := dedup.Doc{URL: u, TextLen: len(text), Features: norm.Features(text)}
				d.Fingerprint, d.HasFingerprint = simNorm.Fingerprint(text)
				docs = append(docs, d)
				ids = append(ids, id)
			}
			for _, cfg := range []dedup.Config{
				{Method: dedup.MethodMinHash, Threshold: 0.8},
				{Method: dedup.MethodSimHash, K: 6, Threshold: 0.8},
			} {
				t.Run(cfg.Method.String(), func(t *testing.T) {
					res, err := dedup.Cluster(docs, cfg)
					if err != nil {
						t.Fatal(err)
					}
					bad := 0
					for i, c := range res.Centre {
						if c != i && title[ids[i]] != title[ids[c]] {
							bad++
							if bad <= 3 {
								t.Errorf("%s %v: page %s (%q) joined %s (%q), Jaccard %.2f", site, cfg.Method, ids[i], title[ids[i]], ids[c], title[ids[c]], dedup.Jaccard(docs[i].Features, docs[c].Features))
							}
						}
					}
					t.Logf("%s %v: %d clusters of 500 pages, %d joined a different book", site, cfg.Method, res.Clusters, bad)
				})
			}
		})
	}
}
