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
	raw, err := os.ReadFile(baselineFile)
	if err != nil && !*updateBaseline {
		t.Fatal(err)
	}
	base := map[string]float64{}
	if err == nil {
		if err := json.Unmarshal(raw, &base); err != nil {
			t.Fatalf("%s: %v", baselineFile, err)
		}
	}
	got := map[string]float64{}
	measured := 0
	check := func(t *testing.T, key string, f1 float64) {
		got[key] = f1
		if *updateBaseline {
			return
		}
		if want, ok := base[key]; !ok {
			t.Errorf("%s: no baseline in %s", key, baselineFile)
		} else if f1 < want-baselineSlack {
			t.Errorf("%s: %.4f fell below the baseline %.4f by more than %.3f", key, f1, want, baselineSlack)
		}
	}
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
	if *updateBaseline {
		// A set left out by -run or one that failed to load would drop
		// out of the file: write it only with every set measured.
		if measured != len(ExtractDatasets) {
			t.Fatalf("%d of %d sets measured: %s not rewritten", measured, len(ExtractDatasets), baselineFile)
		}
		next := roundAll(got)
		for k, v := range base {
			if next[k] < v {
				t.Logf("%s: %.4f stays at the committed %.4f (the update never lowers a bar)", k, next[k], v)
				next[k] = v
			}
		}
		b, _ := json.MarshalIndent(next, "", "  ")
		if err := os.MkdirAll(filepath.Dir(baselineFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(baselineFile, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func roundAll(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = float64(int64(v*10000)) / 10000 // truncate: the bar never exceeds the measurement
	}
	return out
}
