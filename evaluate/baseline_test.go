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
// regression cannot land unnoticed. Run with -update-baseline after an
// improvement to raise the bar.
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
			got[name] = res.F1
			t.Logf("%-13s pages %4d  P %.4f  R %.4f  F1 %.4f  (baseline %.4f)", name, res.Pages, res.Precision, res.Recall, res.F1, base[name])
			if !*updateBaseline {
				want, ok := base[name]
				if !ok {
					t.Errorf("%s: no baseline in %s", name, baselineFile)
				} else if res.F1 < want-baselineSlack {
					t.Errorf("%s: F1 %.4f fell below the baseline %.4f by more than %.3f", name, res.F1, want, baselineSlack)
				}
			}
		})
	}
	if *updateBaseline {
		// A set left out by -run or one that failed to load would drop
		// out of the file: write it only with every set measured.
		if len(got) != len(ExtractDatasets) {
			t.Fatalf("%d of %d sets measured: %s not rewritten", len(got), len(ExtractDatasets), baselineFile)
		}
		b, _ := json.MarshalIndent(roundAll(got), "", "  ")
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
