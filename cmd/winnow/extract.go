package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/render"
	"github.com/winnow-go/winnow/xpathrules"
)

const userAgent = "winnow/0.1 (+https://github.com/winnow-go/winnow; content extraction)"

type extractFlags struct {
	format       string
	charset      string
	maxPageBytes int
	timeout      time.Duration
	site         string
	rules        string
	render       bool
	renderJS     bool
	chromium     string
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
each block by its label; hover for the reasons).`,
		Example: `  winnow extract page.html
  winnow extract https://example.org/ --format markdown
  winnow extract page.html.gz --format html > debug.html`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExtract(cmd.Context(), cmd.OutOrStdout(), args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: text, markdown, json or html")
	fl.StringVar(&f.charset, "charset", "", "decode the page with this charset instead of detecting it")
	fl.IntVar(&f.maxPageBytes, "max-page-bytes", extract.DefaultMaxPageBytes, "cut pages longer than this many bytes (the record says truncated)")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "time limit for fetching a URL")
	fl.BoolVar(&f.render, "render", false, "render the page in headless Chromium and use its layout (hidden, fixed and off-screen blocks); a file renders offline, a URL live")
	fl.BoolVar(&f.renderJS, "render-js", false, "with --render: run the page's scripts")
	fl.StringVar(&f.chromium, "chromium", "", "with --render: the Chromium binary (default: $WINNOW_CHROMIUM, else chromium on PATH)")
	fl.StringVar(&f.rules, "rules", "", "per-site XPath/CSS rules: a YAML or FiveFilters file, or a folder of them")
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
	rules, err := loadRules(f.rules)
	if err != nil {
		return err
	}
	opts := extract.Options{Charset: f.charset, MaxPageBytes: f.maxPageBytes}
	var raw []byte
	source := arg
	switch {
	case arg == "-":
		raw, err = readLimited(os.Stdin, f.maxPageBytes)
		source = "stdin"
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		var u *url.URL
		raw, u, opts.ContentType, err = fetch(ctx, arg, f)
		opts.URL = u
		opts.FetchedAt = time.Now()
	default:
		raw, err = readFile(arg, f.maxPageBytes)
	}
	if err != nil {
		return err
	}
	if wrapped, body := extract.StripTextWrapper(raw); wrapped != "" {
		raw = body
		if opts.URL == nil {
			opts.URL, _ = url.Parse(wrapped)
		}
	}
	opts.NoClassify = true
	p, err := extract.Extract(raw, opts)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	var ro xpathrules.Outcome
	if rule := rules.Match(p.URL); rule != nil {
		ro = rule.Apply(p, 0)
	}
	if f.render {
		if err := renderPage(ctx, p, arg, f); err != nil {
			return err
		}
	}
	if f.site != "" {
		if err := applySiteTemplate(p, f.site, opts); err != nil {
			return err
		}
	}
	extract.Classify(p)
	bw := bufio.NewWriter(w)
	switch f.format {
	case "text":
		_, err = io.WriteString(bw, p.Text()+"\n")
	case "markdown":
		_, err = io.WriteString(bw, p.Markdown()+"\n")
	case "json":
		rec := pipeline.NewRecord(p, source, pipeline.RecordOptions{Markdown: true, Blocks: true})
		rec.SetRule(ro)
		err = pipeline.WriteRecord(bw, rec)
	case "html":
		err = p.WriteDebugHTML(bw)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// readLimited reads at most limit+1 bytes so that Extract can tell a cut page.
func readLimited(r io.Reader, limit int) ([]byte, error) {
	if limit > 0 {
		r = io.LimitReader(r, int64(limit)+1)
	}
	return io.ReadAll(r)
}

func readFile(path string, limit int) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var r io.Reader = fh
	br := bufio.NewReader(fh)
	r = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	b, err := readLimited(r, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
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
	b, err := readLimited(resp.Body, f.maxPageBytes)
	if err != nil {
		return nil, nil, "", fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	return b, resp.Request.URL, resp.Header.Get("Content-Type"), nil
}

// applySiteTemplate learns the template of the page's site group from the
// pages of a folder or WARC and labels the page's template blocks.
func applySiteTemplate(p *extract.Page, site string, opts extract.Options) error {
	var pages []*extract.Page
	var urls []string
	err := pipeline.ReadInputs([]string{site}, func(in pipeline.Input) error {
		if in.Status != "" || len(pages) >= 400 {
			return nil
		}
		eo := opts
		eo.URL, _ = url.Parse(in.URL)
		eo.ContentType = in.ContentType
		sp, err := extract.Parse(in.Body, eo)
		if err != nil {
			return nil
		}
		pages = append(pages, sp)
		urls = append(urls, in.URL)
		return nil
	})
	if err != nil {
		return fmt.Errorf("--site %s: %w", site, err)
	}
	self := ""
	if p.URL != nil {
		self = p.URL.String()
	}
	keys := infholder.GroupKeys(append(urls, self), infholder.MinPages)
	mine := keys[len(keys)-1]
	group := []*extract.Page{p}
	for i, k := range keys[:len(urls)] {
		if (k == mine || self == "") && urls[i] != self && len(group) < pipeline.DefaultSamplesPerGroup {
			group = append(group, pages[i])
		}
	}
	if len(group) < 2 {
		return fmt.Errorf("--site %s: no other page of the group %q", site, mine)
	}
	infholder.Learn(mine, group, infholder.Options{})
	return nil
}

// renderPage runs the layout stage on one page: a URL renders live (its
// subresources fetched), a file or standard input offline (its
// subresources blocked).
func renderPage(ctx context.Context, p *extract.Page, arg string, f extractFlags) error {
	var res render.Resources = render.NoResources{}
	if strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://") {
		res = render.HTTPResources{Client: &http.Client{Timeout: f.timeout}, UserAgent: userAgent}
	}
	stage, closeFn, err := layoutStage(ctx, f.chromium, 1, res, render.Options{JS: f.renderJS, Timeout: f.timeout})
	if err != nil {
		return err
	}
	defer closeFn()
	return stage(p)
}

// layoutStage starts a browser for up to pages renders at a time and
// returns the layout stage over it (a page without an http(s) URL is
// served under a placeholder one) and the function that closes it.
func layoutStage(ctx context.Context, chromium string, pages int, res render.Resources, opts render.Options) (func(*extract.Page) error, func(), error) {
	bin, err := render.FindChromium(chromium)
	if err != nil {
		return nil, nil, err
	}
	br, err := render.NewChromium(bin, pages)
	if err != nil {
		return nil, nil, err
	}
	stage := func(p *extract.Page) error {
		pageURL := "https://winnow.invalid/page.html"
		if p.URL != nil && (p.URL.Scheme == "http" || p.URL.Scheme == "https") {
			pageURL = p.URL.String()
		}
		_, err := render.Page(ctx, br, p, pageURL, res, opts)
		return err
	}
	return stage, func() { br.Close() }, nil
}
