package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/render"
)

const userAgent = "winnow/0.1 (+https://github.com/winnow-go/winnow; content extraction)"

type extractFlags struct {
	format       string
	charset      string
	maxPageBytes int
	keepMojibake bool
	timeout      time.Duration
	site         string
	rules        string
	render       bool
	renderJS     bool
	chromium     string
	url          string
}

func newExtractCmd() *cobra.Command {
	var f extractFlags
	cmd := &cobra.Command{
		Use:   "extract <url|file|->",
		Short: "Extract the main content of one page",
		Long: `Extract the main content of one page: a URL (fetched with a timeout, a redirect
cap and a size cap), a file (.gz is decompressed) or - for standard input.

Formats: text (blocks separated by blank lines), markdown, json (the record
with every block, its label and reasons), html (a debug page that colours
each block by its label, with the reason that decided it in the margin,
a legend of the reasons, and every reason on hover).`,
		Example: `  winnow extract page.html
  winnow extract https://example.org/ --format markdown
  winnow extract page.html.gz --format html > debug.html
  winnow extract saved.html --url https://example.org/blog/ --format json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExtract(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: text, markdown, json or html")
	fl.StringVar(&f.charset, "charset", "", "decode the page with this charset instead of detecting it")
	fl.IntVar(&f.maxPageBytes, "max-page-bytes", extract.DefaultMaxPageBytes, "cut pages longer than this many bytes (the record says truncated)")
	fl.BoolVar(&f.keepMojibake, "keep-mojibake", false, `leave text decoded in the wrong charset before it reached winnow ("donâ€™t") as it is; by default it is restored and the record warns`)
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "time limit for fetching a URL")
	fl.BoolVar(&f.render, "render", false, "render the page in headless Chromium and use its layout (hidden, fixed and off-screen blocks); a file renders offline, a URL live")
	fl.BoolVar(&f.renderJS, "render-js", false, "with --render: run the page's scripts")
	fl.StringVar(&f.chromium, "chromium", "", "with --render: the Chromium binary (default: $WINNOW_CHROMIUM, else chromium on PATH)")
	fl.StringVar(&f.rules, "rules", "", "per-site XPath/CSS rules: a YAML or FiveFilters file, or a folder of them")
	fl.StringVar(&f.url, "url", "", "the page's address when it is read from a file or standard input: links resolve against it, and the page type and site rules see it")
	fl.StringVar(&f.site, "site", "", "learn the site template from this folder or WARC and mark its blocks (orange in --format html)")
	return cmd
}

func runExtract(ctx context.Context, w io.Writer, arg string, f extractFlags) error {
	switch f.format {
	case "text", "markdown", "json", "html":
	default:
		return usagef("--format %q: want text, markdown, json or html", f.format)
	}
	if f.charset != "" {
		if _, err := extract.DecodeAs(nil, f.charset); err != nil {
			return usagef("--charset: %v", err)
		}
	}
	if err := errors.Join(atLeast("max-page-bytes", f.maxPageBytes, 1), atLeast("timeout", f.timeout, time.Millisecond)); err != nil {
		return err
	}
	if f.url != "" {
		if isURL(arg) {
			return usagef("--url names the address of a file or of standard input; %s is fetched from its own", arg)
		}
		if !isURL(f.url) {
			return usagef("--url %q: want an absolute http or https URL", f.url)
		}
	}
	rules, err := loadRules(f.rules)
	if err != nil {
		return err
	}
	in, err := readPage(ctx, arg, f)
	if err != nil {
		return err
	}
	st := pipeline.Stages{Extract: extract.Options{Charset: f.charset, MaxPageBytes: f.maxPageBytes, KeepMojibake: f.keepMojibake}, Rules: rules}
	if f.render {
		var res render.Resources = render.NoResources{}
		if isURL(arg) {
			res = render.HTTPResources{Client: &http.Client{Timeout: f.timeout}, UserAgent: userAgent}
		}
		cfg, closeFn, err := startRender(f.chromium, 1, render.Options{JS: f.renderJS, Timeout: f.timeout}, "")
		if err != nil {
			return err
		}
		defer closeFn()
		cfg.Resources = res
		st.Render = cfg
	}
	p, rec, err := pipeline.ExtractOne(ctx, in, f.site, pipeline.Options{Stages: st, Record: pipeline.RecordOptions{Markdown: true, Blocks: true}})
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	switch f.format {
	case "text":
		_, err = io.WriteString(bw, p.Text()+"\n")
	case "markdown":
		_, err = io.WriteString(bw, p.MarkdownDocument()+"\n")
	case "json":
		err = pipeline.WriteRecord(bw, rec)
	case "html":
		err = p.WriteDebugHTML(bw)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// readPage reads the page named by arg: standard input ("-"), a URL or a
// file. A page in a CleanEval-style wrapper (<text id="URL" ...>) gets
// the wrapper's URL unless it was fetched.
func readPage(ctx context.Context, arg string, f extractFlags) (pipeline.Input, error) {
	in := pipeline.Input{Source: arg}
	var err error
	switch {
	case arg == "-":
		in.Body, err = pipeline.ReadLimited(os.Stdin, f.maxPageBytes)
		in.Source = "stdin"
	case isURL(arg):
		var u *url.URL
		if in.Body, u, in.ContentType, err = fetch(ctx, arg, f); err == nil {
			in.URL, in.FetchedAt = u.String(), time.Now()
		}
	default:
		in.Body, err = gz.ReadFileLimit(arg, f.maxPageBytes)
	}
	if err != nil {
		return in, err
	}
	if f.url != "" && in.URL == "" {
		in.URL = f.url
	}
	if wrapped, body := extract.StripTextWrapper(in.Body); wrapped != "" {
		in.Body = body
		if in.URL == "" {
			in.URL = wrapped
		}
	}
	return in, nil
}

// fetch gets a page over HTTP with a timeout, at most 10 redirects and a
// size cap, and returns the body with the final URL and Content-Type.
func fetch(ctx context.Context, rawURL string, f extractFlags) ([]byte, *url.URL, string, error) {
	client := &http.Client{
		Timeout: f.timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, nil, "", usagef("bad URL %q: %v", rawURL, err)
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, "", fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, nil, "", fmt.Errorf("fetch %s: HTTP %s", rawURL, resp.Status)
	}
	b, err := pipeline.ReadLimited(resp.Body, f.maxPageBytes)
	if err != nil {
		return nil, nil, "", fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	return b, resp.Request.URL, resp.Header.Get("Content-Type"), nil
}

func isURL(arg string) bool {
	return strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://")
}
