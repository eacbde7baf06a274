package pipeline

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/xpathrules"
)

// DefaultHoldBytes is the default for Options.HoldBytes. Held bodies are
// live heap, and a batch run's collector (GOGC=400) lets the heap grow to
// five times the live heap: a 186 MB crawl of one page per site
// (wcxb-dev-even as a WARC) held whole took the peak RSS from 140 MB
// (single-page) to 1 GB; read twice it peaks at about 180 MB. Inputs
// under this size (the shared page sets, SWDE) are held: reading their
// gzipped pages twice cost 10-20% of a run.
const DefaultHoldBytes = 128 << 20

// maxWaitingBytes caps the bodies of the first pages of sites that have
// not yet shown infholder.MinPages pages, when the input is not held
// (and at most HoldBytes): past it the oldest site's bodies are let go
// and read again if it reaches MinPages.
const maxWaitingBytes = 8 << 20

// DefaultSamplesPerGroup is the default for Options.SamplesPerGroup.
const DefaultSamplesPerGroup = 40

// maxKeptBytes caps the bodies of the sampled pages whose trees pass 1
// of a run that does not hold its input keeps until it has learned the
// templates, to label them then and spare pass 2 a second parse. A tree
// takes about four times its page's bytes, and the collector lets the
// heap grow to five times what is live: on wcxb-dev-even as a WARC (one
// page per site but for 14 sites, 52 sampled pages) 8 MB took site mode
// from 1.16x to 1.08x the time of a single-page run, at 1.09x its peak
// memory; 16 MB gave the same time at 1.44x the memory.
const maxKeptBytes = 8 << 20

// Sites is what pass 1 learns about the sites of an input: the site
// group of every input (by input order), a template per group that has
// one, and each site rule's typical content length over the sampled
// pages. A nil *Sites stands for pages on their own: no group, no
// template.
type Sites struct {
	groups       []string // by input sequence; "" for inputs that are not pages
	templates    map[string]*infholder.Template
	typicalWords map[*xpathrules.Rule]int // each rule's median content words over the sampled pages
	// held is every input in order, bodies included, when they total at
	// most Options.HoldBytes; nil when pass 2 must read the input again.
	held []Input
	// parsed holds, by input sequence, the pages pass 1 parsed when the
	// learner was asked to keep them (ProcessPages): pass 2 labels them
	// without parsing them again.
	parsed []*extract.Page
	// done holds, by input sequence, the records of the pages pass 1
	// parsed and kept, labelled once the templates were learned (Run):
	// pass 2 writes them without parsing the pages again.
	done []*Record
}

// Group is the site group of the input at sequence seq ("" when it is
// not a page or out of range).
func (s *Sites) Group(seq int) string {
	if s == nil || seq < 0 || seq >= len(s.groups) {
		return ""
	}
	return s.groups[seq]
}

// Template is the template of a group, or nil.
func (s *Sites) Template(group string) *infholder.Template {
	if s == nil || group == "" {
		return nil
	}
	return s.templates[group]
}

// Templates is the number of groups with a template.
func (s *Sites) Templates() int {
	if s == nil {
		return 0
	}
	return len(s.templates)
}

func (s *Sites) typical(r *xpathrules.Rule) int {
	if s == nil {
		return 0
	}
	return s.typicalWords[r]
}

// take returns the page pass 1 kept for an input, once. Calls for
// different inputs may run at once.
func (s *Sites) take(seq int) *extract.Page {
	if s == nil || seq >= len(s.parsed) {
		return nil
	}
	p := s.parsed[seq]
	s.parsed[seq] = nil
	return p
}

// takeRecord returns the record pass 1 made for an input, once, or nil.
// Calls for different inputs may run at once.
func (s *Sites) takeRecord(seq int) *Record {
	if s == nil || seq >= len(s.done) {
		return nil
	}
	r := s.done[seq]
	s.done[seq] = nil
	return r
}

// SiteLearner is pass 1 (DESIGN.md, "Batch runs in two passes"): it is
// given every input in order (Add), keeps every page URL and, per site,
// the block signatures of at most 2*SamplesPerGroup pages, parsed on the
// workers; Learn then groups the URLs (infholder.GroupKeys) and learns
// (or loads) each group's template from at most SamplesPerGroup of its
// samples. Memory is bounded by the samples, not by the input.
//
// A site's first pages wait, unparsed, until it has infholder.MinPages:
// a smaller site learns no template, so its pages need not be parsed at
// all (a crawl of many small sites). Their bodies cost nothing while the
// input is held for pass 2 anyway; otherwise they are capped, and past
// the cap the oldest site's bodies are let go: should that site reach
// MinPages later, a worker reads those pages again where they are stored
// (Learn reads the inputs again for those whose place is unknown). A
// page that comes without its body (a skimmed WARC) is read by a worker
// the same way, when it is sampled. With a templates folder
// every sampled page is parsed, since a saved template applies to a
// site's single page too. A run that reads its input twice keeps the
// trees of the first sampled pages (maxKeptBytes) and labels them once
// the templates are learned, so pass 2 writes their records without
// parsing them again.
type SiteLearner struct {
	ctx      context.Context
	opts     Options
	perGroup int
	perHost  int
	sig      infholder.Signature
	seq      int

	urls      []string
	pageSeq   []int32 // input sequence -> index in urls, -1 for inputs that are not pages
	hostCount map[string]int

	jobs        chan sampleJob
	wg          sync.WaitGroup
	mu          sync.Mutex
	samples     map[int]infholder.Sample // index in urls -> sample
	sampleRules map[int]ruleWords        // index in urls -> its rule's content words
	// keep holds, by input sequence, the pages parsed while keeping,
	// their bodies totalling at most keepMax bytes (< 0: no limit).
	keep               map[int]keptPage
	keptBytes, keepMax int64

	deferFirst bool
	first      map[string][]sampleJob // by site, its pages waiting
	firstOrder []string
	firstBytes int
	// letGone are the waiting pages whose bodies were let go and that
	// Learn must read again, each with where it is stored; source reads
	// the inputs again for them (nil: bodies are never let go).
	letGone []sampleJob
	source  func(fn func(Input) error) error

	held               []Input
	heldBytes, holdMax int64
	holding            bool
	closed             bool
}

type sampleJob struct {
	idx, seq int
	in       Input
}

// keptPage is a page pass 1 parsed and keeps for pass 2, with its
// input (without the body).
type keptPage struct {
	in   Input
	page *extract.Page
}

type ruleWords struct {
	rule  *xpathrules.Rule
	words int
}

// ruleWords is the site rule that matches a sampled page and its
// content words, which the rule's typical length is the median of.
func (o Options) ruleWords(p *extract.Page) ruleWords {
	rw := ruleWords{words: -1}
	if rw.rule = o.Stages.Rules.Match(p.URL); rw.rule != nil {
		rw.words = rw.rule.ContentWords(p)
	}
	return rw
}

// NewSiteLearner starts pass 1 for a run with opts; its parsing
// goroutines stop when Learn is called or ctx is done. hold is the most
// input bytes it keeps for pass 2 (0 keeps nothing).
func NewSiteLearner(ctx context.Context, opts Options, hold int64) *SiteLearner {
	l := &SiteLearner{ctx: ctx, opts: opts, perGroup: opts.samplesPerGroup(), perHost: opts.SitePageCap(), sig: opts.templateSignature(),
		hostCount: map[string]int{}, samples: map[int]infholder.Sample{}, sampleRules: map[int]ruleWords{},
		deferFirst: opts.templateStore() == nil, first: map[string][]sampleJob{},
		holdMax: hold, holding: hold > 0}
	workers := opts.workers()
	l.jobs = make(chan sampleJob, 2*workers)
	for range workers {
		l.wg.Go(l.parseSamples)
	}
	return l
}

// keepParsed makes the learner keep the pages it parses, for pass 2,
// while their bodies total at most max bytes (< 0: every page).
func (l *SiteLearner) keepParsed(max int64) {
	l.keep, l.keepMax = map[int]keptPage{}, max
}

// keptPages returns the pages the learner kept, by input sequence, for
// pass 2 to label without parsing them again (Sites.take).
func (l *SiteLearner) keptPages() []*extract.Page {
	parsed := make([]*extract.Page, l.seq)
	for sq, k := range l.keep {
		parsed[sq] = k.page
	}
	return parsed
}

// parseSamples parses sampled pages on a worker; the samples land in maps
// by page index, so the result does not depend on the workers' timing.
func (l *SiteLearner) parseSamples() {
	for j := range l.jobs {
		if j.in.Body == nil && j.in.at.path != "" {
			// Skimmed or let go: read where it is stored.
			body, ct, err := j.in.at.read()
			if err != nil {
				continue // pass 2 reads it again and tells
			}
			j.in.Body, j.in.ContentType = body, ct
		}
		p, smp, ok := l.opts.sample(j.in, l.sig)
		if !ok {
			continue // it becomes an error record in pass 2
		}
		rw := l.opts.ruleWords(p)
		l.mu.Lock()
		l.samples[j.idx] = smp
		if rw.rule != nil {
			l.sampleRules[j.idx] = rw
		}
		if l.keep != nil && (l.keepMax < 0 || l.keptBytes+int64(len(j.in.Body)) <= l.keepMax) {
			l.keptBytes += int64(len(j.in.Body))
			in := j.in
			in.Body = nil
			l.keep[j.seq] = keptPage{in, p}
		}
		l.mu.Unlock()
	}
}

func (l *SiteLearner) send(j sampleJob) error {
	select {
	case l.jobs <- j:
		return nil
	case <-l.ctx.Done():
		return l.ctx.Err()
	}
}

// sendFirst hands a waiting site's pages to the workers; those whose
// bodies were let go are read again in Learn.
func (l *SiteLearner) sendFirst(host string) error {
	for _, j := range l.first[host] {
		if j.in.Body == nil && j.in.at.path == "" {
			l.letGone = append(l.letGone, j)
			continue
		}
		l.firstBytes -= len(j.in.Body)
		if err := l.send(j); err != nil {
			return err
		}
	}
	delete(l.first, host)
	return nil
}

// letGo drops the bodies of the oldest waiting sites while the waiting
// bodies pass the cap; the input is not held, so nothing else keeps them.
func (l *SiteLearner) letGo() {
	for l.firstBytes > int(min(l.opts.holdBytes(), maxWaitingBytes)) && len(l.firstOrder) > 0 && l.source != nil && !l.holding {
		h := l.firstOrder[0]
		l.firstOrder = l.firstOrder[1:]
		for i, j := range l.first[h] {
			l.firstBytes -= len(j.in.Body)
			l.first[h][i].in.Body = nil
		}
	}
}

// Add gives pass 1 the next input, in input order. It may keep in
// (Body included) until Learn.
func (l *SiteLearner) Add(in Input) error {
	if err := l.ctx.Err(); err != nil {
		return err
	}
	seq := l.seq
	l.seq++
	l.hold(in)
	host, ok := PageSite(in)
	if !ok {
		l.pageSeq = append(l.pageSeq, -1)
		return nil
	}
	idx := len(l.urls)
	l.urls = append(l.urls, in.URL)
	l.pageSeq = append(l.pageSeq, int32(idx))
	if l.hostCount[host] >= l.perHost {
		return nil
	}
	l.hostCount[host]++
	j := sampleJob{idx: idx, seq: seq, in: in}
	if !l.deferFirst {
		return l.send(j)
	}
	switch n := l.hostCount[host]; {
	case n < infholder.MinPages:
		if n == 1 {
			l.firstOrder = append(l.firstOrder, host)
		}
		l.first[host] = append(l.first[host], j)
		l.firstBytes += len(j.in.Body)
		l.letGo()
		return nil
	case n == infholder.MinPages:
		if err := l.sendFirst(host); err != nil {
			return err
		}
	}
	return l.send(j)
}

// hold keeps the input for pass 2 while the inputs fit the hold limit,
// and gives up holding, for good, when they stop fitting.
func (l *SiteLearner) hold(in Input) {
	if !l.holding {
		return
	}
	if l.heldBytes += int64(len(in.Body)); l.heldBytes > l.holdMax {
		l.held, l.holding = nil, false
		return
	}
	l.held = append(l.held, in)
}

// readAgain reads the inputs again for the sampled pages whose bodies
// were let go and whose place is not known (the workers read the others
// where they are stored), and parses them.
func (l *SiteLearner) readAgain() error {
	if len(l.letGone) == 0 {
		return nil
	}
	idxOf := make(map[int]int, len(l.letGone)) // input sequence -> index in urls
	for _, j := range l.letGone {
		idxOf[j.seq] = j.idx
	}
	seq := 0
	return l.source(func(in Input) error {
		defer func() { seq++ }()
		if idx, ok := idxOf[seq]; ok {
			if in.URL != l.urls[idx] {
				return fmt.Errorf("pipeline: the input changed between readings (record %d: %s, was %s)", seq, in.URL, l.urls[idx])
			}
			return l.send(sampleJob{idx: idx, seq: seq, in: in})
		}
		return l.ctx.Err()
	})
}

// stop ends the parsing goroutines; it is safe to call twice.
func (l *SiteLearner) stop() {
	if !l.closed {
		l.closed = true
		close(l.jobs)
		l.wg.Wait()
	}
}

// Learn ends pass 1: it reads again the sampled pages whose bodies were
// let go, groups the pages and learns or loads each group's template, on
// the workers. The learner is done with afterwards.
func (l *SiteLearner) Learn() (*Sites, error) {
	if err := l.readAgain(); err != nil {
		l.stop()
		return nil, err
	}
	l.stop()
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	groupOf := infholder.GroupKeys(l.urls, infholder.MinPages)
	var groups []string
	var samples []infholder.Sample
	for idx := range l.urls {
		if s, ok := l.samples[idx]; ok {
			groups, samples = append(groups, groupOf[idx]), append(samples, s)
		}
	}
	st := &Sites{groups: make([]string, l.seq), typicalWords: l.typicalWords(), held: l.held}
	for sq, idx := range l.pageSeq {
		if idx >= 0 {
			st.groups[sq] = groupOf[idx]
		}
	}
	var err error
	st.templates, err = l.opts.LearnTemplates(groups, samples)
	return st, err
}

// LearnTemplates ends pass 1 for the sampled pages of any sites: given
// each sampled page's group (GroupKeys over all the sites' page URLs)
// and its sample, in input order, it keeps at most SamplesPerGroup
// samples per group, the first ones, and learns (or, with TemplatesDir,
// loads) the template of each group, on the workers. A group with fewer
// than infholder.MinPages samples has none. winnow run calls it once
// for the whole input, winnow-beam once per site: the outcome is the
// same, since a group lies within one site.
func (o Options) LearnTemplates(groups []string, samples []infholder.Sample) (map[string]*infholder.Template, error) {
	perGroup := o.samplesPerGroup()
	members := map[string][]infholder.Sample{}
	var order []string // the groups in order of their first sample
	for i, k := range groups {
		if len(members[k]) >= perGroup {
			continue
		}
		if _, seen := members[k]; !seen {
			order = append(order, k)
		}
		members[k] = append(members[k], samples[i])
	}
	tpls, err := o.learnGroups(order, members)
	if err != nil {
		return nil, err
	}
	out := map[string]*infholder.Template{}
	for i, k := range order {
		if tpls[i] != nil {
			out[k] = tpls[i]
		}
	}
	return out, nil
}

// typicalWords is each rule's median content words over the sampled pages.
func (l *SiteLearner) typicalWords() map[*xpathrules.Rule]int {
	words := map[*xpathrules.Rule][]int{}
	for idx := range l.urls {
		if rw, ok := l.sampleRules[idx]; ok {
			words[rw.rule] = append(words[rw.rule], rw.words)
		}
	}
	out := make(map[*xpathrules.Rule]int, len(words))
	for r, w := range words {
		out[r] = xpathrules.Typical(w)
	}
	return out
}

// learnGroups learns (or loads) the groups' templates on the workers, a
// template by group order; a group's pages are compared on the workers
// too, so that one large group does not leave them idle.
func (o Options) learnGroups(order []string, members map[string][]infholder.Sample) ([]*infholder.Template, error) {
	workers := o.workers()
	topts := o.Stages.Template
	if topts.Workers == 0 {
		topts.Workers = workers
	}
	store := o.templateStore()
	tpls := make([]*infholder.Template, len(order))
	errs := make([]error, len(order))
	par.Each(len(order), workers, func(i int) {
		k := order[i]
		if tpls[i] = loadTemplate(store, k, members[k]); tpls[i] == nil && len(members[k]) >= infholder.MinPages {
			tpls[i] = infholder.LearnSamples(k, members[k], topts)
			if store != nil {
				errs[i] = store.Save(tpls[i])
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return tpls, nil
}

// learnSites is pass 1 over the inputs of a run. res, when not nil, is
// told where the WARC subresources are.
func learnSites(ctx context.Context, paths []string, opts Options, res *warcResources) (*Sites, error) {
	var hold int64
	if h := opts.holdBytes(); h > 0 && inputBytes(paths) <= h {
		hold = h
	}
	l := NewSiteLearner(ctx, opts, hold)
	if hold == 0 {
		// The held bodies are the live heap pass 1 may take; an input
		// read twice leaves room for some trees.
		l.keepParsed(maxKeptBytes)
	}
	// Pass 1 reads the pages it samples only: unless it holds the input
	// for pass 2, WARC files are skimmed and the workers read the
	// sampled pages' bodies where they are stored.
	skim := hold == 0
	l.source = func(fn func(Input) error) error {
		return opts.readInputs(paths, fn, nil, opts.workers(), opts.pageLimit(), skim)
	}
	var onResource func(url, path string, offset int64)
	if res != nil {
		onResource = res.add
	}
	err := opts.readInputs(paths, l.Add, onResource, opts.workers(), opts.pageLimit(), skim)
	if err != nil {
		l.stop()
		return nil, err
	}
	st, err := l.Learn()
	if err != nil {
		return nil, err
	}
	st.labelKept(ctx, opts, l.keep)
	return st, ctx.Err()
}

// labelKept labels the pages pass 1 kept, on the workers, and keeps
// their records instead of their trees (a tree is several times the
// size of its page, a record a fraction of it).
func (s *Sites) labelKept(ctx context.Context, opts Options, kept map[int]keptPage) {
	if len(kept) == 0 {
		return
	}
	seqs := slices.DeleteFunc(slices.Sorted(maps.Keys(kept)), func(sq int) bool { return sq < opts.Skip })
	s.done = make([]*Record, len(s.groups))
	par.Each(len(seqs), opts.workers(), func(i int) {
		sq := seqs[i]
		s.done[sq], _ = opts.Stages.record(ctx, kept[sq].in, kept[sq].page, s, s.Group(sq), opts.Record)
	})
}

// TemplateStore keeps saved site templates (Options.Templates), each in
// a file named infholder.FileName(group) as infholder.Template.Save
// writes it. Its methods may be called from several goroutines at once.
type TemplateStore interface {
	// Open returns the saved template file of a group, or an error
	// when there is none.
	Open(group string) (io.ReadCloser, error)
	// Save keeps a newly learned template, replacing a saved one.
	Save(tpl *infholder.Template) error
}

// templateStore is Templates, else the folder TemplatesDir, else nil.
func (o Options) templateStore() TemplateStore {
	switch {
	case o.Templates != nil:
		return o.Templates
	case o.TemplatesDir != "":
		return dirStore(o.TemplatesDir)
	}
	return nil
}

// dirStore is a folder of templates (winnow run --templates DIR).
type dirStore string

func (d dirStore) Open(group string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(string(d), infholder.FileName(group)))
}

// minFit is the mean Fit below which a saved template no longer fits its
// site's pages and is relearned.
const minFit = 0.5

// loadTemplate returns the saved template of a group when there is one
// of this version and it still fits the group's sampled pages.
func loadTemplate(store TemplateStore, group string, samples []infholder.Sample) *infholder.Template {
	if store == nil {
		return nil
	}
	f, err := store.Open(group)
	if err != nil {
		return nil
	}
	defer f.Close()
	tpl, err := infholder.Load(f)
	if err != nil || tpl.Group != group {
		return nil
	}
	if len(samples) > 0 {
		fit := 0.0
		for _, s := range samples {
			fit += tpl.Fit(s)
		}
		if fit/float64(len(samples)) < minFit {
			return nil // the site changed its layout: relearn
		}
	}
	return tpl
}

func (d dirStore) Save(tpl *infholder.Template) error {
	dir := string(d)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, infholder.FileName(tpl.Group))
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = tpl.Save(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp) // a failed save leaves no half-written file behind
	}
	return err
}
