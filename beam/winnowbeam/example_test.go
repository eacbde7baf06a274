package winnowbeam_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/winnow-go/winnow/beam/winnowbeam"
	"github.com/winnow-go/winnow/pipeline"
)

// A job over two WARC files, on Prism in this process: each page's
// record lands in one of the shards.
func ExampleBuild() {
	dir, _ := os.MkdirTemp("", "winnowbeam-example")
	defer os.RemoveAll(dir)
	var paths []string
	for i, body := range []string{
		"<html><body><article><p>The river rose overnight and the town woke to water in its streets; the mayor said the pumps would run until the weekend.</p></article></body></html>",
		"<html><body><article><p>A new bridge opens on Monday after three years of work, with a path for bicycles on each side and lights along its length.</p></article></body></html>",
	} {
		rec := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n%s", body)
		warc := fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://news.example/%d\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, len(rec), rec)
		path := filepath.Join(dir, fmt.Sprintf("part-%d.warc", i))
		os.WriteFile(path, []byte(warc), 0o644)
		paths = append(paths, path)
	}
	out := filepath.Join(dir, "out")
	p, s := beam.NewPipelineWithRoot()
	dd := pipeline.DefaultDedupOptions()
	if err := winnowbeam.Build(s, paths, out, winnowbeam.Settings{Shards: 2, Dedup: &dd}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := prism.Execute(context.Background(), p); err != nil {
		fmt.Println(err)
		return
	}
	for i := range 2 {
		b, _ := os.ReadFile(filepath.Join(out, winnowbeam.ShardName(i, 2, false)))
		fmt.Println(winnowbeam.ShardName(i, 2, false), strings.Count(string(b), "\n"), "records")
	}
	// Output:
	// records-00000-of-00002.jsonl 1 records
	// records-00001-of-00002.jsonl 1 records
}
