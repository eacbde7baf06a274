package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"-winnow", "w"}, true},
		{[]string{"-winnow", "w", "-c", "1, 4"}, true},
		{[]string{}, false},
		{[]string{"-winnow", "w", "-c", "0"}, false},
		{[]string{"-winnow", "w", "-d", "2h"}, false},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			if _, err := parse(c.args); (err == nil) != c.ok {
				t.Errorf("parse(%q) = %v", c.args, err)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	l := latencies{5, 1, 4, 2, 3}
	if l.quantile(0.5) != 3 || l.quantile(0.99) != 5 || (latencies{}).quantile(0.5) != 0 {
		t.Errorf("quantiles of %v: %v %v", l, l.quantile(0.5), l.quantile(0.99))
	}
}

// TestLoad: a level stops by itself after its time and counts 200s and
// 503s apart.
func TestLoad(t *testing.T) {
	n := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n++; n%2 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer ts.Close()
	begin := time.Now()
	lv := load(1, 200*time.Millisecond, func(c *http.Client, i int) (int, error) {
		return post(c, ts.URL, page{"https://a.example/", []byte("<p>x</p>")})
	})
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("the level took %v", d)
	}
	if len(lv.ok) == 0 || len(lv.busy) == 0 || lv.errors != 0 {
		t.Errorf("%d ok, %d busy, %d errors", len(lv.ok), len(lv.busy), lv.errors)
	}
}
