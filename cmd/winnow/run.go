package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/spf13/cobra"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/render"
)

// batchGC sets the garbage collector for a batch run, unless the
// environment sets GOGC or GOMEMLIMIT. A run parses a tree per page and
// drops it a moment later, so its live heap is small and Go's default
// (GOGC=100) collects every few pages. With every core busy extracting,
// the collector then takes 15-25% of a run on two cores (the shared page
// sets with GOGC=off ran that much faster). GOGC=400 collects a quarter
// as often; the soft limit of 1 GiB makes the collector work harder as
// the heap nears it. On the 2.5 GB synthetic WARC the peak RSS goes from
// 315 to 626 MB and the time from 79 to 72 s.
func batchGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}

type runFlags struct {
	out, summary string
	workers      int
	maxPageBytes int
	markdown     bool
	blocks       bool
	dedup        bool
	singlePage   bool
	samples      int
	templates    string
	resume       bool
	signature    string
	rules        string
	render       bool
	renderJS     bool
	renderLog    string
	chromium     string
	dedupFlags   dedupFlags
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run <inputs...> --out FILE|-",
		Short: "Extract every page of WARC files, JSONL files and folders: one record per page",
		Long: `Reads WARC files (.warc, .warc.gz), JSONL files ("url", "html", optional
"fetched_at", "score"; other fields pass through) and folders of .html/.htm
files (gzipped or not), and writes one JSONL record per input page, in
input order: ok, skipped (redirects, HTTP errors, revisits whose payload is
not in the input) or error (with the reason and the record's offset). A
summary goes to stderr, and with --summary to a JSON file.

With --dedup the records also get "simhash", "cluster", "canonical" and
"duplicate_of", as winnow dedup gives them.

Site templates (Infholder, seed 000) are learned in a first pass over the
input: pages are grouped by URL (path prefixes, backed off to the host),
each group's template is learned from up to --samples-per-group of its
pages by pairwise LCS of block signatures, and the second pass removes the
template blocks before the density classifier runs ("group" and
removed.template in the record). --single-page skips the first pass.`,
		Example: `  winnow run crawl.warc.gz --out pages.jsonl
  winnow run pages/ more.jsonl --out - --summary run.json --dedup
  zcat crawl.warc.gz | winnow run - --out pages.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("run: name at least one input")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.dedupFlags.changed = cmd.Flags().Changed
			batchGC()
			return runRun(cmd.Context(), args, f, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "output JSONL file, or - for standard output (required)")
	fl.StringVar(&f.summary, "summary", "", "write the run summary as JSON to this file")
	fl.IntVar(&f.workers, "workers", 0, "extraction goroutines (default: GOMAXPROCS)")
	fl.IntVar(&f.maxPageBytes, "max-page-bytes", extract.DefaultMaxPageBytes, "cut pages longer than this many bytes")
	fl.BoolVar(&f.markdown, "markdown", false, "add the markdown field")
	fl.BoolVar(&f.blocks, "blocks", false, "add every block with its label and reasons")
	fl.BoolVar(&f.dedup, "dedup", false, "mark near-duplicates (see winnow dedup)")
	fl.BoolVar(&f.singlePage, "single-page", false, "no site templates: extract every page on its own (one pass)")
	fl.BoolVar(&f.resume, "resume", false, "continue an interrupted run after the last complete record of --out (same inputs and options)")
	fl.StringVar(&f.signature, "template-signature", "content", "what site templates compare: content (tags and text), tags, tags+size or tags+kind (seed 000's style-inbreeding variants; content measures best, see winnow eval sites)")
	fl.StringVar(&f.templates, "templates", "", "folder of saved site templates: load them, relearn those that no longer fit, save new ones")
	fl.BoolVar(&f.render, "render", false, "render every page in headless Chromium, offline, with its stylesheets, images and fonts from the input WARC files, and use its layout (hidden, fixed and off-screen blocks)")
	fl.BoolVar(&f.renderJS, "render-js", false, "with --render: run the pages' scripts")
	fl.StringVar(&f.renderLog, "render-log", "", "with --render: write every page's requests, served from the WARC or blocked, as JSON lines to this file")
	fl.StringVar(&f.chromium, "chromium", "", "with --render: the Chromium binary (default: $WINNOW_CHROMIUM, else chromium on PATH)")
	fl.StringVar(&f.rules, "rules", "", "per-site XPath/CSS rules: a YAML or FiveFilters file, or a folder of them (see winnow rules)")
	fl.IntVar(&f.samples, "samples-per-group", pipeline.DefaultSamplesPerGroup, "pages per site group that templates are learned from")
	fl.StringVar(&f.dedupFlags.method, "method", "simhash", "with --dedup: simhash, minhash, md5, tfidf, longsent, heavysent or lexrand")
	fl.Float64Var(&f.dedupFlags.threshold, "threshold", 0.8, "with --dedup: verified similarity")
	fl.IntVar(&f.dedupFlags.k, "k", 3, "with --dedup: SimHash distance")
	fl.StringVar(&f.dedupFlags.index, "index", "", "with --dedup: a winnow index folder to check pages against and add them to")
	return cmd
}

func runRun(ctx context.Context, inputs []string, f runFlags, stderr io.Writer) error {
	if f.out == "" {
		return usagef("run: --out is required")
	}
	known := false
	for _, s := range infholder.Signatures {
		known = known || string(s) == f.signature
	}
	if !known {
		return usagef("run: --template-signature %q: want content, tags, tags+size or tags+kind", f.signature)
	}
	for i, in := range inputs {
		if in == "-" {
			// Both passes read the input: spool standard input to a file.
			spooled, err := spoolStdin()
			if err != nil {
				return err
			}
			defer os.Remove(spooled)
			inputs[i] = spooled
			continue
		}
		if _, err := os.Stat(in); err != nil {
			return err
		}
	}
	rules, err := loadRules(f.rules)
	if err != nil {
		return err
	}
	target := f.out
	var tmp string
	if f.dedup {
		fh, err := os.CreateTemp("", "winnow-run-*.jsonl")
		if err != nil {
			return err
		}
		fh.Close()
		tmp = fh.Name()
		defer os.Remove(tmp)
		target = tmp
	}
	skip := 0
	var w io.Writer
	var closeFn func() error
	if f.resume {
		if f.dedup || f.out == "-" {
			return usagef("run: --resume needs --out FILE and no --dedup")
		}
		skip, w, closeFn, err = resumeOut(f.out)
	} else {
		w, closeFn, err = createOut(target, os.Stdout)
	}
	if err != nil {
		return err
	}
	opts := pipeline.Options{
		Workers: f.workers,
		Extract: extract.Options{MaxPageBytes: f.maxPageBytes},
		Record:  pipeline.RecordOptions{Markdown: f.markdown, Blocks: f.blocks},

		Skip:            skip,
		Template:        infholder.Options{Signature: infholder.Signature(f.signature)},
		SinglePage:      f.singlePage,
		TemplatesDir:    f.templates,
		SamplesPerGroup: f.samples,
		Rules:           rules,
	}
	if f.render {
		cfg, closeFn, err := renderConfig(f)
		if err != nil {
			return err
		}
		defer closeFn()
		opts.Render = cfg
	}
	finishProgress := func() {}
	if fh, ok := stderr.(*os.File); ok && term.IsTerminal(int(fh.Fd())) {
		progress := mpb.New(mpb.WithOutput(stderr), mpb.WithWidth(40))
		var bar *mpb.Bar
		opts.Progress = func(n, total int) {
			if bar == nil {
				bar = progress.AddBar(int64(total),
					mpb.PrependDecorators(decor.Name("records "), decor.CountersNoUnit("%d / %d")),
					mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.Elapsed(decor.ET_STYLE_GO)))
			}
			bar.SetCurrent(int64(n))
		}
		finishProgress = func() {
			if bar != nil {
				bar.SetTotal(-1, true) // complete, whatever the total said
			} else {
				progress.Shutdown()
			}
			progress.Wait()
		}
	}
	sum, runErr := pipeline.Run(ctx, inputs, w, opts)
	finishProgress()
	if err := closeFn(); err != nil && runErr == nil {
		runErr = err
	}
	fmt.Fprintln(stderr, sum.Describe())
	if runErr != nil {
		return runErr
	}
	if f.summary != "" {
		sw, sclose, err := createOut(f.summary, os.Stdout)
		if err != nil {
			return err
		}
		if err := pipeline.WriteSummary(sw, sum); err != nil {
			return err
		}
		if err := sclose(); err != nil {
			return err
		}
	}
	if f.dedup {
		df := f.dedupFlags
		df.out = f.out
		df.measure, df.numbers, df.spaces = "jaccard", "keep", "keep"
		df.numPerm = 128
		df.shingles, df.simShingles = []int{3}, defaultSimShingles
		return runDedup(tmp, df, stderr)
	}
	return nil
}

// resumeOut opens an interrupted run's output for appending: it keeps the
// complete records (lines ending in a line break), cuts a partial last
// line, and returns how many records are already there.
func resumeOut(path string) (int, io.Writer, func() error, error) {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return 0, nil, nil, err
	}
	keep := bytes.LastIndexByte(b, '\n') + 1
	n := bytes.Count(b[:keep], []byte{'\n'})
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return 0, nil, nil, err
	}
	if err := fh.Truncate(int64(keep)); err != nil {
		fh.Close()
		return 0, nil, nil, err
	}
	if _, err := fh.Seek(int64(keep), io.SeekStart); err != nil {
		fh.Close()
		return 0, nil, nil, err
	}
	bw := bufio.NewWriter(fh)
	return n, bw, func() error {
		if err := bw.Flush(); err != nil {
			fh.Close()
			return err
		}
		return fh.Close()
	}, nil
}

// spoolStdin copies standard input to a temporary file named for its
// format (WARC, gzip WARC or JSONL, from its first bytes).
func spoolStdin() (string, error) {
	br := bufio.NewReader(os.Stdin)
	head, _ := br.Peek(5)
	ext := ".jsonl"
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		ext = ".warc.gz"
	case bytes.HasPrefix(head, []byte("WARC/")):
		ext = ".warc"
	}
	fh, err := os.CreateTemp("", "winnow-stdin-*"+ext)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(fh, br); err != nil {
		fh.Close()
		os.Remove(fh.Name())
		return "", fmt.Errorf("spool standard input: %w", err)
	}
	return fh.Name(), fh.Close()
}

// renderConfig starts the browser for run --render (a tab per worker) and
// opens the request log; the returned function closes both.
func renderConfig(f runFlags) (*pipeline.RenderConfig, func(), error) {
	bin, err := render.FindChromium(f.chromium)
	if err != nil {
		return nil, nil, err
	}
	workers := f.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	br, err := render.NewChromium(bin, workers)
	if err != nil {
		return nil, nil, err
	}
	cfg := &pipeline.RenderConfig{Browser: br, Options: render.Options{JS: f.renderJS}}
	closeFn := func() { br.Close() }
	if f.renderLog != "" {
		fh, err := os.Create(f.renderLog)
		if err != nil {
			br.Close()
			return nil, nil, err
		}
		var mu sync.Mutex
		enc := json.NewEncoder(fh)
		enc.SetEscapeHTML(false)
		cfg.Log = func(u string, reqs []render.Request) {
			mu.Lock()
			defer mu.Unlock()
			enc.Encode(struct {
				URL      string           `json:"url"`
				Requests []render.Request `json:"requests"`
			}{u, reqs})
		}
		closeFn = func() {
			br.Close()
			fh.Close()
		}
	}
	return cfg, closeFn, nil
}
