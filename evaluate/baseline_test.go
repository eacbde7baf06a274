package evaluate

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
)

var updateBaseline = flag.Bool("update-baseline", false, "rewrite testdata/baseline.json with the current figures")

// baselineSlack is how far an F1 may fall below the committed baseline
// before the test fails.
const baselineSlack = 0.005

const baselineFile = "testdata/baseline.json"

// TestExtractBaseline runs winnow on every extraction set and fails when
// any F1 falls more than baselineSlack below testdata/baseline.json, so a
// regression cannot land unnoticed; a set with page types (wcxb-dev-even)
// also has a bar per type, under "<set>/<type>", and one for the page-type
// accuracy, under "<set>/page_type_accuracy". Run with -update-baseline
// after an improvement to raise the bar: it never lowers a bar already in
// the file (edit the file by hand to do that).
func TestExtractBaseline(t *testing.T) {
	data := shareddata.Require(t)
	bl := loadBaseline(t)
	check := bl.check
	base := bl.base
	measured := 0
	for _, name := range ExtractDatasets {
		t.Run(name, func(t *testing.T) {
			ds, err := LoadExtract(data, name)
			if err != nil {
				t.Fatal(err)
			}
			res, _, errs := RunExtract(ds, WinnowExtractor(context.Background(), pipeline.Stages{}), 0)
			if len(errs) > 0 {
				t.Errorf("%s: %d pages failed to extract", name, len(errs))
			}
			measured++
			t.Logf("%-13s pages %4d  P %.4f  R %.4f  F1 %.4f  (baseline %.4f)", name, res.Pages, res.Precision, res.Recall, res.F1, base[name])
			check(t, name, res.F1)
			if acc := res.PageTypeAccuracy; acc != nil {
				key := name + "/page_type_accuracy"
				t.Logf("  %-28s pages %4d  accuracy %.4f  (baseline %.4f)", key, res.Pages, *acc, base[key])
				check(t, key, *acc)
			}
			for _, ty := range res.Types {
				key := name + "/" + ty.Type
				t.Logf("  %-28s pages %4d  F1 %.4f  (baseline %.4f)", key, ty.Pages, ty.F1, base[key])
				check(t, key, ty.F1)
			}
		})
	}
	bl.save(t, measured == len(ExtractDatasets))
}

// baseline is the committed bars of testdata/baseline.json and the
// figures a test measured against them.
type baseline struct {
	base, got map[string]float64
}

func loadBaseline(t *testing.T) *baseline {
	raw, err := os.ReadFile(baselineFile)
	if err != nil && !*updateBaseline {
		t.Fatal(err)
	}
	b := &baseline{base: map[string]float64{}, got: map[string]float64{}}
	if err == nil {
		if err := json.Unmarshal(raw, &b.base); err != nil {
			t.Fatalf("%s: %v", baselineFile, err)
		}
	}
	return b
}

// check records a figure and, unless the bars are being raised, fails
// when it fell more than baselineSlack below its bar.
func (b *baseline) check(t *testing.T, key string, v float64) {
	b.got[key] = v
	if *updateBaseline {
		return
	}
	if want, ok := b.base[key]; !ok {
		t.Errorf("%s: no baseline in %s", key, baselineFile)
	} else if v < want-baselineSlack {
		t.Errorf("%s: %.4f fell below the baseline %.4f by more than %.3f", key, v, want, baselineSlack)
	}
}

// save rewrites the file with -update-baseline: the bars measured, the
// others as they were; never lower. all says whether every set was
// measured: a set left out by -run or one that failed to load would drop
// out of the file, so it is written only then.
func (b *baseline) save(t *testing.T, all bool) {
	if !*updateBaseline {
		return
	}
	if !all {
		t.Fatalf("not every set was measured: %s not rewritten", baselineFile)
	}
	next := roundAll(b.got)
	for k, v := range b.base {
		if next[k] < v {
			if _, measured := b.got[k]; measured {
				t.Logf("%s: %.4f stays at the committed %.4f (the update never lowers a bar)", k, next[k], v)
			}
			next[k] = v
		}
	}
	out, _ := json.MarshalIndent(next, "", "  ")
	if err := os.MkdirAll(filepath.Dir(baselineFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(baselineFile, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func roundAll(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = float64(int64(v*10000)) / 10000 // truncate: the bar never exceeds the measurement
	}
	return out
}
