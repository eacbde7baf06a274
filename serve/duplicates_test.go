package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/winnow-go/winnow/dedup"
)

// words is a text of n words that depends on seed alone; texts of two
// seeds share no 3-word shingle.
func words(seed, n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "w%dx%d ", seed, (i*7919+seed*31)%1000)
	}
	return sb.String()
}

func dupAnswer(t *testing.T, a answer) DuplicatesAnswer {
	t.Helper()
	var d DuplicatesAnswer
	if a.code != 200 {
		t.Fatalf("got %d %s", a.code, a.body)
	}
	if err := json.Unmarshal(a.body, &d); err != nil {
		t.Fatalf("%v: %s", err, a.body)
	}
	return d
}

func TestDuplicates(t *testing.T) {
	for _, method := range []dedup.Method{dedup.MethodMinHash, dedup.MethodSimHash} {
		t.Run(method.String(), func(t *testing.T) {
			srv, ts := start(t, Config{IndexDir: t.TempDir(), IndexOptions: &dedup.StoreOptions{Method: method}})
			dup := ts.URL + "/v1/duplicates"
			text := words(1, 300)
			near := strings.Replace(text, "w1x", "w1y", 1) // one word changed
			rec, _ := json.Marshal(map[string]any{"url": "https://b.example/copy", "text": near, "status": "ok"})
			page := fmt.Sprintf("<html><body><article><p>%s</p></article></body></html>", text)
			cases := []struct {
				name, url, ctype, body string
				matches                []string
				added                  bool
			}{
				{"text, empty index", dup + "?url=https://a.example/1", "text/plain", text, nil, false},
				{"text, add", dup + "?add=true&url=https://a.example/1", "text/plain", text, nil, true},
				{"record", dup, "application/json", string(rec), []string{"https://a.example/1"}, false},
				{"html page", dup + "?url=https://c.example/page", "text/html", page, []string{"https://a.example/1"}, false},
				{"json page", dup, "application/json", string(pageJSON("https://c.example/page", []byte(page))), []string{"https://a.example/1"}, false},
				{"unrelated, add", dup + "?add=true&url=https://d.example/", "text/plain", words(2, 300), nil, true},
				{"same URL again, add", dup + "?add=true&url=https://a.example/1", "text/plain", text, []string{"https://a.example/1"}, true},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					d := dupAnswer(t, do(t, "POST", c.url, c.ctype, []byte(c.body)))
					var got []string
					for _, m := range d.Duplicates {
						got = append(got, m.URL)
						if m.Similarity < 0.8 || !m.Verified {
							t.Errorf("match %+v: want a verified similarity >= 0.8", m)
						}
						if (m.Distance != nil) != (method == dedup.MethodSimHash) {
							t.Errorf("match %+v: distance only for SimHash", m)
						}
					}
					if fmt.Sprint(got) != fmt.Sprint(c.matches) || d.Added != c.added {
						t.Errorf("matches %v added %v, want %v %v", got, d.Added, c.matches, c.added)
					}
				})
			}
			if n := srv.docs.Load(); n != 2 {
				t.Errorf("index documents %d, want 2", n)
			}
			jsonError(t, do(t, "POST", dup+"?url=https://e.example/", "text/plain", []byte("  ...  ")), http.StatusUnprocessableEntity)
		})
	}
}

func TestDuplicatesNoIndex(t *testing.T) {
	_, ts := start(t, Config{})
	jsonError(t, do(t, "POST", ts.URL+"/v1/duplicates?url=https://a.example/", "text/plain", []byte("some words")), http.StatusNotImplemented)
}

// TestDuplicatesConcurrentAdds: adds of one URL from many clients at once
// leave one document, and each add after the first sees the URL's entry.
func TestDuplicatesConcurrentAdds(t *testing.T) {
	srv, ts := start(t, Config{IndexDir: t.TempDir(), MaxInflight: 64})
	var wg sync.WaitGroup
	var mu sync.Mutex
	firsts := 0
	for i := range 16 {
		wg.Go(func() {
			u := fmt.Sprintf("https://a.example/%d", i%2)
			d := dupAnswer(t, do(t, "POST", ts.URL+"/v1/duplicates?add=true&url="+u, "text/plain", []byte(words(i%2, 200))))
			if len(d.Duplicates) == 0 {
				mu.Lock()
				firsts++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if n := srv.docs.Load(); n != 2 || firsts != 2 {
		t.Errorf("%d documents, %d adds saw no entry of their URL; want 2 and 2", n, firsts)
	}
}

func TestBatch(t *testing.T) {
	_, ts := start(t, Config{})
	news, forum := fixture(t, "news-en.html"), fixture(t, "forum-thread.html")
	var in bytes.Buffer
	in.Write(pageJSON("https://a.example/news", news))
	in.WriteString("\n\nnot json\n")
	in.WriteString(`{"url":"https://a.example/none"}` + "\n")
	in.Write(pageJSON("https://b.example/forum", forum))
	in.WriteString("\n")
	a := do(t, "POST", ts.URL+"/v1/batch", "application/x-ndjson", in.Bytes())
	if a.code != 200 || a.header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("got %d %s", a.code, a.body)
	}
	lines := strings.Split(strings.TrimSuffix(string(a.body), "\n"), "\n")
	want := []struct{ source, status string }{{"batch:1", "ok"}, {"batch:3", "error"}, {"batch:4", "error"}, {"batch:5", "ok"}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), a.body)
	}
	for i, w := range want {
		var r struct{ Source, Status, URL string }
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil || r.Source != w.source || r.Status != w.status {
			t.Errorf("line %d: %s; want source %s status %s", i, lines[i], w.source, w.status)
		}
	}
	// An ok line is the record /v1/extract answers for the page.
	for i, p := range map[int][]byte{0: pageJSON("https://a.example/news", news), 3: pageJSON("https://b.example/forum", forum)} {
		one := do(t, "POST", ts.URL+"/v1/extract", "application/json", p)
		if got, want := withoutSource(t, []byte(lines[i])), withoutSource(t, one.body); got != want {
			t.Errorf("line %d:\n%s\n/v1/extract:\n%s", i, got, want)
		}
	}
}
