package evaluate

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// refScore holds the fields of every reference score file; each set uses
// some of them.
type refScore struct {
	ID        string   `json:"id"`
	ShP       *float64 `json:"sh_p"`
	ShR       *float64 `json:"sh_r"`
	ShAcc     *float64 `json:"sh_acc"`
	TP        *int     `json:"tp"`
	FP        *int     `json:"fp"`
	FN        *int     `json:"fn"`
	TN        *int     `json:"tn"`
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	F1        *float64 `json:"f1"`
}

// TestScorerReproducesReference feeds the peers' outputs in
// ../shared/data/reference to winnow's scorer and checks every per-page
// figure against the published scores to 1e-4.
func TestScorerReproducesReference(t *testing.T) {
	data := shareddata.Require(t)
	for _, set := range ExtractDatasets {
		t.Run(set, func(t *testing.T) {
			ds, err := LoadExtract(data, set)
			if err != nil {
				t.Fatal(err)
			}
			byID := map[string]*Page{}
			for i := range ds.Pages {
				byID[ds.Pages[i].ID] = &ds.Pages[i]
			}
			for _, tool := range SetPeers(set) {
				t.Run(tool, func(t *testing.T) {
					base := filepath.Join(data, "reference", set+"."+tool)
					out, err := ReferenceTexts(data, set, tool)
					if err != nil {
						t.Fatal(err)
					}
					scores, err := jsonl.ReadFile[refScore](base + ".scores.jsonl")
					if err != nil {
						t.Fatal(err)
					}
					if len(scores) != len(ds.Pages) {
						t.Fatalf("%d reference scores for %d pages", len(scores), len(ds.Pages))
					}
					bad := 0
					for _, want := range scores {
						p := byID[want.ID]
						if p == nil {
							t.Fatalf("reference page %q not in the dataset", want.ID)
						}
						got := ScorePage(ds.Metric, p, out[want.ID])
						if msg := compareRef(ds.Metric, got, want); msg != "" {
							bad++
							if bad <= 5 {
								t.Errorf("%s: %s", want.ID, msg)
							}
						}
					}
					if bad > 0 {
						t.Errorf("%d of %d pages differ from the reference scores", bad, len(scores))
					}
				})
			}
		})
	}
}

func compareRef(m Metric, got PageScore, want refScore) string {
	near := func(a float64, b *float64) bool { return b != nil && math.Abs(a-*b) <= 1e-4 }
	switch m {
	case Shingles:
		exact := 0.0
		if got.shingle.Exact {
			exact = 1
		}
		if !near(got.Precision, want.ShP) || !near(got.Recall, want.ShR) || !near(exact, want.ShAcc) {
			return fmtGot(got.Precision, got.Recall, exact, want.ShP, want.ShR, want.ShAcc)
		}
	case Snippets:
		c := got.snip
		if want.TP == nil || c.TP != *want.TP || c.FP != *want.FP || c.FN != *want.FN || c.TN != *want.TN {
			return "snippet counts differ"
		}
	case BagOfWords, WCXB:
		if !near(got.Precision, want.Precision) || !near(got.Recall, want.Recall) || !near(got.F1, want.F1) {
			return fmtGot(got.Precision, got.Recall, got.F1, want.Precision, want.Recall, want.F1)
		}
	}
	return ""
}

func fmtGot(a, b, c float64, x, y, z *float64) string {
	v := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	return "got " + ftoa(a) + " " + ftoa(b) + " " + ftoa(c) + ", want " + ftoa(v(x)) + " " + ftoa(v(y)) + " " + ftoa(v(z))
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 6, 64) }
