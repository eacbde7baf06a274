package evaluate

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
)

// TestMetadataBaseline runs the metadata stage on every metadata set and
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
	han, wcxb, german := hanNameParts, authorParts, germanParts
	for _, c := range []struct {
		gold string
		out  []string
		sep  *regexp.Regexp
		want bool
	}{
		{"宋怡 杨志华", []string{"宋怡", "杨志华"}, han, true},
		{"宋怡 杨志华", []string{"杨志华", "宋怡"}, han, true},
		{"宋怡 杨志华", []string{"宋怡"}, han, false},
		{"宋怡 杨志华", []string{"宋怡", "杨志华"}, wcxb, false}, // WCXB's rule parts at commas only
		{"Benjamin Fischer und Marcus Theurer", []string{"Benjamin Fischer", "Marcus Theurer"}, german, true},
		{"Sarah Hinger; Sylvia Torres-Guillén", []string{"Sylvia Torres-Guillén", "Sarah Hinger"}, german, true},
		{"Benjamin Fischer und Marcus Theurer", []string{"Benjamin Fischer", "Marcus Theurer"}, wcxb, false},
	} {
		if got := authorCorrect(&c.gold, c.out, c.sep); got != c.want {
			t.Errorf("authorCorrect(%q, %q, %v) = %v", c.gold, c.out, c.sep, got)
		}
	}
	if !dateCorrect(ptrTo("2018"), "2018-08-23") || dateCorrect(ptrTo("2018"), "2017-08-23") || !dateCorrect(ptrTo("1998-03"), "1998-03-02") {
		t.Error("a year or month gold does not compare the year or month")
	}
}

func ptrTo(s string) *string { return &s }

// TestTrafilaturaMetaGold reads the trafilatura set's title, author and
// date gold: 538 authors (4 of them lists, joined), 728 dates as days,
// 845 titles; an empty cell is no gold.
func TestTrafilaturaMetaGold(t *testing.T) {
	ds, err := LoadMetadata(shareddata.Require(t), "trafilatura")
	if err != nil {
		t.Fatal(err)
	}
	var titles, authors, dates, lists int
	for _, p := range ds.Pages {
		if p.Title != nil {
			titles++
		}
		if p.Author != nil {
			authors++
			if strings.Contains(*p.Author, ", ") && strings.Contains(*p.Author, "Karin Fischer") {
				lists++
			}
		}
		if p.Date != nil {
			dates++
			if len(*p.Date) != 10 {
				t.Errorf("%s: date %q is no day", p.ID, *p.Date)
			}
		}
	}
	if len(ds.Pages) != 990 || titles != 845 || authors != 538 || dates != 728 || lists != 1 || !ds.GoldOnly {
		t.Errorf("%d pages, %d titles, %d authors (%d the Precht list), %d dates", len(ds.Pages), titles, authors, lists, dates)
	}
	if !slices.IsSortedFunc(ds.Pages, func(a, b MetaPage) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("pages are not in the order of their ids")
	}
}

// TestGoldOnlyScoring: on a set whose empty cells were not annotated,
// each field is scored on the pages with gold for it alone.
func TestGoldOnlyScoring(t *testing.T) {
	s := func(v string) *string { return &v }
	ds := &MetaDataset{Name: "x", Titles: true, Authors: true, DateRule: "accuracy", GoldOnly: true, Pages: []MetaPage{
		{ID: "a", Title: s("A Park"), Author: s("Ann Lee"), Date: s("2021-03-12")},
		{ID: "b", Author: s("Bob Roe")},
		{ID: "c"},
	}}
	outs := []MetaOutput{
		{ID: "a", Title: "A Park", Authors: []string{"Ann Lee"}, Published: "2021-03-12"},
		{ID: "b", Title: "Something", Authors: []string{"Someone"}, Published: "2020-01-01"},
		{ID: "c", Title: "Else", Authors: []string{"Anyone"}, Published: "2020-01-01"},
	}
	sc, err := ScoreMetadata(ds, outs)
	if err != nil {
		t.Fatal(err)
	}
	if *sc.TitleExact != 1 || *sc.AuthorAccuracy != 0.5 || *sc.DateAccuracy != 1 {
		t.Errorf("title %v, author %v, date %v; want 1, 0.5, 1", *sc.TitleExact, *sc.AuthorAccuracy, *sc.DateAccuracy)
	}
	ds.GoldOnly = false
	if sc, err = ScoreMetadata(ds, outs); err != nil {
		t.Fatal(err)
	}
	if *sc.AuthorAccuracy != 0.3333 || *sc.DateAccuracy != 0.3333 {
		t.Errorf("without GoldOnly: author %v, date %v; want 0.3333 each", *sc.AuthorAccuracy, *sc.DateAccuracy)
	}
}
