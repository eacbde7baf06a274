package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
)

// TestRun: on a small generated collection marked by SimHash dedup, every
// gold pair lies within 64 bits, the recall grows with k, and a record
// without a fingerprint is refused.
func TestRun(t *testing.T) {
	data := shareddata.Require(t)
	pool, err := dedupgen.LoadPool(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := dedupgen.New(pool, dedupgen.Options{Docs: 400, CopyRate: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteFiles(dir, 0, 0); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(filepath.Join(dir, "docs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var marked bytes.Buffer
	opts := pipeline.DefaultDedupOptions()
	if _, _, err := pipeline.Dedup(in, "docs.jsonl", &marked, opts); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(out, marked.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-dir", dir, "-marked", out, "-max-k", "64"}, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2+65 {
		t.Fatalf("%d lines:\n%s", len(lines), stdout.String())
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "64\t1.0000\t1.0000\t") {
		t.Errorf("k=64 row %q: every gold pair is within 64 bits", last)
	}
	if k0 := lines[2]; k0 == lines[len(lines)-1] {
		t.Errorf("k=0 row %q equals k=64's", k0)
	}
	if err := os.WriteFile(out, []byte(`{"url":"a","text":"x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-dir", dir, "-marked", out}, &stdout, &stderr); err == nil {
		t.Error("a record without simhash was read")
	}
}
