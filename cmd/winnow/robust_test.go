package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/winnow-go/winnow/internal/synth"
)

// child is one run of the real command in a child process, with a
// deadline: no case may hang.
type child struct {
	stdout, stderr string
	code           int
	maxRSSMB       int64 // the child's peak resident memory
}

func runChild(t *testing.T, deadline time.Duration, stdin []byte, args ...string) child {
	t.Helper()
	// Linux keeps a process's peak RSS across exec, and the child starts
	// on the test's memory (Go forks with CLONE_VM): the child's figure
	// is at least the test's own peak. Return what the test can, then
	// reset the test's peak to its current RSS (clear_refs 5, Linux 4.0+)
	// so that the child is measured, not the tests that ran before it.
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("cannot reset the test's peak RSS (%v): the child's peak may be the test's", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WINNOW_MAIN=1")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("winnow %s: still running after %v (a hang)", strings.Join(args, " "), deadline)
	}
	c := child{stdout: out.String(), stderr: errb.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("winnow %s: %v", strings.Join(args, " "), err)
		}
		c.code = ee.ExitCode()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		c.maxRSSMB = ru.Maxrss / 1024 // kilobytes on Linux
	}
	return c
}

// runSummary is the part of --summary the robustness cases check.
type runSummary struct {
	Read, Written, OK, Errors, Skipped int
	Kinds                              map[string]int `json:"skipped_or_failed_by_kind"`
}

// checkRun reads a run's records and summary and checks that they add
// up: one record per input page (want), and the counts of the summary.
func checkRun(t *testing.T, out, summary string, want int) ([]map[string]any, runSummary) {
	t.Helper()
	recs := readJSONL(t, out)
	var s runSummary
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	kinds := 0
	for _, n := range s.Kinds {
		kinds += n
	}
	switch {
	case len(recs) != want:
		t.Errorf("%d records, want %d", len(recs), want)
	case s.Read != want || s.Written != want:
		t.Errorf("summary read %d, written %d; want %d", s.Read, s.Written, want)
	case s.OK+s.Errors+s.Skipped != s.Written:
		t.Errorf("summary: %d ok + %d errors + %d skipped != %d written", s.OK, s.Errors, s.Skipped, s.Written)
	case kinds != s.Errors+s.Skipped:
		t.Errorf("summary kinds %v add up to %d, not %d errors and skipped", s.Kinds, kinds, s.Errors+s.Skipped)
	}
	return recs, s
}

// TestRobustGzipBomb: a folder holding a small .html.gz that expands to a
// gigabyte is read no further than --max-page-bytes: the page is cut and
// says so, and memory stays bounded.
func TestRobustGzipBomb(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	os.Mkdir(pages, 0o755)
	// One gzip member of 1 MiB of markup, repeated 1,024 times: a valid
	// multi-member gzip file of 1 GiB.
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write([]byte("<html><body>"))
	zw.Write(bytes.Repeat([]byte("<p>bomb</p>"), (1<<20)/11))
	zw.Close()
	fh, _ := os.Create(filepath.Join(pages, "bomb.html.gz"))
	for range 1024 {
		fh.Write(member.Bytes())
	}
	fh.Close()
	os.WriteFile(filepath.Join(pages, "ok.html"), []byte("<html><body><p>A small page that reads fine.</p></body></html>"), 0o644)
	out, sum := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "sum.json")
	c := runChild(t, 2*time.Minute, nil, "run", pages, "--out", out, "--summary", sum, "--max-page-bytes", "4000000", "--workers", "2")
	if c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, _ := checkRun(t, out, sum, 2)
	if recs[0]["truncated"] != true {
		t.Errorf("the bomb page is not marked truncated: %v", recs[0]["warnings"])
	}
	// A 4 MB page of 360,000 tiny paragraphs parses to a tree of some
	// 200 MB; the gigabyte behind it is never read.
	if c.maxRSSMB > 500 {
		t.Errorf("peak RSS %d MB for pages cut at 4 MB", c.maxRSSMB)
	}
	t.Logf("peak RSS %d MB", c.maxRSSMB)
}

// TestRobustFIFO: a FIFO named like a page in an input folder is an error
// record, not a read that waits forever.
func TestRobustFIFO(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	os.Mkdir(pages, 0o755)
	if err := syscall.Mkfifo(filepath.Join(pages, "a-fifo.html"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(pages, "b.html"), []byte("<html><body><p>A page beside the FIFO.</p></body></html>"), 0o644)
	out, sum := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "sum.json")
	c := runChild(t, time.Minute, nil, "run", pages, "--out", out, "--summary", sum)
	if c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, s := checkRun(t, out, sum, 2)
	if recs[0]["status"] != "error" || s.Errors != 1 {
		t.Errorf("FIFO record %v, summary %+v", recs[0], s)
	}
}

// TestRobustSiteBase: pages saved with the site's <base href> keep URLs of
// their own, so an index holds every one of them.
func TestRobustSiteBase(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	os.Mkdir(pages, 0o755)
	for i := range 9 {
		page := fmt.Sprintf(`<html><head><base href="http://site.example/"><title>Story %d</title></head><body><article><h1>Story %d</h1><p>%s</p></article></body></html>`,
			i, i, strings.Repeat(fmt.Sprintf("Article number %d tells its own story about the valley. ", i), 10))
		os.WriteFile(filepath.Join(pages, fmt.Sprintf("story-%d.html", i)), []byte(page), 0o644)
	}
	out, sum := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "sum.json")
	if c := runChild(t, time.Minute, nil, "run", pages, "--out", out, "--summary", sum); c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, _ := checkRun(t, out, sum, 9)
	urls := map[any]bool{}
	for _, r := range recs {
		urls[r["url"]] = true
	}
	if len(urls) != 9 {
		t.Errorf("%d distinct URLs for 9 pages: %v", len(urls), urls)
	}
	c := runChild(t, time.Minute, nil, "index", "add", out, "--index", filepath.Join(dir, "idx"))
	if c.code != 0 || !strings.Contains(c.stderr, "9 records added") || strings.Contains(c.stderr, "replaced") {
		t.Errorf("index add: exit %d, %s", c.code, c.stderr)
	}
}

// TestRobustFlags: an invalid flag value is a usage error (exit 2) before
// any input is opened: the input here does not even exist.
func TestRobustFlags(t *testing.T) {
	for _, args := range [][]string{
		{"run", "/nonexistent.warc", "--out", "-", "--dedup", "--threshold", "7"},
		{"run", "/nonexistent.warc", "--out", "-", "--workers", "-3"},
		{"run", "/nonexistent.warc", "--out", "-", "--samples-per-group", "-1"},
		{"run", "/nonexistent.warc", "--out", "-", "--max-page-bytes", "-5"},
		{"run", "/nonexistent.warc", "--out", "-", "--dedup", "--k", "99"},
		{"dedup", "/nonexistent.jsonl", "--out", "-", "--k", "99"},
		{"dedup", "/nonexistent.jsonl", "--out", "-", "--method", "minhash", "--num-perm", "0"},
		{"extract", "/nonexistent.html", "--max-page-bytes", "0"},
		{"extract", "/nonexistent.html", "--timeout", "-1s"},
		{"index", "add", "/nonexistent.jsonl", "--index", "/nonexistent-idx", "--k", "9"},
		{"rules", "suggest", "/nonexistent", "--out", "-", "--pages-per-site", "0"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			if c := runChild(t, 30*time.Second, nil, args...); c.code != 2 {
				t.Errorf("exit %d, want 2: %s", c.code, c.stderr)
			}
		})
	}
}

// TestRobustResumeCheck: --resume refuses, with exit 1 and a message that
// names the difference, a run over other inputs or options, and a run
// whose description is missing.
func TestRobustResumeCheck(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.warc"), filepath.Join(dir, "b.warc")
	texts := []string{"The harbour opened its new pier.", "Rain is expected all week."}
	for i, p := range []string{a, b} {
		var buf bytes.Buffer
		synth.WriteWARC(&buf, texts, 20+i)
		os.WriteFile(p, buf.Bytes(), 0o644)
	}
	out := filepath.Join(dir, "out.jsonl")
	if c := runChild(t, time.Minute, nil, "run", a, "--out", out); c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"other-input", []string{"run", b, "--out", out, "--resume"}, "input 1 was"},
		{"other-option", []string{"run", a, "--out", out, "--resume", "--single-page"}, "option single_page"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runChild(t, time.Minute, nil, c.args...)
			if r.code != 1 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, want 1 naming %q: %s", r.code, c.want, r.stderr)
			}
		})
	}
	if c := runChild(t, time.Minute, nil, "run", a, "--out", out, "--resume"); c.code != 0 {
		t.Errorf("the same run: exit %d: %s", c.code, c.stderr)
	}
	os.Remove(out + ".run.json")
	if c := runChild(t, time.Minute, nil, "run", a, "--out", out, "--resume"); c.code != 1 || !strings.Contains(c.stderr, "missing") {
		t.Errorf("no description: exit %d: %s", c.code, c.stderr)
	}
}

// TestRobustMissingIndex: a mistyped --index is refused by query, stats
// and dedup (exit 1) and no index is made; only add makes one, and says so.
func TestRobustMissingIndex(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "idx-typo")
	recs := filepath.Join(dir, "r.jsonl")
	os.WriteFile(recs, []byte(`{"url":"https://a.example/1","text":"the harbour opened its new pier on saturday morning"}`+"\n"), 0o644)
	for _, args := range [][]string{
		{"index", "query", recs, "--index", idx},
		{"index", "stats", "--index", idx},
		{"dedup", recs, "--out", filepath.Join(dir, "o.jsonl"), "--index", idx},
	} {
		if c := runChild(t, time.Minute, nil, args...); c.code != 1 {
			t.Errorf("%v: exit %d, want 1: %s", args, c.code, c.stderr)
		}
	}
	if _, err := os.Stat(idx); !os.IsNotExist(err) {
		t.Fatalf("a refused index was made: %v", err)
	}
	if c := runChild(t, time.Minute, nil, "index", "add", recs, "--index", idx); c.code != 0 || !strings.Contains(c.stderr, "created") {
		t.Errorf("index add: exit %d: %s", c.code, c.stderr)
	}
}

// TestRobustDedupBadLine: winnow dedup writes an error record for a line
// that is not JSON, counts it, and clusters the rest, as run does.
func TestRobustDedupBadLine(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	os.WriteFile(in, []byte(`{"url":"a","text":"one two three four five"}`+"\n{oops\n"+`{"url":"b","text":"six seven eight nine ten"}`+"\n"), 0o644)
	c := runChild(t, time.Minute, nil, "dedup", in, "--out", out)
	if c.code != 0 || !strings.Contains(c.stderr, "1 lines were not JSON records") {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs := readJSONL(t, out)
	if len(recs) != 3 || recs[1]["status"] != "error" {
		t.Errorf("records %v", recs)
	}
}

// TestRobustBigInputs: a page of 100,000 one-word paragraphs, all
// different (a run of paragraphs that repeats an earlier run goes, as
// extract.ReasonRepeat says), keeps its text, and a JSONL line of 100 MB is an error record read past in
// bounded memory, the lines after it read.
func TestRobustBigInputs(t *testing.T) {
	dir := t.TempDir()
	var page bytes.Buffer
	page.WriteString("<html><body>")
	for i := range 100000 {
		fmt.Fprintf(&page, "<p>word%d</p>\n", i)
	}
	page.WriteString("</body></html>")
	pages := filepath.Join(dir, "pages")
	os.Mkdir(pages, 0o755)
	os.WriteFile(filepath.Join(pages, "many.html"), page.Bytes(), 0o644)
	out, sum := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "sum.json")
	if c := runChild(t, 2*time.Minute, nil, "run", pages, "--out", out, "--summary", sum); c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, _ := checkRun(t, out, sum, 1)
	if text, _ := recs[0]["text"].(string); len(strings.Fields(text)) < 50000 {
		t.Errorf("100,000 one-word paragraphs gave %d words", len(strings.Fields(text)))
	}

	jl := filepath.Join(dir, "big.jsonl")
	fh, _ := os.Create(jl)
	fmt.Fprintln(fh, `{"url":"https://a.example/1","html":"<p>first page</p>"}`)
	fmt.Fprint(fh, `{"url":"https://a.example/2","html":"<p>`)
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for range 100 {
		fh.Write(chunk)
	}
	fmt.Fprintln(fh, `</p>"}`)
	fmt.Fprintln(fh, `{"url":"https://a.example/3","html":"<p>third page</p>"}`)
	fh.Close()
	c := runChild(t, 2*time.Minute, nil, "run", jl, "--out", out, "--summary", sum, "--max-page-bytes", "4000000")
	if c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, s := checkRun(t, out, sum, 3)
	if recs[1]["status"] != "error" || s.Errors != 1 {
		t.Errorf("the long line: %v", recs[1])
	}
	// Lines are read up to 2*4 MB + 1 MB; the 100 MB line is never held.
	if c.maxRSSMB > 150 {
		t.Errorf("peak RSS %d MB for a 100 MB line", c.maxRSSMB)
	}
	t.Logf("peak RSS %d MB", c.maxRSSMB)
}

// TestRobustWARCLength: a WARC record whose Content-Length runs past the
// next record costs that record only: 16 records in, 15 pages and one
// error record (with its offset) out, and the summary adds up.
func TestRobustWARCLength(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	var starts []int
	for i := range 16 {
		starts = append(starts, buf.Len())
		page := fmt.Sprintf("<html><body><p>Page %d of the crawl, with a sentence of its own.</p></body></html>", i)
		synth.WriteRecord(&buf, fmt.Sprintf("http://site.example/p/%d", i), "text/html", []byte(page))
	}
	b := buf.Bytes()
	// Record 5 claims 500 bytes more than it has.
	head := b[starts[4]:starts[5]]
	i := bytes.Index(head, []byte("Content-Length: "))
	j := bytes.IndexByte(head[i:], '\r')
	var n int
	fmt.Sscanf(string(head[i+len("Content-Length: "):i+j]), "%d", &n)
	fixed := append(append(append([]byte{}, b[:starts[4]+i]...), fmt.Sprintf("Content-Length: %d", n+500)...), b[starts[4]+i+j:]...)
	in := filepath.Join(dir, "crawl.warc")
	os.WriteFile(in, fixed, 0o644)
	out, sum := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "sum.json")
	if c := runChild(t, time.Minute, nil, "run", in, "--out", out, "--summary", sum); c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, s := checkRun(t, out, sum, 16)
	if s.OK != 15 || s.Errors != 1 || recs[4]["status"] != "error" || !strings.HasSuffix(recs[4]["source"].(string), fmt.Sprintf("@%d", starts[4])) {
		t.Errorf("summary %+v; record 5: %v", s, recs[4])
	}
}

// TestRobustInvalidUTF8: a UTF-8 page with one stray Latin-1 byte stays
// UTF-8: its Russian text is not garbled, the byte is told in warnings.
func TestRobustInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	os.Mkdir(pages, 0o755)
	text := "Городской совет утвердил бюджет на следующий год после долгого обсуждения в понедельник вечером."
	page := "<html><head><meta charset=\"utf-8\"><title>Бюджет</title></head><body><article><h1>Бюджет</h1><p>" +
		strings.Repeat(text+" ", 5) + "caf\xe9</p></article></body></html>"
	os.WriteFile(filepath.Join(pages, "ru.html"), []byte(page), 0o644)
	out, sum := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "sum.json")
	if c := runChild(t, time.Minute, nil, "run", pages, "--out", out, "--summary", sum); c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	recs, _ := checkRun(t, out, sum, 1)
	got, _ := recs[0]["text"].(string)
	warnings := fmt.Sprint(recs[0]["warnings"])
	if !strings.Contains(got, text) || recs[0]["charset"] != "utf-8" || !strings.Contains(warnings, "invalid-utf8: 1 bytes") {
		t.Errorf("charset %v, warnings %s, text %.120q", recs[0]["charset"], warnings, got)
	}
}
