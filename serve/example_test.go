package serve_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/winnow-go/winnow/serve"
)

// A crawler posts a page as it fetched it, with its URL beside it, and
// gets the page's main text back.
func ExampleNew() {
	srv, err := serve.New(serve.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()

	page := `<html><head><title>Rain in Tallinn</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>Rain in Tallinn</h1>
<p>Heavy rain fell on Tallinn on Tuesday, flooding several streets in the old town and
closing the harbour road for most of the afternoon while crews cleared the drains.</p>
<p>The weather service expects the rain to ease by Thursday, when a dry and colder air
mass arrives from the north and the temperatures fall to a few degrees above zero.</p></article>
<footer><a href="/about">About us</a> <a href="/contact">Contact</a></footer></body></html>`
	q := url.Values{"url": {"https://news.example/2026/rain"}, "format": {"text"}}
	resp, err := http.Post(ts.URL+"/v1/extract?"+q.Encode(), "text/html; charset=utf-8", strings.NewReader(page))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode)
	fmt.Println(string(text))
	// Output:
	// 200
	// Rain in Tallinn
	//
	// Heavy rain fell on Tallinn on Tuesday, flooding several streets in the old town and closing the harbour road for most of the afternoon while crews cleared the drains.
	//
	// The weather service expects the rain to ease by Thursday, when a dry and colder air mass arrives from the north and the temperatures fall to a few degrees above zero.
}
