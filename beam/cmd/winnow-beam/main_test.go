package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
)

// The tests run this test binary as winnow-beam: with childEnv set, it
// is the command.
const childEnv = "WINNOW_BEAM_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type result struct {
	code           int
	stdout, stderr string
}

// winnowBeam runs the command with args.
func winnowBeam(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// sharedWARCs are two WARC files of the shared data.
func sharedWARCs(t *testing.T) []string {
	t.Helper()
	data := shareddata.Require(t)
	return []string{filepath.Join(data, "warc", "pywb", "iana.warc.gz"), filepath.Join(data, "warc", "pywb", "dupes.warc.gz")}
}

func sortedLines(b []byte) []string {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	slices.Sort(lines)
	return lines
}

// TestCommand runs winnow-beam --dedup on a manifest (on Prism, the
// default runner): the shards hold winnow run --dedup's records, and the
// counters go to stderr.
func TestCommand(t *testing.T) {
	paths := sharedWARCs(t)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.txt")
	os.WriteFile(manifest, []byte("# two WARCs\n"+strings.Join(paths, "\n")+"\n"), 0o644)
	out := filepath.Join(dir, "out")
	r := winnowBeam(t, "--inputs", manifest, "--output", out, "--dedup", "--shards", "3")
	if r.code != 0 {
		t.Fatalf("exit code %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "records.ok: ") || !strings.Contains(r.stderr, "shuffle.dedup.bytes: ") {
		t.Errorf("stderr lacks the counters:\n%s", r.stderr)
	}
	names, _ := filepath.Glob(filepath.Join(out, "*"))
	var got []byte
	for _, name := range names {
		if !strings.HasPrefix(filepath.Base(name), "records-") || !strings.HasSuffix(name, "-of-00003.jsonl") {
			t.Errorf("unexpected file %s", name)
		}
		b, _ := os.ReadFile(name)
		got = append(got, b...)
	}
	if len(names) != 3 {
		t.Fatalf("%d files in the output, want 3 shards", len(names))
	}
	ref := filepath.Join(dir, "run.jsonl")
	opts := pipeline.Options{}
	d := pipeline.DefaultDedupOptions()
	if _, err := pipeline.RunFile(context.Background(), paths, ref, opts, pipeline.FileOptions{Dedup: &d}); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(ref)
	if !slices.Equal(sortedLines(want), sortedLines(got)) {
		t.Errorf("the shards' records differ from winnow run --dedup's (%d bytes, want %d)", len(got), len(want))
	}
}

// TestUsage: bad command lines exit 2 with a reason, before any job.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--output", dir}, "--inputs MANIFEST and --output DIR are required"},
		{[]string{"--inputs", "m", "--output", dir, "--render"}, "local-only"},
		{[]string{"--inputs", "m", "--output", dir, "--dedup", "--k", "3"}, "--k is a setting of --method simhash"},
		{[]string{"--inputs", "m", "--output", dir, "--method", "simhash"}, "settings of --dedup"},
		{[]string{"--inputs", "m", "--output", dir, "--dedup", "--method", "md5"}, "md5"},
	} {
		r := winnowBeam(t, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.says) {
			t.Errorf("%q: exit code %d, stderr %q; want 2 and %q", tc.args, r.code, r.stderr, tc.says)
		}
	}
}
