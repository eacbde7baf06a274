package evaluate_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/evaluate"
)

// TestDedupReport: a collection with one exact copy, written and read
// back, gives one gold pair that MinHash finds; the table and the JSON
// line have the report's figures.
func TestDedupReport(t *testing.T) {
	text := strings.Repeat("The harbour town switched on its first tidal power station after a decade of hearings. ", 4)
	docs := []evaluate.GenDoc{
		{URL: "https://a.example/1", Text: text},
		{URL: "https://b.example/copy", Text: text},
		{URL: "https://c.example/other", Text: "An unrelated note about winter squash stored on a shelf in the spare bedroom until April, with onions and garlic."},
	}
	var buf bytes.Buffer
	if err := evaluate.WriteCollection(&buf, docs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := evaluate.ReadCollection(path)
	if err != nil || len(back) != 3 || back[1] != docs[1] {
		t.Fatalf("read back %v %v", back, err)
	}
	rep, err := evaluate.CompareDedup("c.jsonl", back, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Documents != 3 || rep.GoldPairs != 1 || rep.Methods["minhash"].Recall != 1 {
		t.Errorf("report %+v", rep)
	}
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil || !strings.HasPrefix(out.String(), "3 documents, 1 gold pairs at Jaccard >= 0.80") {
		t.Errorf("table %q %v", out.String(), err)
	}
	b, _ := json.Marshal(rep)
	if !strings.HasPrefix(string(b), `{"dataset":"c.jsonl","methods":{"heavysent":`) {
		t.Errorf("JSON %s", b)
	}
}

// TestSiteRuns: single-page first, then every signature of template and
// template-only, the default one under the bare name.
func TestSiteRuns(t *testing.T) {
	var names []string
	for _, r := range evaluate.SiteRuns() {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, " "); !strings.HasPrefix(got, "single-page template template/") || !strings.Contains(got, " template-only template-only/") {
		t.Errorf("rows %s", got)
	}
}
