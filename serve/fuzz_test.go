package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

var (
	fuzzOnce sync.Once
	fuzzSrv  *Server
)

// FuzzRequest: whatever the body, content type and query, no route
// answers 500.
func FuzzRequest(f *testing.F) {
	f.Add("/v1/extract", "url=https://a.example/", "text/html", []byte("<p>x</p>"))
	f.Add("/v1/extract", "", "application/json", []byte(`{"url":"https://a.example/","html":"<p>x</p>","score":"x","fetched_at":5}`))
	f.Add("/v1/extract", "format=markdown&blocks=1", "application/json", []byte(`{"url":"u","html":""}`))
	f.Add("/v1/duplicates", "url=u&add=true", "text/plain", []byte("one two three four"))
	f.Add("/v1/duplicates", "", "application/json", []byte(`{"url":"u","html":"<p>a b c d</p>"}`))
	f.Add("/v1/batch", "", "application/x-ndjson", []byte("{\"url\":\"u\",\"html\":\"<p>x</p>\"}\n[]\n\"s\"\n"))
	dir := f.TempDir()
	f.Cleanup(func() {
		if fuzzSrv != nil {
			fuzzSrv.Close()
		}
	})
	f.Fuzz(func(t *testing.T, path, query, ctype string, body []byte) {
		fuzzOnce.Do(func() {
			var err error
			if fuzzSrv, err = New(Config{IndexDir: dir, MaxBodyBytes: 1 << 16}); err != nil {
				t.Fatal(err)
			}
		})
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest("POST", "http://x"+path+"?"+query, strings.NewReader(string(body)))
		if err != nil {
			return
		}
		req.Header.Set("Content-Type", ctype)
		rec := httptest.NewRecorder()
		fuzzSrv.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusNotImplemented && rec.Code != http.StatusServiceUnavailable {
			t.Errorf("%s?%s (%s) %q: %d %s", path, query, ctype, body, rec.Code, rec.Body)
		}
	})
}
