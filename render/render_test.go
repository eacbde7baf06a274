package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// browser is the one Chromium the tests share (TestMain).
var browser *Chromium

func TestMain(m *testing.M) {
	bin, err := FindChromium("")
	if err == nil {
		browser, err = NewChromium(bin, 2)
	}
	if err != nil {
		// The render tests need a browser; .ci/run installs one. Outside
		// CI they are reported and the run fails too: nothing is skipped.
		fmt.Fprintln(os.Stderr, "render tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	browser.Close()
	os.Exit(code)
}

func parse(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestRenderBoxes(t *testing.T) {
	doc := parse(t, `<html><head><style>.gone{display:none} .inv{visibility:hidden} .off{position:absolute;left:-9999px} .side{position:fixed;right:0;top:0;width:200px}</style></head>
<body><h1 style="font-size:40px">Title</h1><p id=main>Main text of the page.</p><div class=gone><p>Hidden paragraph</p></div>
<p class=inv>Invisible</p><p class=off>Off screen</p><div class=side>Fixed sidebar</div></body></html>`)
	raw, ids, err := Serialize(doc)
	if err != nil {
		t.Fatal(err)
	}
	l, err := browser.Render(context.Background(), "https://example.test/a", raw, NoResources{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byText := map[string]Box{}
	for n, id := range ids {
		if n.FirstChild != nil && n.FirstChild.Type == html.TextNode {
			byText[strings.TrimSpace(n.FirstChild.Data)] = l.Boxes[id]
		}
	}
	t.Logf("%+v", byText)
	if b := byText["Hidden paragraph"]; b.Rects != 0 {
		t.Errorf("display:none: %+v", b)
	}
	if b := byText["Title"]; b.FontSize != 40 || b.W == 0 {
		t.Errorf("title: %+v", b)
	}
	if b := byText["Invisible"]; b.Visibility != "hidden" {
		t.Errorf("visibility: %+v", b)
	}
	if b := byText["Off screen"]; b.X > -1000 {
		t.Errorf("off screen: %+v", b)
	}
	if b := byText["Fixed sidebar"]; b.Position != "fixed" {
		t.Errorf("fixed: %+v", b)
	}
	// The document, and perhaps a favicon the browser asks for (blocked).
	served := 0
	for _, r := range l.Requests {
		if r.Served {
			served++
			if r.Why != "document" {
				t.Errorf("served %+v", r)
			}
		}
	}
	if served != 1 {
		t.Errorf("requests %+v", l.Requests)
	}
}

// mapResources serves fixed bodies by URL.
type mapResources map[string]string

func (m mapResources) Resource(u string) ([]byte, string, bool) {
	b, ok := m[u]
	if !ok {
		return nil, "", false
	}
	ctype := "text/css"
	if strings.HasSuffix(u, ".png") {
		ctype = "image/png"
	}
	return []byte(b), ctype, true
}

// TestNoRequestLeaves: a page that reaches for a real server on 127.0.0.1
// through an image, an @import, a web font, fetch(), an iframe, a script
// and a link prefetch gets none of them through, with scripts on and
// off: the server sees no request, and every request the page made is
// logged as served (the document, the stylesheet in the resources) or
// blocked.
func TestNoRequestLeaves(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		w.Write([]byte("x"))
	}))
	defer srv.Close()
	page := `<html><head>
<link rel=stylesheet href="https://site.test/own.css">
<style>@import url("` + srv.URL + `/import.css");
@font-face { font-family: F; src: url("` + srv.URL + `/font.woff2"); }
body { font-family: F; background: url("` + srv.URL + `/bg.png"); }</style>
<link rel=prefetch href="` + srv.URL + `/prefetch">
<script src="` + srv.URL + `/script.js"></script>
</head><body><p>Text in the font.</p>
<img src="` + srv.URL + `/img.png">
<iframe src="` + srv.URL + `/frame.html"></iframe>
<script>fetch("` + srv.URL + `/fetch"); new Image().src = "` + srv.URL + `/js-img.png";</script>
</body></html>`
	res := mapResources{"https://site.test/own.css": "p { color: red }"}
	for _, js := range []bool{false, true} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			raw, _, err := Serialize(parse(t, page))
			if err != nil {
				t.Fatal(err)
			}
			l, err := browser.Render(context.Background(), "https://site.test/page", raw, res, Options{JS: js})
			if err != nil {
				t.Fatal(err)
			}
			served, blocked := 0, 0
			for _, r := range l.Requests {
				switch {
				case r.Served:
					served++
				case strings.HasPrefix(r.Why, "blocked"):
					blocked++
				default:
					t.Errorf("request neither served nor blocked: %+v", r)
				}
			}
			t.Logf("js=%v: %d served, %d blocked: %+v", js, served, blocked, l.Requests)
			if served != 2 || blocked < 4 {
				t.Errorf("js=%v: %d served, %d blocked", js, served, blocked)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 0 {
		t.Errorf("the test server saw %d requests: %v", len(seen), seen)
	}
}

// scrapinghubPages loads the Scrapinghub pages (parsed, with their
// URLs), read straight from the data folder: package evaluate imports
// pipeline, which imports render.
func scrapinghubPages(tb testing.TB) []*extract.Page {
	tb.Helper()
	dir := filepath.Join(shareddata.Require(tb), "extract", "scrapinghub")
	raw, err := os.ReadFile(filepath.Join(dir, "ground-truth.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var truth map[string]struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		tb.Fatal(err)
	}
	ids := make([]string, 0, len(truth))
	for id := range truth {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var pages []*extract.Page
	for _, id := range ids {
		body, err := gz.ReadFile(filepath.Join(dir, "html", id+".html.gz"))
		if err != nil {
			tb.Fatal(err)
		}
		u, _ := url.Parse(truth[id].URL)
		pg, err := extract.Parse(body, extract.Options{URL: u})
		if err != nil {
			continue
		}
		pages = append(pages, pg)
	}
	return pages
}

// groupRSS is the resident memory of the browser's process group, in
// bytes.
func groupRSS(pid int) int64 {
	var total int64
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 22 || f[2] != strconv.Itoa(pid) {
			continue
		}
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		total += pages * int64(os.Getpagesize())
	}
	return total
}

// TestRender200 renders 200 real pages (the Scrapinghub set, offline, and
// again from the start) in one browser: the browser's memory after the
// last 50 is not much above its memory after the first 50.
func TestRender200(t *testing.T) {
	pages := scrapinghubPages(t)
	var after50 int64
	for i := range 200 {
		p := pages[i%len(pages)]
		raw, _, err := Serialize(p.Doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := browser.Render(context.Background(), p.URL.String(), raw, NoResources{}, Options{}); err != nil {
			t.Errorf("page %d: %v", i, err)
		}
		switch i {
		case 49:
			after50 = groupRSS(browser.PID())
		case 199:
			end := groupRSS(browser.PID())
			t.Logf("browser RSS after 50 pages %d MB, after 200 %d MB", after50>>20, end>>20)
			if after50 == 0 || float64(end) > 1.5*float64(after50) {
				t.Errorf("browser memory grew from %d to %d MB", after50>>20, end>>20)
			}
		}
	}
}

// BenchmarkRender renders the Scrapinghub pages offline, one at a time;
// an op is one page.
func BenchmarkRender(b *testing.B) {
	pages := scrapinghubPages(b)
	i := 0
	for b.Loop() {
		p := pages[i%len(pages)]
		i++
		raw, _, err := Serialize(p.Doc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := browser.Render(context.Background(), p.URL.String(), raw, NoResources{}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// slowResources never answers within the test.
type slowResources struct{ release chan struct{} }

func (s slowResources) Resource(string) ([]byte, string, bool) {
	<-s.release
	return nil, "", false
}

// TestHungAndCrashedBrowser: a page that never finishes loading fails
// within its time budget and the next page renders; a browser killed
// under the renderer makes one page fail, is started again, and the next
// page renders.
func TestHungAndCrashedBrowser(t *testing.T) {
	bin, err := FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	br, err := NewChromium(bin, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	raw, _, _ := Serialize(parse(t, `<html><body><p>Text</p><img src="https://site.test/slow.png"></body></html>`))
	res := slowResources{make(chan struct{})}
	defer close(res.release)
	start := time.Now()
	if _, err := br.Render(context.Background(), "https://site.test/", raw, res, Options{Timeout: 2 * time.Second}); err == nil {
		t.Error("a page that never loads rendered")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the hung page took %v", d)
	}
	plain, _, _ := Serialize(parse(t, `<html><body><p>Text</p></body></html>`))
	if _, err := br.Render(context.Background(), "https://site.test/b", plain, NoResources{}, Options{}); err != nil {
		t.Fatalf("after a hung page: %v", err)
	}
	pid := br.PID()
	syscall.Kill(-pid, syscall.SIGKILL)
	time.Sleep(300 * time.Millisecond)
	if _, err := br.Render(context.Background(), "https://site.test/c", plain, NoResources{}, Options{Timeout: 5 * time.Second}); err == nil {
		t.Error("a page rendered on a killed browser")
	}
	if _, err := br.Render(context.Background(), "https://site.test/d", plain, NoResources{}, Options{}); err != nil {
		t.Fatalf("after a crash: %v", err)
	}
	if br.PID() == pid || br.PID() == 0 {
		t.Errorf("browser pid %d after a restart (was %d)", br.PID(), pid)
	}
}
