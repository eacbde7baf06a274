package evaluate

import (
	"context"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
)

// TestMetadataBaseline runs the metadata stage on both metadata sets and
// fails when a figure falls more than baselineSlack below its bar in
// testdata/baseline.json (keys "metadata/<set>/<figure>"), or when winnow
// falls behind go-trafilatura on a figure both give.
func TestMetadataBaseline(t *testing.T) {
	data := shareddata.Require(t)
	bl := loadBaseline(t)
	measured := 0
	for _, set := range MetadataDatasets {
		t.Run(set, func(t *testing.T) {
			rep, err := CompareMetadata(context.Background(), data, set, pipeline.Stages{}, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Errors) > 0 {
				t.Errorf("%d pages failed", len(rep.Errors))
			}
			measured++
			w := rep.Rows[0].Scores
			var traf *MetaScores
			for _, r := range rep.Rows[1:] {
				if r.Tool == "go-trafilatura" {
					traf = r.Scores
				}
			}
			if traf == nil {
				t.Fatal("no go-trafilatura outputs for the set in testdata/peers")
			}
			for _, f := range []struct {
				name       string
				mine, peer *float64
			}{
				{"date_f", w.DateF, traf.DateF},
				{"date_accuracy", w.DateAccuracy, traf.DateAccuracy},
				{"author_accuracy", w.AuthorAccuracy, traf.AuthorAccuracy},
				{"title_exact", w.TitleExact, traf.TitleExact},
				{"title_f1", w.TitleF1, traf.TitleF1},
			} {
				if f.mine == nil {
					continue
				}
				key := "metadata/" + set + "/" + f.name
				t.Logf("%-40s %.4f (baseline %.4f, go-trafilatura %.4f)", key, *f.mine, bl.base[key], *f.peer)
				bl.check(t, key, *f.mine)
				if *f.mine < *f.peer && set == "wcxb-dev-even" {
					t.Errorf("%s: winnow %.4f is below go-trafilatura's %.4f", key, *f.mine, *f.peer)
				}
			}
		})
	}
	bl.save(t, measured == len(MetadataDatasets))
}

func TestCleanevalGold(t *testing.T) {
	for in, want := range map[string]string{"2005-5-7 21:23:57": "2005-05-07", "2005-07-31 12:30": "2005-07-31",
		"1998-3": "1998-03", "2018": "2018", "2005年8月12日": "2005-08-12", "刘涛": "", "UNKNOWN": ""} {
		got := ""
		if d := goldDay(in); d != nil {
			got = *d
		}
		if got != want {
			t.Errorf("goldDay(%q) = %q, want %q", in, got, want)
		}
	}
	for _, s := range []string{"", " ", "UNKNOWN", "UNKNWON"} {
		if known(s) != nil {
			t.Errorf("known(%q) is not null", s)
		}
	}
	two := "宋怡 杨志华"
	for _, c := range []struct {
		out  []string
		han  bool
		want bool
	}{
		{[]string{"宋怡", "杨志华"}, true, true},
		{[]string{"杨志华", "宋怡"}, true, true},
		{[]string{"宋怡"}, true, false},
		{[]string{"宋怡", "杨志华"}, false, false}, // WCXB's rule parts at commas only
	} {
		if got := authorCorrect(&two, c.out, c.han); got != c.want {
			t.Errorf("authorCorrect(%q, %q, %v) = %v", two, c.out, c.han, got)
		}
	}
	if !dateCorrect(ptrTo("2018"), "2018-08-23") || dateCorrect(ptrTo("2018"), "2017-08-23") || !dateCorrect(ptrTo("1998-03"), "1998-03-02") {
		t.Error("a year or month gold does not compare the year or month")
	}
}

func ptrTo(s string) *string { return &s }
