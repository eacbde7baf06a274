package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// TestFetchRefused: with fetching allowed for the hosts below, a fetch
// to loopback, private or link-local addresses is refused, whether the
// URL names the address, a name resolves to it, or a redirect leads to
// it; the local test servers never see a request.
func TestFetchRefused(t *testing.T) {
	var hits atomic.Int32
	page := string(fixture(t, "news-en.html"))
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	defer target.Close()
	tu, _ := url.Parse(target.URL)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer redirector.Close()
	ru, _ := url.Parse(redirector.URL)
	redirectorAddr := netip.MustParseAddrPort(ru.Host)

	hosts := []string{"127.0.0.1", "10.1.2.3", "169.254.169.254", "internal.test", "metadata.test", "redirect.test", "localhost", "[::1]"}
	srv, ts := start(t, Config{AllowFetch: hosts[:7]})
	srv.fetch.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		switch host {
		case "internal.test":
			return []netip.Addr{netip.MustParseAddr("10.0.0.5")}, nil
		case "metadata.test":
			return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
		case "redirect.test":
			return []netip.Addr{redirectorAddr.Addr()}, nil
		}
		return lookupIP(context.Background(), host)
	}
	// The redirecting server alone is let through, to test where its
	// redirects lead.
	srv.fetch.refused = func(ap netip.AddrPort) bool { return ap != redirectorAddr && refusedAddr(ap) }
	via := func(to string) string {
		return "http://redirect.test:" + ru.Port() + "/?to=" + url.QueryEscape(to)
	}
	cases := []struct{ name, url string }{
		{"loopback by address", target.URL + "/page"},
		{"loopback by name", "http://localhost:" + tu.Port() + "/page"},
		{"private by address", "http://10.1.2.3/page"},
		{"metadata service by address", "http://169.254.169.254/latest/meta-data/"},
		{"name resolving to private", "http://internal.test/page"},
		{"name resolving to link-local", "http://metadata.test/latest/meta-data/"},
		{"redirect to loopback", via(target.URL + "/page")},
		{"redirect to private", via("http://10.1.2.3/page")},
		{"redirect to metadata", via("http://169.254.169.254/latest/meta-data/")},
		{"redirect to a name resolving to private", via("http://internal.test/page")},
		{"redirect to a host not allowed", via("http://example.org/page")},
		{"host not allowed", "http://example.org/page"},
		{"scheme not allowed", "file:///etc/passwd"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]string{"url": c.url})
			a := do(t, "POST", ts.URL+"/v1/extract", "application/json", body)
			jsonError(t, a, http.StatusForbidden)
			if !strings.Contains(string(a.body), "refused") {
				t.Errorf("error %s does not say refused", a.body)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
	// The check is no blanket refusal: the redirecting server itself,
	// let through, answers (its redirect to itself ends in a page).
	t.Run("allowed", func(t *testing.T) {
		srv.fetch.refused = func(ap netip.AddrPort) bool {
			return ap != redirectorAddr && ap.Addr() != netip.MustParseAddr(tu.Hostname())
		}
		body, _ := json.Marshal(map[string]string{"url": via(target.URL + "/page")})
		a := do(t, "POST", ts.URL+"/v1/extract?format=text", "application/json", body)
		if a.code != 200 || !strings.HasPrefix(string(a.body), "Harbour town") || hits.Load() != 1 {
			t.Errorf("got %d %.80q, %d hits", a.code, a.body, hits.Load())
		}
	})
}

// TestFetchOff: without AllowFetch a URL alone is a 400, and nothing is
// fetched.
func TestFetchOff(t *testing.T) {
	_, ts := start(t, Config{})
	jsonError(t, do(t, "POST", ts.URL+"/v1/extract?url=http://example.org/", "text/html", nil), http.StatusBadRequest)
}

func TestRefusedAddr(t *testing.T) {
	for _, c := range []struct {
		addr    string
		refused bool
	}{
		{"127.0.0.1", true}, {"127.8.8.8", true}, {"10.0.0.1", true}, {"172.16.5.4", true}, {"192.168.0.1", true},
		{"169.254.169.254", true}, {"0.0.0.0", true}, {"100.64.1.1", true}, {"224.0.0.1", true},
		{"::1", true}, {"fe80::1", true}, {"fc00::1", true}, {"::ffff:127.0.0.1", true}, {"::ffff:10.0.0.1", true},
		{"64:ff9b::a00:1", true}, {"::", true},
		{"93.184.216.34", false}, {"8.8.8.8", false}, {"2606:4700::1111", false},
	} {
		if got := refusedAddr(netip.AddrPortFrom(netip.MustParseAddr(c.addr), 80)); got != c.refused {
			t.Errorf("refusedAddr(%s) = %v", c.addr, got)
		}
	}
}
