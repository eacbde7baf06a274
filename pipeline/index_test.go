package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/pipeline"
)

// TestIndexAddQueryDelete: IndexAdd skips unreadable lines and counts a
// text with no words; IndexQuery finds a copy under another URL and gives
// an error answer for a bad line; IndexDelete reports the URLs it did not
// hold; a cancelled context stops an add.
func TestIndexAddQueryDelete(t *testing.T) {
	st, err := dedup.OpenStore(filepath.Join(t.TempDir(), "idx"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	text := strings.Repeat("The harbour town switched on its first tidal power station after a decade of hearings. ", 4)
	line := func(u, text string) string {
		b, _ := json.Marshal(map[string]string{"url": u, "text": text})
		return string(b) + "\n"
	}
	var log bytes.Buffer
	in := line("https://a.example/1", text) + "not json\n" + line("https://a.example/empty", "") + `{"text":"no url"}` + "\n"
	sum, err := pipeline.IndexAdd(context.Background(), strings.NewReader(in), "in.jsonl", st, &log)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 1 || sum.Unreadable != 2 || sum.Unsigned != 1 || sum.String() != "1 records added, 2 unreadable, 1 with nothing to sign (minhash threshold=0.8)" {
		t.Errorf("summary %+v %q", sum, sum)
	}
	if got := log.String(); !strings.HasPrefix(got, "in.jsonl:2: skipped: ") || !strings.Contains(got, "in.jsonl:4: skipped: no url\n") {
		t.Errorf("log %q", got)
	}
	var out bytes.Buffer
	q := line("https://b.example/copy", text) + "{\n" + line("https://b.example/empty", "")
	qsum, err := pipeline.IndexQuery(context.Background(), strings.NewReader(q), "q.jsonl", st, &out)
	if err != nil {
		t.Fatal(err)
	}
	if qsum.Queried != 1 || qsum.WithDuplicates != 1 || qsum.Errors != 2 || qsum.CandidatesMax < 1 || qsum.Held != 1 {
		t.Errorf("query summary %+v", qsum)
	}
	var answers []pipeline.IndexAnswer
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a pipeline.IndexAnswer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, a)
	}
	if len(answers) != 3 || len(answers[0].Duplicates) != 1 || answers[0].Duplicates[0].URL != "https://a.example/1" ||
		answers[0].Duplicates[0].Similarity != 1 || !answers[0].Duplicates[0].Verified || answers[1].Error == "" || answers[2].Error != "no words to sign" {
		t.Errorf("answers %s", out.String())
	}
	missing, err := pipeline.IndexDelete(st, []string{"https://a.example/1", "https://nope.example/"})
	if err != nil || len(missing) != 1 || missing[0] != "https://nope.example/" {
		t.Errorf("delete: %v %v", missing, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pipeline.IndexAdd(ctx, strings.NewReader(in), "in.jsonl", st, nil); err != context.Canceled {
		t.Errorf("cancelled add: %v", err)
	}
}
