package pipeline_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/pipeline"
)

// TestDedupReport: two copies of a text and another text give one
// redirect line and a report that lists the cluster of two with its
// canonical URL.
func TestDedupReport(t *testing.T) {
	text := strings.Repeat("The harbour town switched on its first tidal power station after a decade of hearings. ", 4)
	var in bytes.Buffer
	for _, r := range []struct{ url, text string }{
		{"https://a.example/1", text},
		{"https://b.example/copy", text},
		{"https://c.example/other", "An unrelated note about winter squash stored on a shelf in the spare bedroom until April."},
	} {
		b, _ := json.Marshal(map[string]string{"url": r.url, "text": r.text})
		in.Write(append(b, '\n'))
	}
	opts := pipeline.DefaultDedupOptions()
	opts.KeepClusters = true
	_, cl, err := pipeline.Dedup(&in, "in.jsonl", io.Discard, opts)
	if err != nil {
		t.Fatal(err)
	}
	var red, rep bytes.Buffer
	if err := cl.WriteRedirects(&red); err != nil || red.String() != "https://b.example/copy\thttps://a.example/1\n" {
		t.Errorf("redirects %q %v", red.String(), err)
	}
	if err := pipeline.WriteDedupReport(&rep, cl, opts); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 records; MinHash LSH,", "2 clusters, 1 duplicates", "<h2>Top 1 clusters</h2>", `canonical: <a href="https://a.example/1">`, "<h3>k = 8: 2 clusters</h3>"} {
		if !strings.Contains(rep.String(), want) {
			t.Errorf("the report has no %q", want)
		}
	}
}
