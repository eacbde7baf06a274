package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// run executes the command line in-process and returns stdout and the
// exit code main would use.
func run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	code := exitCode(root.Execute())
	return out.String(), code
}

func TestExtractFormats(t *testing.T) {
	page := "../../fixtures/pages/news-en.html"
	text, code := run(t, "extract", page)
	if code != 0 || !strings.Contains(text, "The small harbour town of Westmouth") || strings.Contains(text, "Share on Facebook") {
		t.Fatalf("text: code %d\n%s", code, text)
	}
	md, _ := run(t, "extract", "--format", "markdown", page)
	front, body, ok := strings.Cut(strings.TrimPrefix(md, "---\n"), "---\n\n")
	if !strings.HasPrefix(md, "---\n") || !ok || !strings.Contains(front, "title: Harbour town") || !strings.HasPrefix(body, "# Harbour town") {
		t.Errorf("markdown does not open with the front matter and the headline: %q", md[:min(200, len(md))])
	}
	js, code := run(t, "extract", page, "--format=json") // flags after the argument
	if code != 0 {
		t.Fatalf("json: code %d", code)
	}
	var rec struct {
		Title, Lang, Text, Status string
		Blocks                    []struct {
			Kind, Text, Label string
			Reasons           []struct{ Stage, Rule string }
		}
	}
	if err := json.Unmarshal([]byte(js), &rec); err != nil {
		t.Fatalf("json record: %v\n%s", err, js)
	}
	if rec.Status != "ok" || rec.Lang != "en" || len(rec.Blocks) < 10 || rec.Blocks[0].Label == "" || len(rec.Blocks[0].Reasons) == 0 {
		t.Errorf("record: %+v", rec)
	}
	h, _ := run(t, "extract", "--format", "html", page)
	if !strings.Contains(h, `class="b content"`) || !strings.Contains(h, `class="b boilerplate"`) || !strings.Contains(h, "title=") {
		t.Error("debug page lacks coloured blocks with reasons")
	}
}

// TestExtractFileURL checks that --url gives a file its address in the
// record.
func TestExtractFileURL(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	os.WriteFile(page, []byte(`<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>`+
		strings.Repeat(`<p>The ferry runs all winter, and the timetable says when, for every day of the week.</p>`, 4)+
		`</article></body></html>`), 0o644)
	js, code := run(t, "extract", page, "--url", "https://example.org/news/", "--format", "json")
	var rec struct{ URL string }
	if err := json.Unmarshal([]byte(js), &rec); code != 0 || err != nil || rec.URL != "https://example.org/news/" {
		t.Errorf("code %d: record url %q (%v), want the --url", code, rec.URL, err)
	}
}

func TestExtractBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.html")
	os.WriteFile(empty, nil, 0o644)
	png := filepath.Join(dir, "x.png")
	os.WriteFile(png, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"empty", []string{"extract", empty}, 1},
		{"not html", []string{"extract", png}, 1},
		{"missing file", []string{"extract", filepath.Join(dir, "nope.html")}, 1},
		{"unknown charset", []string{"extract", "--charset", "klingon", "../../fixtures/pages/news-en.html"}, 2},
		{"bad format", []string{"extract", "--format", "pdf", "../../fixtures/pages/news-en.html"}, 2},
		{"no argument", []string{"extract"}, 2},
		{"unreachable host", []string{"extract", "--timeout", "2s", "http://127.0.0.1:1/"}, 1},
		{"unknown dataset", []string{"eval", "extract", "nosuchset"}, 2},
		{"relative --url", []string{"extract", "--url", "example.org/a", "../../fixtures/pages/news-en.html"}, 2},
		{"--url with a URL", []string{"extract", "--url", "https://example.org/a", "http://127.0.0.1:1/"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, code := run(t, tc.args...); code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
		})
	}
}

// TestExtractURL serves a windows-1251 page that declares its charset only
// in the HTTP header and checks the fetch path decodes it.
func TestExtractURL(t *testing.T) {
	body, _ := charmap.Windows1251.NewEncoder().String(`<html><head><title>Тест</title></head><body><article><h1>Заголовок статьи</h1>` +
		strings.Repeat("<p>Это длинный абзац русского текста, который должен попасть в извлечённый текст статьи без искажений.</p>", 5) +
		`</article></body></html>`)
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.UserAgent()
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/page", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=windows-1251")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	out, code := run(t, "extract", srv.URL+"/old", "--format", "json")
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	var rec struct{ URL, Text, Charset string }
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Text, "Это длинный абзац русского текста") || rec.Charset != "windows-1251" || !strings.HasSuffix(rec.URL, "/page") {
		t.Errorf("record %+v", rec)
	}
	if !strings.HasPrefix(ua, "winnow/") {
		t.Errorf("User-Agent %q", ua)
	}
}

func TestEvalJSON(t *testing.T) {
	shareddata.Require(t)
	outFile := filepath.Join(t.TempDir(), "pages.jsonl")
	out, code := run(t, "eval", "extract", "cleaneval-zh", "--json", "--out", outFile)
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res struct {
		Dataset       string
		Pages         int
		F1, Precision float64
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		t.Fatalf("last line is not JSON: %v", err)
	}
	if res.Dataset != "cleaneval-zh" || res.Pages != 69 || res.F1 <= 0.5 {
		t.Errorf("result %+v", res)
	}
	per, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(per), "\n"); n != 69 {
		t.Errorf("%d per-page lines, want 69", n)
	}
}

// TestRunResume cuts a finished run's output at several points, as a kill
// would leave it (whole records, then part of one), and checks that
// --resume completes it to the same bytes; the run's description
// (full.jsonl.run.json) is what the killed run would have left.
func TestRunResume(t *testing.T) {
	data := shareddata.Require(t)
	inputs := []string{filepath.Join(data, "warc", "resiliparse", "warcfile.warc.gz"), filepath.Join(data, "warc", "pywb", "iana.warc.gz"), "../../fixtures/pages"}
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	if _, code := run(t, append([]string{"run", "--out", full}, inputs...)...); code != 0 {
		t.Fatalf("run: exit code %d", code)
	}
	want, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(want), "\n")
	for _, k := range []int{0, 1, 5, 19, len(lines) - 2} {
		part := filepath.Join(dir, "part.jsonl")
		cut := strings.Join(lines[:k], "") + lines[k][:len(lines[k])/2]
		if err := os.WriteFile(part, []byte(cut), 0o644); err != nil {
			t.Fatal(err)
		}
		desc, _ := os.ReadFile(full + ".run.json")
		os.WriteFile(part+".run.json", desc, 0o644)
		if _, code := run(t, append([]string{"run", "--out", part, "--resume"}, inputs...)...); code != 0 {
			t.Fatalf("resume after %d records: exit code %d", k, code)
		}
		got, _ := os.ReadFile(part)
		if string(got) != string(want) {
			t.Errorf("resume after %d records: output differs from an uninterrupted run", k)
		}
	}
}

func TestRunDedup(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	os.MkdirAll(pages, 0o755)
	src, _ := os.ReadFile("../../fixtures/pages/news-en.html")
	os.WriteFile(filepath.Join(pages, "a.html"), src, 0o644)
	os.WriteFile(filepath.Join(pages, "b.html"), src, 0o644) // the same page under another name
	other, _ := os.ReadFile("../../fixtures/pages/docs-page.html")
	os.WriteFile(filepath.Join(pages, "c.html"), other, 0o644)
	out := filepath.Join(dir, "out.jsonl")
	if _, code := run(t, "run", pages, "--out", out, "--dedup", "--method", "minhash"); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	recs := readJSONL(t, out)
	if len(recs) != 3 || recs[0]["canonical"] != true || recs[1]["canonical"] != false || recs[2]["canonical"] != true ||
		recs[1]["duplicate_of"] != recs[0]["url"] || recs[0]["status"] != "ok" {
		t.Errorf("records: %v", recs)
	}
}

func TestRunStdin(t *testing.T) {
	data := shareddata.Require(t)
	b, err := os.ReadFile(filepath.Join(data, "warc", "pywb", "iana.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(b); w.Close() }()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	out := filepath.Join(t.TempDir(), "out.jsonl")
	if _, code := run(t, "run", "-", "--out", out); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if n := len(readJSONL(t, out)); n != 20 {
		t.Errorf("%d records from standard input, want 20", n)
	}
}

// TestExtractSite learns the BBC section's template from its pages and
// marks the template blocks of one page in the debug view.
func TestExtractSite(t *testing.T) {
	dir := filepath.Join(shareddata.Require(t), "sites", "cleanportaleval", "bbc.co.uk_news", "input")
	page := filepath.Join(dir, "bbc.co.uk_news_01.html.gz")
	out, code := run(t, "extract", page, "--site", dir, "--format", "html")
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if n := strings.Count(out, `class="b boilerplate template"`); n < 20 {
		t.Errorf("%d template blocks marked", n)
	}
	js, _ := run(t, "extract", page, "--site", dir, "--format", "json")
	var rec struct{ Removed map[string]int }
	json.Unmarshal([]byte(js), &rec)
	if rec.Removed["template"] == 0 || rec.Removed["density"] == 0 {
		t.Errorf("removed %v", rec.Removed)
	}
}
