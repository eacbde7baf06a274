package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// TestRun writes a small collection with its gold and unrelated files and
// prints the summary with the Jaccard histogram.
func TestRun(t *testing.T) {
	data := shareddata.Require(t)
	out := t.TempDir()
	var stderr bytes.Buffer
	if err := run([]string{"-n", "500", "-rate", "0.1", "-unrelated", "20", "-out", out, "-data", data}, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	for _, f := range []string{"docs.jsonl", "gold.jsonl", "unrelated.jsonl"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, want := range []string{"docs: 500 in", "unrelated: 20 in", "gold: 50 families", "orig-copy", "[0.95,1.00]"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr.String())
		}
	}
	if err := run([]string{"-n", "10"}, &stderr); err == nil {
		t.Error("no error without -out")
	}
}
