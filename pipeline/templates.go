package pipeline

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/xpathrules"
)

// maxFirstBytes caps the bodies of sites' first pages kept in pass 1
// until the site has infholder.MinPages.
const maxFirstBytes = 64 << 20

// DefaultHoldBytes is the default for Options.HoldBytes.
const DefaultHoldBytes = 256 << 20

// DefaultSamplesPerGroup is the default for Options.SamplesPerGroup.
const DefaultSamplesPerGroup = 40

// siteTemplates is what pass 1 learns: a group key per page (by input
// order) and a template per group.
type siteTemplates struct {
	keys      []string // by input sequence; "" for inputs that are not pages
	templates map[string]*infholder.Template
	typical   map[*xpathrules.Rule]int // each rule's median content words over the sampled pages
	// held is every input in order, bodies included, when they total at
	// most Options.HoldBytes; nil when pass 2 must read the input again.
	held []Input
}

// learnTemplates is pass 1 (DESIGN.md, "Batch runs in two passes"): it
// reads the inputs once, keeps every page URL and, per host, the block
// signatures of at most samplesPerGroup*8 pages, groups the URLs
// (infholder.GroupKeys), and learns each group's template from at most
// samplesPerGroup of its sampled pages. Memory is bounded by the samples,
// not by the input.
func learnTemplates(ctx context.Context, paths []string, opts Options, res *warcResources) (*siteTemplates, error) {
	perGroup := opts.SamplesPerGroup
	if perGroup <= 0 {
		perGroup = DefaultSamplesPerGroup
	}
	perHost := perGroup * 2
	sig := opts.Template.Signature
	if sig == "" {
		sig = infholder.SigContent
	}
	var urls []string
	var pageSeq []int32 // input sequence -> index in urls, -1 for inputs that are not pages
	hostCount := map[string]int{}
	samples := map[int]infholder.Sample{} // index in urls -> sample
	type ruleWords struct {
		rule  *xpathrules.Rule
		words int
	}
	sampleRules := map[int]ruleWords{} // index in urls -> its rule's content words
	seq := 0
	// Sampled pages are parsed by workers; the samples land in a map by
	// page index, so the result does not depend on their timing.
	type job struct {
		idx  int
		body []byte
		eo   extract.Options
	}
	workers := opts.workers()
	jobs := make(chan job, 2*workers)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				p, err := extract.Parse(j.body, j.eo)
				if err != nil {
					continue // it becomes an error record in pass 2
				}
				smp := infholder.NewSample(p, sig)
				rw := ruleWords{words: -1}
				if rw.rule = opts.Rules.Match(p.URL); rw.rule != nil {
					rw.words = rw.rule.ContentWords(p)
				}
				mu.Lock()
				samples[j.idx] = smp
				if rw.rule != nil {
					sampleRules[j.idx] = rw
				}
				mu.Unlock()
			}
		})
	}
	send := func(j job) error {
		select {
		case jobs <- j:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// Saved templates apply to a site's single page too, so with a
	// templates folder every sampled page is parsed.
	defer1 := opts.TemplatesDir == ""
	first := map[string][]job{} // by site, its pages waiting
	var firstOrder []string
	firstBytes := 0
	sendFirst := func(host string) error {
		for _, j := range first[host] {
			firstBytes -= len(j.body)
			if err := send(j); err != nil {
				return err
			}
		}
		delete(first, host)
		return nil
	}
	var held []Input
	holdBytes := opts.holdBytes()
	heldBytes, holding := int64(0), holdBytes > 0 && inputBytes(paths) <= holdBytes
	var onResource func(url, path string, offset int64)
	if res != nil {
		onResource = res.add
	}
	err := readInputs(paths, func(in Input) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		defer func() { seq++ }()
		if holding {
			if heldBytes += int64(len(in.Body)); heldBytes > holdBytes {
				held, holding = nil, false
			} else {
				held = append(held, in)
			}
		}
		if in.Status != "" || in.URL == "" {
			pageSeq = append(pageSeq, -1)
			return nil
		}
		idx := len(urls)
		urls = append(urls, in.URL)
		pageSeq = append(pageSeq, int32(idx))
		host, _ := infholder.Site(in.URL)
		if hostCount[host] >= perHost {
			return nil
		}
		hostCount[host]++
		eo := opts.Extract
		eo.URL, _ = url.Parse(in.URL)
		eo.ContentType = in.ContentType
		j := job{idx, in.Body, eo}
		if !defer1 {
			return send(j)
		}
		// A site's first pages wait until it has infholder.MinPages: a
		// smaller site learns no template, so its pages need not be
		// parsed at all (a crawl of many small sites, a test set of one
		// page per site). The waiting bodies are capped; past the cap
		// the oldest site's are parsed after all.
		switch n := hostCount[host]; {
		case n < infholder.MinPages:
			if n == 1 {
				firstOrder = append(firstOrder, host)
			}
			first[host] = append(first[host], j)
			firstBytes += len(j.body)
			for firstBytes > maxFirstBytes && len(firstOrder) > 0 {
				h := firstOrder[0]
				firstOrder = firstOrder[1:]
				if err := sendFirst(h); err != nil {
					return err
				}
			}
			return nil
		case n == infholder.MinPages:
			if err := sendFirst(host); err != nil {
				return err
			}
		}
		return send(j)
	}, onResource, opts.workers())
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	groupOf := infholder.GroupKeys(urls, infholder.MinPages)
	members := map[string][]infholder.Sample{}
	var order []string
	for idx := range urls {
		s, ok := samples[idx]
		if !ok {
			continue
		}
		k := groupOf[idx]
		if len(members[k]) >= perGroup {
			continue
		}
		if _, seen := members[k]; !seen {
			order = append(order, k)
		}
		members[k] = append(members[k], s)
	}
	st := &siteTemplates{keys: make([]string, seq), templates: map[string]*infholder.Template{}, typical: map[*xpathrules.Rule]int{}, held: held}
	words := map[*xpathrules.Rule][]int{}
	for idx := range urls {
		if rw, ok := sampleRules[idx]; ok {
			words[rw.rule] = append(words[rw.rule], rw.words)
		}
	}
	for r, w := range words {
		st.typical[r] = xpathrules.Typical(w)
	}
	for sq, idx := range pageSeq {
		if idx >= 0 {
			st.keys[sq] = groupOf[idx]
		}
	}
	// Groups are learned (or loaded) on the workers and stored in group
	// order; a group's pages are compared on the workers too, so that one
	// large group does not leave them idle.
	topts := opts.Template
	if topts.Workers == 0 {
		topts.Workers = workers
	}
	tpls := make([]*infholder.Template, len(order))
	errs := make([]error, len(order))
	par.Each(len(order), workers, func(i int) {
		k := order[i]
		if tpls[i] = loadTemplate(opts.TemplatesDir, k, members[k]); tpls[i] == nil && len(members[k]) >= infholder.MinPages {
			tpls[i] = infholder.LearnSamples(k, members[k], topts)
			errs[i] = saveTemplate(opts.TemplatesDir, tpls[i])
		}
	})
	for i, k := range order {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if tpls[i] != nil {
			st.templates[k] = tpls[i]
		}
	}
	return st, nil
}

// minFit is the mean Fit below which a saved template no longer fits its
// site's pages and is relearned.
const minFit = 0.5

// loadTemplate returns the saved template of a group when there is one
// of this version and it still fits the group's sampled pages.
func loadTemplate(dir, group string, samples []infholder.Sample) *infholder.Template {
	if dir == "" {
		return nil
	}
	f, err := os.Open(filepath.Join(dir, infholder.FileName(group)))
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

func saveTemplate(dir string, tpl *infholder.Template) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, infholder.FileName(tpl.Group))
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := tpl.Save(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
