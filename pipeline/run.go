package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/internal/version"
	"github.com/winnow-go/winnow/xpathrules"
)

// Options configure Run. The zero value uses every core and extract's
// defaults.
type Options struct {
	Workers int // extraction goroutines; 0 means GOMAXPROCS
	// Stages are the labelling stages every page goes through.
	Stages Stages
	Record RecordOptions
	// Progress, when set, is called after every record written with the
	// number of records written so far and the number of records the run
	// will write (known after pass 1; 0 in a single-page run).
	Progress func(written, total int)
	// SinglePage turns off site templates: every page is extracted on its
	// own, and the input is read once.
	SinglePage bool
	// SamplesPerGroup caps the pages per site group that templates are
	// learned from; 0 means DefaultSamplesPerGroup.
	SamplesPerGroup int
	// HoldBytes caps the page bodies pass 1 keeps in memory so that pass
	// 2 need not read the input again: an input that fits is read once,
	// a larger one twice (pass 1 does not start holding an input whose
	// files are clearly larger). Pass 1 of a larger input keeps the
	// bodies of sites' first pages until the site shows
	// infholder.MinPages pages, at most 8 MB and HoldBytes; those it lets
	// go are read again, in a third reading that parses only them, when
	// their site reaches MinPages after all. 0 means DefaultHoldBytes; a
	// negative value holds nothing.
	HoldBytes int64
	// Skip is the number of leading records that are already written (a
	// resumed run): they are read but neither processed nor written.
	Skip int
	// TemplatesDir, when set, keeps one template per site group: a later
	// run loads it instead of learning, and relearns it when the site's
	// pages no longer fit it.
	TemplatesDir string
	// Templates, when set, is where templates are kept instead of the
	// folder TemplatesDir (winnow-beam: any Beam filesystem).
	Templates TemplateStore `json:"-"`
	// FileErrors makes a file that cannot be read (missing, or failing
	// mid-way) one error record (FileError), after the records read
	// before the failure, and the run go on; otherwise the run stops.
	// A task of many files (a Hadoop Streaming mapper, Spark's
	// RDD.pipe) must not fail for one bad file.
	FileErrors bool
}

// Validate reports every broken setting in one error: a negative number
// of workers, of samples per group or a negative page size limit (the
// run's memory is bounded by the page size limit times the workers), and
// an unknown template signature.
func (o Options) Validate() error {
	var errs []error
	if o.Workers < 0 {
		errs = append(errs, fmt.Errorf("workers %d: want 0 (one per core) or more", o.Workers))
	}
	if o.SamplesPerGroup < 0 {
		errs = append(errs, fmt.Errorf("samples per group %d: want 0 (the default, %d) or more", o.SamplesPerGroup, DefaultSamplesPerGroup))
	}
	if o.Stages.Extract.MaxPageBytes < 0 {
		errs = append(errs, fmt.Errorf("max page bytes %d: want 0 (the default, %d) or more; a run's memory needs the bound", o.Stages.Extract.MaxPageBytes, extract.DefaultMaxPageBytes))
	}
	if o.Skip < 0 {
		errs = append(errs, fmt.Errorf("skip %d: negative", o.Skip))
	}
	if sig := o.Stages.Template.Signature; sig != "" && !slices.Contains(infholder.Signatures, sig) {
		errs = append(errs, fmt.Errorf("template signature %q: want one of %v", sig, infholder.Signatures))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// pageLimit is the most bytes of a page the readers read (0: no limit).
func (o Options) pageLimit() int {
	switch m := o.Stages.Extract.MaxPageBytes; {
	case m == 0:
		return extract.DefaultMaxPageBytes
	case m < 0:
		return 0
	default:
		return m
	}
}

func (o Options) holdBytes() int64 {
	if o.HoldBytes == 0 {
		return DefaultHoldBytes
	}
	return o.HoldBytes
}

// Summary counts what a run did, and which winnow did it.
type Summary struct {
	Version string         `json:"version"`
	Read    int            `json:"read"`
	Written int            `json:"written"`
	OK      int            `json:"ok"`
	Errors  int            `json:"errors"`
	Skipped int            `json:"skipped"`
	Kinds   map[string]int `json:"skipped_or_failed_by_kind,omitempty"`
	// Rules counts the pages each rule matched, and RulesBroken those on
	// which it was broken (the page fell back to the other stages).
	Rules       map[string]int `json:"rules,omitempty"`
	RulesBroken map[string]int `json:"rules_broken,omitempty"`
	// Dedup is what near-duplicate detection found, when it ran.
	Dedup   *DedupSummary `json:"dedup,omitempty"`
	Seconds float64       `json:"seconds"`
}

// workers is the number of extraction goroutines: Workers, or GOMAXPROCS.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Run reads every input (see ReadInputs), extracts each page on
// opts.Workers goroutines and writes one record per input page to w, in
// input order; a page that fails is an error record, never a missing one.
// It stops early only when ctx is cancelled or w fails.
func Run(ctx context.Context, paths []string, w io.Writer, opts Options) (Summary, error) {
	if err := opts.Validate(); err != nil {
		return Summary{}, err
	}
	start := time.Now()
	workers := opts.workers()
	var err error
	type job struct {
		seq int
		in  Input
	}
	type result struct {
		seq  int
		rec  *Record
		line []byte // the record encoded, on the worker
		err  error
	}
	var sites *Sites
	if opts.Stages.Render != nil && opts.Stages.Render.Resources == nil {
		// Pages render with their subresources from the input WARC files.
		res := newWARCResources()
		rc := *opts.Stages.Render
		rc.Resources = res
		opts.Stages.Render = &rc
		if opts.SinglePage {
			// No pass 1 to index the subresources in: a read of its own.
			if err := opts.readInputs(paths, func(Input) error { return ctx.Err() }, res.add, workers, opts.pageLimit(), true); err != nil {
				return Summary{}, fmt.Errorf("pipeline: resources: %w", err)
			}
		} else if sites, err = learnSites(ctx, paths, opts, res); err != nil {
			return Summary{}, fmt.Errorf("pipeline: pass 1: %w", err)
		}
	} else if !opts.SinglePage {
		if sites, err = learnSites(ctx, paths, opts, nil); err != nil {
			return Summary{}, fmt.Errorf("pipeline: pass 1: %w", err)
		}
	}
	if sites != nil && sites.held == nil {
		// What pass 1 let go is garbage: collect it now, so that pass 2
		// does not start with a heap target set by pass 1's buffers.
		runtime.GC()
	}
	total := 0
	if sites != nil {
		total = len(sites.groups)
	}
	jobs := make(chan job, workers)
	results := make(chan result, workers)
	// At most this many pages are in flight, so a slow page cannot make
	// the reorder buffer grow without bound.
	tokens := make(chan struct{}, workers*8)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var readErr error
	go func() {
		defer close(jobs)
		seq := 0
		feed := func(in Input) error {
			if seq < opts.Skip {
				seq++
				return nil
			}
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case jobs <- job{seq, in}:
			case <-ctx.Done():
				return ctx.Err()
			}
			seq++
			return nil
		}
		if sites != nil && sites.held != nil {
			// Pass 1 kept the whole input: it is not read again.
			for i, in := range sites.held {
				sites.held[i] = Input{} // pass 2 owns it now
				if readErr = feed(in); readErr != nil {
					return
				}
			}
			return
		}
		readErr = opts.readInputs(paths, feed, nil, workers, opts.pageLimit(), false)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				rec := sites.takeRecord(j.seq)
				if rec == nil {
					rec = opts.Stages.Record(ctx, j.in, sites, sites.Group(j.seq), opts.Record)
				}
				var buf bytes.Buffer
				err := WriteRecord(&buf, rec)
				results <- result{j.seq, rec, buf.Bytes(), err}
			}
		})
	}
	go func() { wg.Wait(); close(results) }()

	sum := Summary{Version: version.String(), Kinds: map[string]int{}}
	bw := bufio.NewWriterSize(w, 1<<20)
	pending := map[int]result{}
	next := opts.Skip
	var writeErr error
	for r := range results {
		pending[r.seq] = r
		for pr, ok := pending[next]; ok; pr, ok = pending[next] {
			delete(pending, next)
			next++
			<-tokens
			if writeErr != nil {
				continue // drain
			}
			if writeErr = pr.err; writeErr == nil {
				_, writeErr = bw.Write(pr.line)
			}
			if writeErr != nil {
				cancel()
				continue
			}
			sum.count(pr.rec)
			if opts.Progress != nil {
				opts.Progress(opts.Skip+sum.Written, total)
			}
		}
	}
	if err := bw.Flush(); err != nil && writeErr == nil {
		writeErr = err
	}
	sum.Seconds = time.Since(start).Seconds()
	switch {
	case writeErr != nil:
		return sum, fmt.Errorf("pipeline: write: %w", writeErr)
	case readErr != nil:
		return sum, fmt.Errorf("pipeline: %w", readErr)
	}
	return sum, nil
}

func (s *Summary) count(r *Record) {
	s.Read++
	s.Written++
	switch r.Status {
	case StatusOK:
		s.OK++
		if r.Rule != "" {
			if s.Rules == nil {
				s.Rules, s.RulesBroken = map[string]int{}, map[string]int{}
			}
			s.Rules[r.Rule]++
			if r.RuleStatus == xpathrules.StatusBroken {
				s.RulesBroken[r.Rule]++
			}
		}
	case StatusError:
		s.Errors++
		s.Kinds["error: "+r.Kind]++
	case StatusSkipped:
		s.Skipped++
		s.Kinds["skipped: "+r.Kind]++
	}
}

// WriteSummary writes the summary as indented JSON.
func WriteSummary(w io.Writer, s Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Describe formats the summary for a person.
func (s Summary) Describe() string {
	out := fmt.Sprintf("%d records: %d ok, %d errors, %d skipped in %.1fs (%s)", s.Written, s.OK, s.Errors, s.Skipped, s.Seconds, s.Version)
	keys := make([]string, 0, len(s.Kinds))
	for k := range s.Kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out += fmt.Sprintf("\n  %s: %d", k, s.Kinds[k])
	}
	rules := make([]string, 0, len(s.Rules))
	for r := range s.Rules {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, r := range rules {
		out += fmt.Sprintf("\n  rule %s: %d pages, %d broken", r, s.Rules[r], s.RulesBroken[r])
	}
	if s.Dedup != nil {
		out += "\n" + s.Dedup.Describe()
	}
	return out
}
