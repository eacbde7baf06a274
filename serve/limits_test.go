package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

const testToken = "s3cret-token-do-not-log"

func TestToken(t *testing.T) {
	_, ts := start(t, Config{Token: testToken})
	page := fixture(t, "news-en.html")
	ex := ts.URL + "/v1/extract?url=https://a.example/x"
	cases := []struct {
		name, method, url string
		header            []string
		code              int
	}{
		{"no token", "POST", ex, nil, 401},
		{"wrong token", "POST", ex, []string{"Authorization", "Bearer nope"}, 401},
		{"not bearer", "POST", ex, []string{"Authorization", "Basic " + testToken}, 401},
		{"token", "POST", ex, []string{"Authorization", "Bearer " + testToken}, 200},
		{"metrics without token", "GET", ts.URL + "/metrics", nil, 401},
		{"openapi without token", "GET", ts.URL + "/openapi.json", nil, 401},
		{"unknown route without token", "GET", ts.URL + "/nope", nil, 401},
		{"healthz needs none", "GET", ts.URL + "/healthz", nil, 200},
		{"readyz needs none", "GET", ts.URL + "/readyz", nil, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body []byte
			if c.method == "POST" {
				body = page
			}
			a := do(t, c.method, c.url, "text/html", body, c.header...)
			if c.code == 401 {
				jsonError(t, a, 401)
				if a.header.Get("WWW-Authenticate") == "" {
					t.Error("no WWW-Authenticate")
				}
			} else if a.code != c.code {
				t.Errorf("got %d %s, want %d", a.code, a.body, c.code)
			}
		})
	}
}

// TestBodyLimit: a body over the limit is 413 before any other check but
// the token, whether its length is declared or it is sent chunked.
func TestBodyLimit(t *testing.T) {
	_, ts := start(t, Config{Token: testToken, MaxBodyBytes: 1000, MaxBatchBytes: 3000, IndexDir: t.TempDir()})
	auth := []string{"Authorization", "Bearer " + testToken}
	big := bytes.Repeat([]byte("<p>words </p>"), 200)
	cases := []struct {
		name, path, ctype string
		body              []byte
		chunked           bool
		header            []string
		code              int
	}{
		{"extract", "/v1/extract?url=https://a.example/", "text/html", big, false, auth, 413},
		{"extract chunked", "/v1/extract?url=https://a.example/", "text/html", big, true, auth, 413},
		{"before the method", "/v1/extract", "text/html", big, false, auth, 413},
		{"before the format", "/v1/extract?format=pdf", "text/html", big, false, auth, 413},
		{"after the token", "/v1/extract?url=https://a.example/", "text/html", big, false, nil, 401},
		{"duplicates", "/v1/duplicates?url=https://a.example/", "text/plain", big, true, auth, 413},
		{"batch", "/v1/batch", "application/x-ndjson", bytes.Repeat(big, 2), false, auth, 413},
		{"batch chunked", "/v1/batch", "application/x-ndjson", bytes.Repeat(big, 2), true, auth, 413},
		{"a body on a GET route", "/healthz", "text/plain", []byte("x"), false, nil, 413},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r io.Reader = bytes.NewReader(c.body)
			if c.chunked {
				r = io.MultiReader(r) // no length: sent chunked
			}
			method := "POST"
			if c.path == "/healthz" {
				method = "GET"
			}
			req, _ := http.NewRequest(method, ts.URL+c.path, r)
			req.Header.Set("Content-Type", c.ctype)
			for i := 0; i+1 < len(c.header); i += 2 {
				req.Header.Set(c.header[i], c.header[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			jsonError(t, answer{resp.StatusCode, resp.Header, b}, c.code)
		})
	}
}

// holdBatch starts a batch whose body does not end until release is
// called.
func holdBatch(t *testing.T, u string) (release func()) {
	t.Helper()
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", u+"/v1/batch", pr)
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	pw.Write([]byte(`{"url":"https://a.example/","html":"<p>held</p>"}` + "\n"))
	time.Sleep(200 * time.Millisecond)
	return func() {
		pw.Close()
		<-done
	}
}

// holdSlot takes a worker slot through a request to a test route that
// waits until release is called.
func holdSlot(t *testing.T, srv *Server, u string) (release func()) {
	t.Helper()
	taken, free := make(chan struct{}), make(chan struct{})
	srv.routes["/v1/hold"] = route{name: "hold", method: "GET", handle: func(w http.ResponseWriter, r *http.Request) {
		rel, ok := srv.acquire(w, r)
		close(taken)
		if ok {
			<-free
			rel()
		}
	}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.Get(u + "/v1/hold"); err == nil {
			resp.Body.Close()
		}
	}()
	<-taken
	return func() {
		close(free)
		<-done
	}
}

// TestOverload: past MaxInflight requests, with no waiting room, the
// answer is 503 with Retry-After, at once; a batch too.
func TestOverload(t *testing.T) {
	srv, ts := start(t, Config{MaxInflight: 1, MaxQueue: -1})
	release := holdSlot(t, srv, ts.URL)
	page := fixture(t, "news-en.html")
	for _, c := range []struct {
		path, ctype string
		body        []byte
	}{
		{"/v1/extract?url=https://a.example/", "text/html", page},
		{"/v1/batch", "application/x-ndjson", pageJSON("https://a.example/", page)},
	} {
		begin := time.Now()
		a := do(t, "POST", ts.URL+c.path, c.ctype, c.body)
		jsonError(t, a, http.StatusServiceUnavailable)
		if a.header.Get("Retry-After") == "" {
			t.Error("503 without Retry-After")
		}
		if d := time.Since(begin); d > time.Second {
			t.Errorf("the 503 took %v", d)
		}
	}
	release()
	if a := do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/", "text/html", page); a.code != 200 {
		t.Errorf("after the slot is free: %d %s", a.code, a.body)
	}
}

// TestWaitingRoom: past MaxInflight requests, MaxQueue more wait for a
// worker and are answered when one is free; past those a request is
// refused at once, and one that waits longer than QueueTimeout is
// refused then.
func TestWaitingRoom(t *testing.T) {
	srv, ts := start(t, Config{MaxInflight: 1, MaxQueue: 1, QueueTimeout: time.Minute})
	release := holdSlot(t, srv, ts.URL)
	page := fixture(t, "news-en.html")
	waited := make(chan answer)
	go func() { waited <- do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/", "text/html", page) }()
	for srv.waiting.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	begin := time.Now()
	a := do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/b", "text/html", page)
	jsonError(t, a, http.StatusServiceUnavailable)
	if d := time.Since(begin); d > time.Second {
		t.Errorf("the 503 with the room full took %v", d)
	}
	select {
	case a := <-waited:
		t.Fatalf("the waiting request was answered (%d) while the worker was busy", a.code)
	case <-time.After(200 * time.Millisecond):
	}
	release()
	if a := <-waited; a.code != 200 {
		t.Errorf("the waiting request, once the worker was free: %d %s", a.code, a.body)
	}
	if n := srv.waiting.Load(); n != 0 {
		t.Errorf("%d still waiting", n)
	}

	srv, ts = start(t, Config{MaxInflight: 1, MaxQueue: 1, QueueTimeout: 300 * time.Millisecond})
	release = holdSlot(t, srv, ts.URL)
	defer release()
	begin = time.Now()
	a = do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/", "text/html", page)
	jsonError(t, a, http.StatusServiceUnavailable)
	if d := time.Since(begin); d < 300*time.Millisecond || d > 5*time.Second {
		t.Errorf("a request that waited past the queue timeout was refused after %v", d)
	}
}

// TestSlowBatch: a batch whose client is slow to send its next line
// holds no worker slot meanwhile.
func TestSlowBatch(t *testing.T) {
	_, ts := start(t, Config{MaxInflight: 1})
	release := holdBatch(t, ts.URL)
	defer release()
	for i := range 3 {
		if a := do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/", "text/html", fixture(t, "news-en.html")); a.code != 200 {
			t.Errorf("request %d beside an open batch: %d %s", i, a.code, a.body)
		}
	}
}

// TestSlowClients: clients that send their headers or body slowly, and a
// body over the limit, do not keep a well-behaved client waiting, and the
// server cuts the slow ones at its timeouts.
func TestSlowClients(t *testing.T) {
	_, ts := start(t, Config{MaxInflight: 1, MaxBodyBytes: 1 << 16,
		ReadHeaderTimeout: 500 * time.Millisecond, ReadTimeout: time.Second})
	addr := ts.Listener.Addr().String()
	var wg sync.WaitGroup
	cut := make(chan string, 8)
	for i := range 4 {
		wg.Go(func() { // headers one byte at a time
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			head := "POST /v1/extract?url=https://a.example/ HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\n"
			for j := range len(head) {
				if _, err := c.Write([]byte{head[j]}); err != nil {
					cut <- fmt.Sprintf("header loris %d cut after %d bytes", i, j)
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
		wg.Go(func() { // a body one byte at a time
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /v1/extract?url=https://a.example/ HTTP/1.1\r\nHost: x\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n")
			for j := range 5000 {
				if _, err := c.Write([]byte("x")); err != nil {
					cut <- fmt.Sprintf("body loris %d cut after %d bytes", i, j)
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	wg.Go(func() { // a body far over the limit, sent as fast as it goes
		a, err := http.Post(ts.URL+"/v1/extract?url=https://a.example/", "text/html", io.LimitReader(zeros{}, 64<<20))
		if err == nil {
			a.Body.Close()
		}
	})
	time.Sleep(300 * time.Millisecond)
	page := fixture(t, "news-en.html")
	for i := range 5 {
		begin := time.Now()
		a := do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/", "text/html", page)
		if a.code != 200 {
			t.Fatalf("request %d among slow clients: %d %s", i, a.code, a.body)
		}
		if d := time.Since(begin); d > 2*time.Second {
			t.Errorf("request %d among slow clients took %v", i, d)
		}
	}
	wg.Wait()
	close(cut)
	n := 0
	for range cut {
		n++
	}
	if n != 8 {
		t.Errorf("%d of 8 slow clients were cut by the server's timeouts", n)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestPanic: a panicking handler is a 500 with a JSON error and a log
// line; the server goes on answering.
func TestPanic(t *testing.T) {
	var logs syncBuffer
	srv, ts := start(t, Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	srv.routes["/v1/panic"] = route{name: "panic", method: "GET", handle: func(http.ResponseWriter, *http.Request) {
		panic("boom")
	}}
	jsonError(t, do(t, "GET", ts.URL+"/v1/panic", "", nil), 500)
	if a := do(t, "GET", ts.URL+"/healthz", "", nil); a.code != 200 {
		t.Errorf("after the panic: %d", a.code)
	}
	if !strings.Contains(logs.String(), `"msg":"panic"`) || !strings.Contains(logs.String(), "boom") {
		t.Errorf("no panic log line:\n%s", logs.String())
	}
}

// TestTokenNotLogged: neither the token nor a wrong one reaches the log,
// whatever route or answer.
func TestTokenNotLogged(t *testing.T) {
	var logs syncBuffer
	_, ts := start(t, Config{Token: testToken, Logger: slog.New(slog.NewJSONHandler(&logs, nil)), IndexDir: t.TempDir()})
	wrong := "wrong-token-also-secret"
	for _, tok := range []string{testToken, wrong} {
		h := []string{"Authorization", "Bearer " + tok, "X-Winnow-URL", "https://a.example/"}
		do(t, "POST", ts.URL+"/v1/extract", "text/html", fixture(t, "news-en.html"), h...)
		do(t, "POST", ts.URL+"/v1/extract?token="+tok, "application/json", []byte("{"), h...)
		do(t, "POST", ts.URL+"/v1/duplicates?add=true", "text/plain", []byte("a few words to add"), h...)
		do(t, "POST", ts.URL+"/v1/batch", "application/x-ndjson", []byte("{}\nnot json\n"), h...)
		do(t, "GET", ts.URL+"/metrics", "", nil, h...)
		do(t, "GET", ts.URL+"/nope", "", nil, h...)
	}
	out := logs.String()
	if strings.Count(out, `"msg":"request"`) < 12 {
		t.Fatalf("too few request lines logged:\n%s", out)
	}
	for _, tok := range []string{testToken, wrong} {
		if strings.Contains(out, tok) {
			t.Errorf("token %q in the log:\n%s", tok, out)
		}
	}
}

// syncBuffer is a bytes.Buffer for a logger used by several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestMetrics(t *testing.T) {
	_, ts := start(t, Config{})
	do(t, "POST", ts.URL+"/v1/extract?url=https://a.example/", "text/html", fixture(t, "news-en.html"))
	do(t, "POST", ts.URL+"/v1/extract", "text/html", nil)
	a := do(t, "GET", ts.URL+"/metrics", "", nil)
	sc := bufio.NewScanner(bytes.NewReader(a.body))
	names := map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, "winnow_") {
			t.Errorf("metric without the winnow_ prefix: %s", line)
		}
		name, _, _ := strings.Cut(line, "{")
		name, _, _ = strings.Cut(name, " ")
		names[name] = true
	}
	for _, want := range []string{"winnow_http_requests_total", "winnow_http_request_duration_seconds_bucket",
		"winnow_http_requests_in_flight", "winnow_http_request_body_bytes_total", "winnow_http_response_body_bytes_total",
		"winnow_pages_total", "winnow_index_documents", "winnow_process_resident_memory_bytes", "winnow_go_goroutines"} {
		if !names[want] {
			t.Errorf("no %s", want)
		}
	}
	for _, want := range []string{`winnow_http_requests_total{code="200",route="extract"} 1`, `winnow_http_requests_total{code="400",route="extract"} 1`, `winnow_pages_total{status="ok"} 1`} {
		if !bytes.Contains(a.body, []byte(want)) {
			t.Errorf("no %s", want)
		}
	}
}

func TestOpenAPI(t *testing.T) {
	srv, ts := start(t, Config{})
	a := do(t, "GET", ts.URL+"/openapi.json", "", nil)
	var doc struct {
		OpenAPI string                     `json:"openapi"`
		Paths   map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(a.body, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("not OpenAPI 3: %v %.100s", err, a.body)
	}
	for p := range srv.routes {
		if _, ok := doc.Paths[p]; !ok {
			t.Errorf("route %s is not described", p)
		}
	}
}

func TestCheckListen(t *testing.T) {
	cases := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "", true},
		{"127.9.9.9:8080", "", true},
		{"[::1]:8080", "", true},
		{"localhost:8080", "", true},
		{"0.0.0.0:8080", "", false},
		{":8080", "", false},
		{"[::]:8080", "", false},
		{"192.168.1.5:8080", "", false},
		{"0.0.0.0:8080", "t", true},
		{"nonsense", "t", false},
	}
	for _, c := range cases {
		t.Run(c.addr+"/"+c.token, func(t *testing.T) {
			if err := CheckListen(c.addr, c.token); (err == nil) != c.ok {
				t.Errorf("CheckListen(%q, %q) = %v", c.addr, c.token, err)
			}
		})
	}
}
