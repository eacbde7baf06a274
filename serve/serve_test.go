package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// fixture reads a page of fixtures/pages.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "fixtures", "pages", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// start runs a Server for cfg on an httptest server with the Server's
// own http.Server settings (timeouts).
func start(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Config = srv.HTTPServer("")
	ts.Start()
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	return srv, ts
}

type answer struct {
	code   int
	header http.Header
	body   []byte
}

// do sends one request; header holds extra headers.
func do(t *testing.T, method, u, contentType string, body []byte, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, b}
}

// jsonError checks that an answer is a JSON error with the code.
func jsonError(t *testing.T, a answer, code int) {
	t.Helper()
	var e errorBody
	if a.code != code || json.Unmarshal(a.body, &e) != nil || e.Error == "" || e.RequestID == "" {
		t.Errorf("got %d %q, want %d with a JSON error", a.code, a.body, code)
	}
}

func pageJSON(u string, html []byte) []byte {
	b, _ := json.Marshal(map[string]string{"url": u, "html": string(html)})
	return b
}

func TestExtract(t *testing.T) {
	_, ts := start(t, Config{})
	news := fixture(t, "news-en.html")
	const pu = "https://news.example/2026/harbour"
	ex := ts.URL + "/v1/extract"
	cases := []struct {
		name, url, ctype string
		body             []byte
		header           []string
		code             int
		check            func(t *testing.T, a answer)
	}{
		{"raw with url parameter", ex + "?url=" + url.QueryEscape(pu), "text/html", news, nil, 200, wantRecord(pu, "ok")},
		{"raw with header", ex, "text/html", news, []string{"X-Winnow-URL", pu}, 200, wantRecord(pu, "ok")},
		{"json", ex, "application/json", pageJSON(pu, news), nil, 200, wantRecord(pu, "ok")},
		{"text", ex + "?format=text&url=" + url.QueryEscape(pu), "text/html", news, nil, 200, func(t *testing.T, a answer) {
			if !strings.HasPrefix(string(a.body), "Harbour town opens its first tidal power station\n\n") {
				t.Errorf("text %.80q", a.body)
			}
		}},
		{"markdown", ex + "?format=markdown&url=" + url.QueryEscape(pu), "text/html", news, nil, 200, func(t *testing.T, a answer) {
			if !strings.HasPrefix(string(a.body), "---\ntitle: Harbour town") || !strings.Contains(string(a.body), "\n# Harbour town") {
				t.Errorf("markdown %.200q", a.body)
			}
		}},
		{"blocks", ex + "?blocks=true&url=" + url.QueryEscape(pu), "text/html", news, nil, 200, func(t *testing.T, a answer) {
			var r struct{ Blocks []json.RawMessage }
			if json.Unmarshal(a.body, &r) != nil || len(r.Blocks) == 0 {
				t.Errorf("no blocks in %.200q", a.body)
			}
		}},
		{"not HTML is an error record", ex + "?url=" + url.QueryEscape(pu), "application/octet-stream", []byte("\x00\x01\x02\x03 binary"), nil, 200, wantRecord(pu, "error")},
		{"not HTML as text", ex + "?format=text&url=" + url.QueryEscape(pu), "application/octet-stream", []byte("\x00\x01\x02\x03"), nil, 422, nil},
		{"no url", ex, "text/html", news, nil, 400, nil},
		{"empty body", ex + "?url=" + url.QueryEscape(pu), "text/html", nil, nil, 400, nil},
		{"bad format", ex + "?format=pdf&url=" + url.QueryEscape(pu), "text/html", news, nil, 400, nil},
		{"bad blocks", ex + "?blocks=maybe&url=" + url.QueryEscape(pu), "text/html", news, nil, 400, nil},
		{"GET", ex, "", nil, nil, 405, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := http.MethodPost
			if c.name == "GET" {
				method = http.MethodGet
			}
			a := do(t, method, c.url, c.ctype, c.body, c.header...)
			if c.code != 200 {
				jsonError(t, a, c.code)
				return
			}
			if a.code != 200 {
				t.Fatalf("got %d %s", a.code, a.body)
			}
			c.check(t, a)
		})
	}
}

func wantRecord(u, status string) func(t *testing.T, a answer) {
	return func(t *testing.T, a answer) {
		t.Helper()
		var r pipeline.Record
		if err := json.Unmarshal(a.body, &r); err != nil {
			t.Fatalf("%v: %.200q", err, a.body)
		}
		if r.URL != u || r.Status != status || status == "ok" && r.Text == "" {
			t.Errorf("record url %q status %q text %.40q, want %q %q", r.URL, r.Status, r.Text, u, status)
		}
	}
}

// TestMalformed: a body that cannot be read as asked is a 400 with a JSON
// error, never a 500.
func TestMalformed(t *testing.T) {
	_, ts := start(t, Config{IndexDir: t.TempDir()})
	cases := []struct {
		name, path, ctype, body string
	}{
		{"extract: not JSON", "/v1/extract", "application/json", `{"url": "https://a.example/", "html": `},
		{"extract: JSON array", "/v1/extract", "application/json", `[1, 2]`},
		{"extract: JSON null", "/v1/extract", "application/json", `null`},
		{"extract: html not a string", "/v1/extract", "application/json", `{"url": "https://a.example/", "html": 5}`},
		{"extract: no url", "/v1/extract", "application/json", `{"html": "<p>x</p>"}`},
		{"extract: url alone, no fetching", "/v1/extract", "application/json", `{"url": "https://a.example/"}`},
		{"extract: bad url", "/v1/extract?url=%3A%2F%2Fnope", "text/html", `<p>page</p>`},
		{"duplicates: not JSON", "/v1/duplicates", "application/json", `{"url"`},
		{"duplicates: no url", "/v1/duplicates", "application/json", `{"text": "a b c"}`},
		{"duplicates: neither text nor html", "/v1/duplicates", "application/json", `{"url": "https://a.example/"}`},
		{"duplicates: text without url", "/v1/duplicates", "text/plain", `some words here`},
		{"duplicates: bad add", "/v1/duplicates?add=yes%21&url=https://a.example/", "text/plain", `some words here`},
		{"batch: bad format", "/v1/batch?format=text", "application/x-ndjson", `{}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			jsonError(t, do(t, http.MethodPost, ts.URL+c.path, c.ctype, []byte(c.body)), http.StatusBadRequest)
		})
	}
}

// runRecords runs pipeline.Run as winnow run does over one input and
// returns its records by URL, without their source (a run's is its
// file and line).
func runRecords(t *testing.T, input string, opts pipeline.Options) map[string]string {
	t.Helper()
	var out bytes.Buffer
	if _, err := pipeline.Run(context.Background(), []string{input}, &out, opts); err != nil {
		t.Fatal(err)
	}
	recs := map[string]string{}
	for line := range strings.Lines(out.String()) {
		var r map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		var u string
		json.Unmarshal(r["url"], &u)
		recs[u] = withoutSource(t, []byte(line))
	}
	return recs
}

// withoutSource is a record line with its source field removed, its
// keys in sorted order.
func withoutSource(t *testing.T, line []byte) string {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		t.Fatalf("%v: %.200q", err, line)
	}
	delete(raw, "source")
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSameAsRun: the answer of /v1/extract is the record winnow run
// writes for the page (but for its source), with site rules, and with the
// site template a run saved for the page's group.
func TestSameAsRun(t *testing.T) {
	rules, err := xpathrules.Load(filepath.Join("..", "xpathrules", "testdata", "news.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// Pages on their own: one per host, so that the run learns no template.
	var lines bytes.Buffer
	for i, name := range []string{"news-en.html", "docs-page.html", "forum-thread.html", "product-page.html", "novosti-ru-cp1251.html", "xinwen-zh-gbk.html"} {
		u := fmt.Sprintf("https://site%d.example/a/b/page-%d.html", i, i)
		if i == 0 {
			u = "https://www.example.com/news/uk-1" // a host the rules cover
		}
		lines.Write(pageJSON(u, fixture(t, name)))
		lines.WriteByte('\n')
	}
	alone := filepath.Join(dir, "alone.jsonl")
	os.WriteFile(alone, lines.Bytes(), 0o644)
	// A site: 3 pages of 3 hosts, each with its menu and footer, so that
	// the run learns and saves a template per host.
	site := filepath.Join(dir, "site.jsonl")
	os.WriteFile(site, sitePages(t, 3, 3), 0o644)
	tpl := filepath.Join(dir, "templates")

	stages := pipeline.Stages{Rules: rules}
	want := runRecords(t, alone, pipeline.Options{Stages: stages})
	for u, r := range runRecords(t, site, pipeline.Options{Stages: stages, TemplatesDir: tpl}) {
		want[u] = r
	}
	srv, ts := start(t, Config{Stages: stages, TemplatesDir: tpl})
	if srv.saved.Load().Len() != 3 {
		t.Fatalf("%d templates loaded, want 3", srv.saved.Load().Len())
	}
	for _, input := range []string{alone, site} {
		err := pipeline.ReadInputs([]string{input}, func(in pipeline.Input) error {
			t.Run(in.URL, func(t *testing.T) {
				a := do(t, http.MethodPost, ts.URL+"/v1/extract?url="+url.QueryEscape(in.URL), "", in.Body)
				got := withoutSource(t, a.body)
				if got != want[in.URL] {
					t.Errorf("serve:\n%s\nrun:\n%s", got, want[in.URL])
				}
				if input != site {
					return
				}
				a = do(t, http.MethodPost, ts.URL+"/v1/extract?blocks=true&url="+url.QueryEscape(in.URL), "", in.Body)
				if !bytes.Contains(a.body, []byte(`"stage":"`+infholder.Stage+`"`)) {
					t.Errorf("the saved template did not label a block: %.300s", a.body)
				}
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestTemplateFit: a page of a group with a saved template that does not
// fit the template (a new layout) is labelled without it.
func TestTemplateFit(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site.jsonl")
	os.WriteFile(site, sitePages(t, 1, 3), 0o644)
	tpl := filepath.Join(dir, "templates")
	runRecords(t, site, pipeline.Options{TemplatesDir: tpl})
	_, ts := start(t, Config{TemplatesDir: tpl})
	// The new layout keeps the old footer alone: a third of the
	// template's blocks.
	page := strings.Replace(string(fixture(t, "news-en.html")), "</body>", siteFooter(0)+"</body>", 1)
	a := do(t, http.MethodPost, ts.URL+"/v1/extract?blocks=true&url="+url.QueryEscape("https://host0.example/news/redesign.html"), "text/html", []byte(page))
	if a.code != 200 || !bytes.Contains(a.body, []byte(`"group":"host0.example/news/"`)) {
		t.Fatalf("got %d %.300s", a.code, a.body)
	}
	if bytes.Contains(a.body, []byte(`"stage":"`+infholder.Stage+`"`)) {
		t.Errorf("the template labelled a page that does not fit it")
	}
}

// TestReloadTemplates: templates saved after the start are in force
// after ReloadTemplates; a folder gone keeps those in force.
func TestReloadTemplates(t *testing.T) {
	dir := t.TempDir()
	tpl := filepath.Join(dir, "templates")
	os.Mkdir(tpl, 0o755)
	srv, ts := start(t, Config{TemplatesDir: tpl})
	page := "https://host0.example/news/story-1.html"
	group := func() string {
		var r struct{ Group string }
		a := do(t, http.MethodPost, ts.URL+"/v1/extract?url="+url.QueryEscape(page), "text/html", fixture(t, "news-en.html"))
		json.Unmarshal(a.body, &r)
		return r.Group
	}
	if g := group(); g != "host0.example/" || srv.Templates() != 0 {
		t.Fatalf("group %q, %d templates before", g, srv.Templates())
	}
	site := filepath.Join(dir, "site.jsonl")
	os.WriteFile(site, sitePages(t, 1, 3), 0o644)
	runRecords(t, site, pipeline.Options{TemplatesDir: tpl})
	if err := srv.ReloadTemplates(); err != nil {
		t.Fatal(err)
	}
	if g := group(); g != "host0.example/news/" || srv.Templates() != 1 {
		t.Errorf("group %q, %d templates after", g, srv.Templates())
	}
	os.RemoveAll(tpl)
	if err := srv.ReloadTemplates(); err == nil || srv.Templates() != 1 {
		t.Errorf("reloading a folder gone: %v, %d templates", err, srv.Templates())
	}
}

// sitePages is a JSONL of pages of hosts sites, n each, with a per-host
// menu and footer around a text of their own.
func sitePages(t *testing.T, sites, n int) []byte {
	var b bytes.Buffer
	for s := range sites {
		for i := range n {
			var text strings.Builder
			for p := range 4 {
				fmt.Fprintf(&text, "<p>Paragraph %d of story %d on site %d tells of the harbour, the ferry, the market and the weather of week %d, in words that no other page of the site repeats: %s.</p>", p, i, s, i*7+p, strings.Repeat(fmt.Sprintf("word%d%d%d ", s, i, p), 3))
			}
			page := fmt.Sprintf(`<html><head><title>Story %d</title></head><body><div class="menu"><p>The Daily Harbour of site %d: news of the town and the coast since 1921, every morning.</p><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather and tides</a></li><li><a href="/opinion">Opinion</a></li></ul></div><article><h1>Story %d of site %d</h1>%s</article>%s</body></html>`, i, s, i, s, text.String(), siteFooter(s))
			b.Write(pageJSON(fmt.Sprintf("https://host%d.example/news/story-%d.html", s, i), []byte(page)))
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func siteFooter(site int) string {
	return fmt.Sprintf(`<div class="footer"><p>Copyright site %d, all rights reserved. Letters to the editor go to the harbour office, open on weekdays.</p><p>Subscribe to the morning edition and get the tide tables of the whole month with it.</p><p><a href="/about">About us</a> <a href="/contact">Contact</a> <a href="/privacy">Privacy</a></p></div>`, site)
}
