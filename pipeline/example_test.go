package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/winnow-go/winnow/pipeline"
)

// A run over a JSONL file of two pages and a line that is not JSON: one
// record per input line, in input order, and a summary that adds up.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "winnow-example")
	defer os.RemoveAll(dir)
	page := func(u, title, body string) string {
		b, _ := json.Marshal(map[string]string{"url": u, "html": "<html><head><title>" + title + "</title></head><body>" +
			"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article><h1>" + title + "</h1><p>" + body + "</p></article></body></html>"})
		return string(b) + "\n"
	}
	in := filepath.Join(dir, "pages.jsonl")
	os.WriteFile(in, []byte(page("https://example.org/a", "Harbour opens", strings.Repeat("The harbour opened its new pier to the public on Saturday morning. ", 6))+
		"{not json\n"+
		page("https://example.org/b", "Rain expected", strings.Repeat("Forecasters expect heavy rain across the valley for most of the week. ", 6))), 0o644)

	var out bytes.Buffer
	sum, err := pipeline.Run(context.Background(), []string{in}, &out, pipeline.Options{Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct{ URL, Status, Title, Text string }
		json.Unmarshal([]byte(line), &r)
		fmt.Printf("%s %q %q %d words\n", r.Status, r.URL, r.Title, len(strings.Fields(r.Text)))
	}
	fmt.Println(sum.Written, "records:", sum.OK, "ok,", sum.Errors, "error")
	// Output:
	// ok "https://example.org/a" "Harbour opens" 74 words
	// error "" "" 0 words
	// ok "https://example.org/b" "Rain expected" 74 words
	// 3 records: 2 ok, 1 error
}

// Near-duplicate detection over records: the second page repeats the first
// with a changed word, so it points at the first, fetched earlier.
func ExampleDedup() {
	text := strings.Repeat("the harbour opened its new pier to the public on saturday morning after two years of work ", 4)
	in := fmt.Sprintf(`{"url":"https://a.example/1","fetched_at":"2024-05-01T10:00:00Z","text":%q}
{"url":"https://b.example/copy","fetched_at":"2024-05-02T10:00:00Z","text":%q}
{"url":"https://a.example/2","text":"forecasters expect heavy rain across the valley for most of the week"}
`, text, strings.Replace(text, "saturday", "sunday", 1))
	var out bytes.Buffer
	sum, _, err := pipeline.Dedup(strings.NewReader(in), "records", &out, pipeline.DefaultDedupOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			URL         string `json:"url"`
			Canonical   bool   `json:"canonical"`
			DuplicateOf string `json:"duplicate_of"`
		}
		json.Unmarshal([]byte(line), &r)
		fmt.Println(strings.TrimSpace(fmt.Sprintln(r.URL, r.Canonical, r.DuplicateOf)))
	}
	fmt.Println(sum.Clusters, "clusters,", sum.Duplicates, "duplicate")
	// Output:
	// https://a.example/1 true
	// https://b.example/copy false https://a.example/1
	// https://a.example/2 true
	// 2 clusters, 1 duplicate
}
