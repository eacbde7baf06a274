package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

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
	pathsFrom    string
	workers      int
	maxPageBytes int
	keepMojibake bool
	markdown     bool
	blocks       bool
	dedup        bool
	singlePage   bool
	samples      int
	holdBytes    int64
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
			if len(args) == 0 && !cmd.Flags().Changed("paths-from") {
				return usagef("run: name at least one input, or --paths-from")
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
	fl.StringVar(&f.out, "out", "", "output JSONL file, or - for standard output (required; with --paths-from the default is -)")
	fl.StringVar(&f.pathsFrom, "paths-from", "", "read the input paths from this file, or - for standard input, one a line (a Hadoop Streaming mapper, Spark's RDD.pipe()); a file that cannot be read becomes an error record, not a failed run")
	fl.StringVar(&f.summary, "summary", "", "write the run summary as JSON to this file")
	fl.IntVar(&f.workers, "workers", 0, "extraction goroutines (default: GOMAXPROCS)")
	fl.IntVar(&f.maxPageBytes, "max-page-bytes", extract.DefaultMaxPageBytes, "cut pages longer than this many bytes")
	fl.BoolVar(&f.keepMojibake, "keep-mojibake", false, `leave text decoded in the wrong charset before it reached winnow ("donâ€™t") as it is; by default it is restored and the record warns`)
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
	fl.Int64Var(&f.holdBytes, "hold-bytes", pipeline.DefaultHoldBytes, "page bytes the first pass may keep in memory: an input that fits is read once; -1 keeps none")
	addDedupFlags(fl, &f.dedupFlags, false)
	return cmd
}

func runRun(ctx context.Context, inputs []string, f runFlags, stderr io.Writer) error {
	dopts, err := f.check()
	if err != nil {
		return err
	}
	if dopts != nil && f.dedupFlags.changed != nil && f.dedupFlags.changed("max-memory") {
		// The bound is the whole run's soft limit too, not only the
		// near-duplicate stage's.
		if dopts.MaxMemory, err = memoryLimit(dopts.MaxMemory); err != nil {
			return err
		}
	}
	listed, err := readPathsFrom(f.pathsFrom, os.Stdin)
	if err != nil {
		return err
	}
	cleanup, err := spoolInputs(inputs)
	defer cleanup()
	if err != nil {
		return err
	}
	inputs = append(inputs, listed...)
	opts, err := f.options()
	if err != nil {
		return err
	}
	opts.FileErrors = f.pathsFrom != ""
	if f.render {
		cfg, closeFn, err := startRender(f.chromium, f.workers, render.Options{JS: f.renderJS}, f.renderLog)
		if err != nil {
			return err
		}
		defer closeFn()
		opts.Stages.Render = cfg
	}
	var finishProgress func()
	opts.Progress, finishProgress = progressBar(stderr)
	sum, runErr := pipeline.RunFile(ctx, inputs, f.out, opts, pipeline.FileOptions{Resume: f.resume, Dedup: dopts, Stdout: os.Stdout})
	finishProgress()
	fmt.Fprintln(stderr, sum.Describe())
	if runErr != nil {
		return runErr
	}
	if f.summary != "" {
		return withOutput(f.summary, os.Stdout, func(w io.Writer) error { return pipeline.WriteSummary(w, sum) })
	}
	return nil
}

// check refuses flags that do not go together (a usage error) and returns
// the near-duplicate options of --dedup.
func (f *runFlags) check() (*pipeline.DedupOptions, error) {
	if f.out == "" && f.pathsFrom != "" {
		f.out = "-" // a mapper writes its records to stdout
	}
	if f.out == "" {
		return nil, usagef("run: --out is required")
	}
	var dopts *pipeline.DedupOptions
	if f.dedup {
		f.dedupFlags.workers = f.workers
		d, err := f.dedupFlags.options()
		if err != nil {
			return nil, usagef("run --dedup: %v", err)
		}
		dopts = &d
	}
	if f.resume && f.out == "-" {
		return nil, usagef("run: --resume needs --out FILE")
	}
	if err := atLeast("max-page-bytes", f.maxPageBytes, 1); err != nil {
		return nil, err
	}
	if err := f.baseOptions().Validate(); err != nil {
		return nil, usagef("run: %v", err)
	}
	return dopts, nil
}

// options are the run's options from the flags, with the rules loaded.
func (f runFlags) options() (pipeline.Options, error) {
	rules, err := loadRules(f.rules)
	opts := f.baseOptions()
	opts.Stages.Rules = rules
	return opts, err
}

// baseOptions are the run's options from the flags, before any file is
// read.
func (f runFlags) baseOptions() pipeline.Options {
	return pipeline.Options{
		Workers: f.workers,
		Stages: pipeline.Stages{
			Extract:  extract.Options{MaxPageBytes: f.maxPageBytes, KeepMojibake: f.keepMojibake},
			Template: infholder.Options{Signature: infholder.Signature(f.signature)},
		},
		Record:          pipeline.RecordOptions{Markdown: f.markdown, Blocks: f.blocks},
		SinglePage:      f.singlePage,
		TemplatesDir:    f.templates,
		SamplesPerGroup: f.samples,
		HoldBytes:       f.holdBytes,
	}
}

// readPathsFrom reads the input paths of --paths-from (none when name
// is empty; "-" is stdin). The paths are not checked here: one that
// cannot be read becomes an error record.
func readPathsFrom(name string, stdin io.Reader) ([]string, error) {
	if name == "" {
		return nil, nil
	}
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return pipeline.ReadPaths(r)
}

// spoolInputs checks that every input exists and replaces "-" with a
// temporary copy of standard input (both passes of a run read the
// inputs); cleanup removes the copy.
func spoolInputs(inputs []string) (cleanup func(), err error) {
	var spooled []string
	cleanup = func() {
		for _, name := range spooled {
			os.Remove(name)
		}
	}
	for i, in := range inputs {
		if in != "-" {
			if _, err := os.Stat(in); err != nil {
				return cleanup, err
			}
			continue
		}
		name, err := pipeline.Spool(os.Stdin)
		if err != nil {
			return cleanup, err
		}
		spooled = append(spooled, name)
		inputs[i] = name
	}
	return cleanup, nil
}

// progressBar draws the run's progress on stderr when it is a terminal:
// progress is pipeline.Options.Progress, finish ends the bar. Both do
// nothing elsewhere.
func progressBar(stderr io.Writer) (progress func(n, total int), finish func()) {
	fh, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(fh.Fd())) {
		return nil, func() {}
	}
	p := mpb.New(mpb.WithOutput(stderr), mpb.WithWidth(40))
	var bar *mpb.Bar
	progress = func(n, total int) {
		if bar == nil {
			bar = p.AddBar(int64(total),
				mpb.PrependDecorators(decor.Name("records "), decor.CountersNoUnit("%d / %d")),
				mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.Elapsed(decor.ET_STYLE_GO)))
		}
		bar.SetCurrent(int64(n))
	}
	finish = func() {
		if bar != nil {
			bar.SetTotal(-1, true) // complete, whatever the total said
		} else {
			p.Shutdown()
		}
		p.Wait()
	}
	return progress, finish
}

// startRender starts the browser for the layout stage with a tab for
// each of tabs pages rendered at once (0: GOMAXPROCS), and opens the request log when
// logPath is set; the returned function closes both.
func startRender(chromium string, tabs int, o render.Options, logPath string) (*pipeline.RenderConfig, func(), error) {
	bin, err := render.FindChromium(chromium)
	if err != nil {
		return nil, nil, err
	}
	if tabs <= 0 {
		tabs = runtime.GOMAXPROCS(0)
	}
	br, err := render.NewChromium(bin, tabs)
	if err != nil {
		return nil, nil, err
	}
	cfg := &pipeline.RenderConfig{Browser: br, Options: o}
	if logPath == "" {
		return cfg, func() { br.Close() }, nil
	}
	fh, err := os.Create(logPath)
	if err != nil {
		br.Close()
		return nil, nil, err
	}
	cfg.Log = pipeline.RequestLog(fh)
	return cfg, func() {
		br.Close()
		fh.Close()
	}, nil
}
