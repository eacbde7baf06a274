package extract

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// debugRow is what a reader sees of one block on the debug page.
type debugRow struct {
	classes []string // of the block's text: its label
	why     string   // the margin label
}

// debugView parses a debug page into its rows and its legend (key -> text).
func debugView(t *testing.T, p *Page) (rows []debugRow, legend map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteDebugHTML(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	legend = map[string]string{}
	for n := range doc.Descendants() {
		classes := strings.Fields(attr(n, "class"))
		switch {
		case slices.Contains(classes, "row"):
			var row debugRow
			for c := range n.ChildNodes() {
				switch cc := strings.Fields(attr(c, "class")); {
				case slices.Contains(cc, "why"):
					row.why = textOf(c)
				case slices.Contains(cc, "b"):
					row.classes = cc
				}
			}
			rows = append(rows, row)
		case slices.Contains(classes, "legend-line"):
			var cells []string
			for c := range n.ChildNodes() {
				if c.Type == html.ElementNode {
					cells = append(cells, textOf(c))
				}
			}
			if len(cells) != 3 {
				t.Fatalf("legend line %q: %d cells, want 3", cells, len(cells))
			}
			legend[cells[0]] = cells[2]
		}
	}
	return rows, legend
}

func block(text string, label Label, reasons ...Reason) *Block {
	return &Block{Kind: Paragraph, Text: text, Words: CountWords(text), Label: label, Reasons: reasons}
}

// TestDebugHTML checks that the debug page shows, in the margin of every
// removed block, the reason that decided it, and a legend line for every
// reason a block carries.
func TestDebugHTML(t *testing.T) {
	tests := []struct {
		name    string
		page    Page
		why     []string          // the margin label of each row
		classes []string          // the extra class of each row, "" for none
		legend  map[string]string // legend key -> the rule it is looked up by
	}{{
		name: "density",
		page: Page{Blocks: []*Block{
			block("Home News Sport", Boilerplate, Reason{StageDensity, ReasonOutsideRegion, -1}),
			block("Share on Facebook", Boilerplate, Reason{StageDensity, ReasonClassPrefix + "class~share", -1}),
			block("The article's text.", Content, Reason{StageDensity, ReasonInRegion, 4}),
			block("By Jane Doe", Content, Reason{StageDensity, ReasonOutsideRegion, -1}, Reason{StageDensity, ReasonAuthor, 1}),
			block("Photo: AP", Boilerplate, Reason{StageDensity, ReasonCredit, -1}),
		}},
		why: []string{"density: outside-region", "density: class:class~share", "", "density: author", "density: credit"},
		legend: map[string]string{
			"density: outside-region": ReasonOutsideRegion,
			"density: class:…":        ReasonClassPrefix,
			"density: in-region":      ReasonInRegion,
			"density: author":         ReasonAuthor,
			"density: credit":         ReasonCredit,
		},
	}, {
		name: "template",
		page: Page{Blocks: []*Block{
			block("Skip to content", Boilerplate, Reason{StageTemplate, "template", -0.9}),
			block("Menu", Boilerplate, Reason{StageTemplate, "template", -0.8}),
			block("The article's text.", Content, Reason{StageDensity, ReasonInRegion, 4}),
		}},
		why:     []string{"infholder: template", "infholder: template", ""},
		classes: []string{"template", "template", ""},
		legend: map[string]string{
			"infholder: template": "template",
			"density: in-region":  ReasonInRegion,
		},
	}, {
		name: "render",
		page: Page{Blocks: []*Block{
			block("Cookie notice", Boilerplate, Reason{StageRender, "hidden:display-none", -1}),
			block("Subscribe now", Boilerplate, Reason{StageRender, "fixed", -1}),
			block("The article's text.", Content,
				Reason{StageRender, "in-column x=300 w=640 font=16px", 0}, Reason{StageDensity, ReasonInRegion, 4}),
			block("Related", Boilerplate,
				Reason{StageRender, "off-column x=980 w=200 font=12px", 0}, Reason{StageDensity, ReasonLinkDensity, -0.8}),
		}},
		why: []string{"render: hidden:display-none", "render: fixed", "", "density: link-density"},
		legend: map[string]string{
			"render: hidden:display-none": "hidden:display-none",
			"render: fixed":               "fixed",
			"render: in-column":           "in-column",
			"render: off-column":          "off-column",
			"density: in-region":          ReasonInRegion,
			"density: link-density":       ReasonLinkDensity,
		},
	}, {
		name: "rules",
		page: Page{Removed: map[string]int{StageRules: 12}, Blocks: []*Block{
			block("Menu", Boilerplate, Reason{StageRules, "outside-content", -1}, Reason{StageRender, "in-column x=0 w=0 font=0px", 0}),
			block("The article's text.", Content, Reason{StageRules, "content", 1}),
		}},
		why: []string{"rules: outside-content", "rules: content"},
		legend: map[string]string{
			"rules: drop":            "drop",
			"rules: outside-content": "outside-content",
			"rules: content":         "content",
			"render: in-column":      "in-column",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, legend := debugView(t, &tt.page)
			if len(rows) != len(tt.why) {
				t.Fatalf("%d rows, want %d", len(rows), len(tt.why))
			}
			for i, row := range rows {
				b := tt.page.Blocks[i]
				if !slices.Contains(row.classes, b.Label.String()) {
					t.Errorf("row %d (%q): classes %q, want %v", i, b.Text, row.classes, b.Label)
				}
				if tt.classes != nil && tt.classes[i] != "" && !slices.Contains(row.classes, tt.classes[i]) {
					t.Errorf("row %d (%q): classes %q, want %s", i, b.Text, row.classes, tt.classes[i])
				}
				if row.why != tt.why[i] {
					t.Errorf("row %d (%q): margin label %q, want %q", i, b.Text, row.why, tt.why[i])
				}
			}
			for key, rule := range tt.legend {
				stage, _, _ := strings.Cut(key, ": ")
				text, ok := legend[key]
				switch want := legendText(stage, rule); {
				case !ok:
					t.Errorf("no legend line %q", key)
				case want == "" || !strings.HasPrefix(text, want):
					t.Errorf("legend line %q: %q, want %q", key, text, want)
				}
			}
			for key := range legend {
				if _, ok := tt.legend[key]; !ok {
					t.Errorf("legend line %q for a reason no block carries", key)
				}
			}
		})
	}
}

// TestDebugHTMLReasonPages writes the debug page of every page under
// testdata/reasons: each removed block has its label in the margin, and
// every legend line has its text.
func TestDebugHTMLReasonPages(t *testing.T) {
	pages, shared := reasonPages(t)
	for _, path := range pages {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".html"), func(t *testing.T) {
			raw, err := readReasonPage(shared, path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Extract(raw, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rows, legend := debugView(t, p)
			for i, row := range rows {
				if slices.Contains(row.classes, Boilerplate.String()) && !strings.HasPrefix(row.why, StageDensity+": ") {
					t.Errorf("removed block %q: margin label %q", p.Blocks[i].Text, row.why)
				}
			}
			if len(legend) == 0 {
				t.Fatal("no legend")
			}
			for key, text := range legend {
				if strings.HasPrefix(text, "(no legend line") {
					t.Errorf("legend line %q has no text", key)
				}
			}
		})
	}
}

// TestLegendCoversStages checks that every reason of every stage has a
// legend line: the density reasons by their constants, the other stages'
// by the rule names their packages vote with.
func TestLegendCoversStages(t *testing.T) {
	for _, r := range densityReasons {
		if reasonLegend[r] == "" {
			t.Errorf("density reason %q has no legend line", r)
		}
	}
	sources := []struct {
		stage, file string
		res         []string // patterns whose first group is a rule name
		prefix      string   // what the names are prefixed with in the rule
	}{
		{StageRules, "../xpathrules/rules.go", []string{`Vote\(Stage, "([a-z:-]+)"`}, ""},
		{StageTemplate, "../infholder/infholder.go", []string{`Vote\(Stage, "([a-z:-]+)"`}, ""},
		{StageRender, "../render/apply.go", []string{`Vote\(Stage, (?:fmt\.Sprintf\()?"([a-z:-]+)`, `where :?= "([a-z:-]+)"`}, ""},
		{StageRender, "../render/apply.go", []string{`return "([a-z:-]+)"`}, "hidden:"}, // Layout.Hidden
	}
	for _, src := range sources {
		code, err := os.ReadFile(src.file)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, re := range src.res {
			for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(string(code), -1) {
				found++
				if _, ok := stageLegend[src.stage][src.prefix+m[1]]; !ok {
					t.Errorf("%s: %s rule %q has no legend line", src.file, src.stage, src.prefix+m[1])
				}
			}
		}
		if found == 0 {
			t.Errorf("%s: no %s rule names found: has the code changed shape?", src.file, src.stage)
		}
	}
}
