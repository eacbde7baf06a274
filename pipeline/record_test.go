package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/synth"
)

func TestRecordJSON(t *testing.T) {
	page := []byte(`<html><head><title>A &amp; B</title></head><body><nav><a href="/">Home</a> <a href="/x">X</a></nav>
<article><h1>A &amp; B</h1><p>Text with &lt;angle&gt; brackets &amp; an ampersand, long enough to be the article body of this page.</p></article></body></html>`)
	u, _ := url.Parse("https://www.example.org/a")
	p, err := extract.Extract(page, extract.Options{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteRecord(&buf, NewRecord(p, "page.html", RecordOptions{})); err != nil {
		t.Fatal(err)
	}
	line := buf.String()
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Fatalf("not one line: %q", line)
	}
	if !strings.Contains(line, "<angle> brackets & an ampersand") {
		t.Errorf("text was HTML-escaped: %s", line)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m["fetched_at"]; !ok || v != nil {
		t.Errorf("fetched_at = %v, want null", v)
	}
	if m["status"] != "ok" || m["site"] != "example.org" || m["url"] != "https://www.example.org/a" {
		t.Errorf("record %v", m)
	}
	if pt, _ := m["page_type"].(string); !slices.Contains(extract.PageTypes, extract.PageType(pt)) || m["page_type_evidence"] != nil {
		t.Errorf("page_type %v, evidence %v (only with blocks)", m["page_type"], m["page_type_evidence"])
	}
	if i, j := strings.Index(line, `"title"`), strings.Index(line, `"page_type"`); i < 0 || j < i {
		t.Errorf("page_type not after the title: %s", line)
	}
	if r, _ := m["boilerplate_ratio"].(float64); r <= 0 || r >= 1 {
		t.Errorf("boilerplate_ratio %v", m["boilerplate_ratio"])
	}
	if rm, _ := m["removed"].(map[string]any); rm["density"] == nil {
		t.Errorf("removed %v", m["removed"])
	}

	buf.Reset()
	if err := WriteRecord(&buf, ErrorRecord("https://x/", "f.warc.gz@123", errors.New("boom"))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"status":"error","error":"boom"`) {
		t.Errorf("error record %s", buf.String())
	}
}

// TestPageURL: a saved page's URL is a <base href> line put before the
// document, or its canonical link; a <base> inside the document is the
// site's (it may name the home page on every article) and is never taken.
func TestPageURL(t *testing.T) {
	for _, c := range []struct{ name, page, url string }{
		{"base-in-head", `<html><head><BASE HREF="http://a.example/x"></head>`, ""},
		{"canonical", `<html><head><link href="http://b.example/" rel=canonical></head>`, "http://b.example/"},
		{"none", `<html><head><title>none</title></head>`, ""},
		{"basefont-and-script", `<html><head><basefont size=3><script>var rel = "canonical";</script><LINK REL='Canonical' HREF='https://d.example/p'></head>`, "https://d.example/p"},
		{"site-base-and-canonical", `<html><head><base target=_top href=https://e.example/><link rel=canonical href=https://f.example/></head>`, "https://f.example/"},
		{"cut-tag", `<html><head><link rel=canonical`, ""},
		{"relative", `<html><head><base href="/"><link rel="canonical" href="/story/1"></head>`, ""},
		{"relative-base", `<html><head><base href="/"><link rel="canonical" href="https://c.example/s"></head>`, "https://c.example/s"},
		{"saver-line", "<base href=\"http://www.g.example/product/9780316125581\"/>\n<!DOCTYPE html><html><head><base href=\"http://www.g.example/\"></head>", "http://www.g.example/product/9780316125581"},
		{"saver-line-bom", "\xef\xbb\xbf<base href=\"http://h.example/p/1\"/>\n<html></html>", "http://h.example/p/1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pageURL([]byte(c.page)); got != c.url {
				t.Errorf("pageURL(%q) = %q, want %q", c.page, got, c.url)
			}
		})
	}
}

// TestIsHTMLByteOrderMark: a response without a Content-Type whose page
// starts with a UTF-8 byte-order mark is a page (DetectContentType alone
// calls it plain text).
func TestIsHTMLByteOrderMark(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		want bool
	}{
		{"bom-page", "\xef\xbb\xbf<base href=\"http://a.example/\"/>\n<!DOCTYPE html><html><body><p>x</p></body></html>", true},
		{"bom-plain-text", "\xef\xbb\xbfplain words, no markup", false},
		{"page", "<!DOCTYPE html><html></html>", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := isHTML("", []byte(c.body)); got != c.want {
				t.Errorf("isHTML(%.30q) = %v", c.body, got)
			}
		})
	}
}

// TestStrayBytesWarning: bytes skipped between WARC records (a record's
// Content-Length was short) are told on that record, not lost in silence.
func TestStrayBytesWarning(t *testing.T) {
	var buf bytes.Buffer
	synth.WriteRecord(&buf, "http://a.example/1", "text/html", []byte("<p>first page</p>"))
	buf.WriteString("stray\r\n\r\n")
	synth.WriteRecord(&buf, "http://a.example/2", "text/html", []byte("<p>second page</p>"))
	path := filepath.Join(t.TempDir(), "c.warc")
	os.WriteFile(path, buf.Bytes(), 0o644)
	var ins []Input
	if err := ReadInputs([]string{path}, func(in Input) error { ins = append(ins, in); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 || len(ins[1].Warnings) != 0 || len(ins[0].Warnings) != 1 || !strings.Contains(ins[0].Warnings[0], "9 stray bytes after the record at offset 0") {
		t.Fatalf("%d inputs; warnings %q", len(ins), func() (w [][]string) {
			for _, in := range ins {
				w = append(w, in.Warnings)
			}
			return
		}())
	}
}
