package winnowbeam

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// dirKey names the directories of a page URL's path (infholder.Site):
// what infholder.GroupKeys reads of a URL beside its host.
func dirKey(url string) string {
	_, dirs := infholder.Site(url)
	return strings.Join(dirs, "/")
}

// siteAcc is the site combiner's accumulator: the site's first pages by
// place (at most the cap), each directory with a URL in it and its
// number of pages, and the files holding its pages with the directories
// of their pages (at most one entry a page).
type siteAcc struct {
	First []pageRef
	Dirs  map[string]dirCount
	Files map[int]map[string]bool
}

type dirCount struct {
	URL string
	N   int
}

// sitePlan is what the combiner gives for a site: its first pages (the
// ones pass 1 samples), the group of each directory, and its files with
// the directories of their pages, in order.
type sitePlan struct {
	First  []pageRef
	Groups map[string]string
	Files  map[int][]string
}

// siteCombine keeps per site what pass 1 of winnow run keeps: the first
// Cap pages (by place, so that the choice does not depend on the order
// in which bundles arrive) and what grouping the site's URLs needs.
type siteCombine struct {
	Cap int
}

func (c *siteCombine) CreateAccumulator() siteAcc {
	return siteAcc{Dirs: map[string]dirCount{}, Files: map[int]map[string]bool{}}
}

func (c *siteCombine) AddInput(a siteAcc, b []byte) siteAcc {
	r, err := decodePageRef(b)
	if err != nil {
		panic(err) // written by scanFn: a bug, not input
	}
	dir := dirKey(r.URL)
	return c.MergeAccumulators(a, siteAcc{First: []pageRef{r},
		Dirs: map[string]dirCount{dir: {r.URL, 1}}, Files: map[int]map[string]bool{r.At.File: {dir: true}}})
}

func (c *siteCombine) MergeAccumulators(a, b siteAcc) siteAcc {
	if a.Dirs == nil {
		a.Dirs = map[string]dirCount{} // empty maps decode as nil
	}
	if a.Files == nil {
		a.Files = map[int]map[string]bool{}
	}
	first := append(a.First, b.First...)
	sort.Slice(first, func(i, j int) bool { return first[i].At.less(first[j].At) })
	a.First = first[:min(len(first), c.Cap)]
	for k, d := range b.Dirs {
		have, ok := a.Dirs[k]
		if !ok || d.URL < have.URL {
			have.URL = d.URL // any URL of the directory does; the least, for equal bytes
		}
		have.N += d.N
		a.Dirs[k] = have
	}
	for f, dirs := range b.Files {
		if a.Files[f] == nil {
			a.Files[f] = map[string]bool{}
		}
		for d := range dirs {
			a.Files[f][d] = true
		}
	}
	return a
}

// ExtractOutput groups the site's URLs as winnow run does: a URL stands
// for each page of its directory, since GroupKeys reads no more of them.
func (c *siteCombine) ExtractOutput(a siteAcc) sitePlan {
	keys := slices.Sorted(maps.Keys(a.Dirs))
	var urls []string
	for _, k := range keys {
		for range a.Dirs[k].N {
			urls = append(urls, a.Dirs[k].URL)
		}
	}
	groupOf := infholder.GroupKeys(urls, infholder.MinPages)
	p := sitePlan{First: a.First, Groups: map[string]string{}, Files: map[int][]string{}}
	for f, dirs := range a.Files {
		p.Files[f] = slices.Sorted(maps.Keys(dirs))
	}
	i := 0
	for _, k := range keys {
		p.Groups[k] = groupOf[i]
		i += a.Dirs[k].N
	}
	return p
}

// siteTemplates is what a file needs of one of its sites: the group of
// each directory of its pages and those groups' templates.
type siteTemplates struct {
	Host      string                         `json:"host"`
	Groups    map[string]string              `json:"groups"`
	Templates map[string]*infholder.Template `json:"templates,omitempty"`
}

// requestFn asks each file holding a site's first pages to sample them,
// telling it how many the site has (whether the rule words count).
type requestFn struct{}

func (requestFn) ProcessElement(ctx context.Context, host string, p sitePlan, emit func(int, []byte)) {
	for _, r := range p.First {
		var e enc
		e.int(r.At.Rec)
		e.str(host)
		e.int(len(p.First))
		shuffled(ctx, stageTemplates, len(e.b)+8)
		emit(r.At.File, e.b)
	}
}

// sampleFn reads a file again and samples the pages asked for; with
// site rules, each sampled page that a rule matches also gives the rule
// (its number) and its content words, when pass 1 would count them.
type sampleFn struct {
	Conf   conf
	opts   pipeline.Options
	ruleNo map[*xpathrules.Rule]int
}

func (f *sampleFn) Setup() (err error) {
	f.opts, err = f.Conf.settings().options()
	f.ruleNo = ruleNumbers(f.opts.Stages.Rules)
	return err
}

// ruleNumbers numbers the rules of a set: workers compile the same
// files into the same rules, in the same order.
func ruleNumbers(set *xpathrules.Set) map[*xpathrules.Rule]int {
	no := map[*xpathrules.Rule]int{}
	if set != nil {
		for i, r := range set.Rules {
			no[r] = i
		}
	}
	return no
}

type sampleReq struct {
	host  string
	pages int
}

func (f *sampleFn) ProcessElement(ctx context.Context, file int, paths func(*string) bool, reqs func(*[]byte) bool, emit func(string, []byte), emitWords func(int, int)) error {
	var path string
	paths(&path)
	want := map[int]sampleReq{}
	var b []byte
	for reqs(&b) {
		d := dec{b: b}
		rec, host, pages := d.int(), d.str(), d.int()
		if d.err != nil {
			return d.err
		}
		want[rec] = sampleReq{host, pages}
	}
	if len(want) == 0 {
		return nil
	}
	readFile(ctx, path, func(rec int, in pipeline.Input) {
		req, ok := want[rec]
		if !ok {
			return
		}
		s, rule, words, ok := f.opts.SampleRule(in)
		out := encodeSample(sampleOut{At: place{file, rec}, OK: ok, Sample: s})
		shuffled(ctx, stageTemplates, len(out)+len(req.host))
		emit(req.host, out)
		if rule != nil && f.opts.SamplesRuleWords(req.pages) {
			shuffled(ctx, stageTemplates, 16)
			emitWords(f.ruleNo[rule], words)
		}
	})
	return nil
}

// typicalFn is a rule's typical length: the median of its words over
// the sampled pages (xpathrules.Typical).
func typicalFn(rule int, words func(*int) bool) (int, int) {
	var all []int
	var w int
	for words(&w) {
		all = append(all, w)
	}
	return rule, xpathrules.Typical(all)
}

// learnFn learns a site's templates from its samples and sends each
// file of the site what its pages need (sitePlan.forFile).
type learnFn struct {
	Conf conf
	opts pipeline.Options
	dir  string // Settings.TemplatesDir, read once in Setup
}

func (f *learnFn) Setup() (err error) {
	set := f.Conf.settings()
	f.dir = set.TemplatesDir
	f.opts, err = set.options()
	return err
}

func (f *learnFn) ProcessElement(ctx context.Context, host string, plans func(*sitePlan) bool, samples func(*[]byte) bool, emit func(int, []byte)) error {
	var p sitePlan
	if !plans(&p) {
		return nil
	}
	urlAt := map[place]string{}
	for _, r := range p.First {
		urlAt[r.At] = r.URL
	}
	var outs []sampleOut
	var b []byte
	for samples(&b) {
		s, err := decodeSample(b)
		if err != nil {
			return err
		}
		if s.OK {
			outs = append(outs, s)
		}
	}
	sort.Slice(outs, func(i, j int) bool { return outs[i].At.less(outs[j].At) })
	groups := make([]string, len(outs))
	smp := make([]infholder.Sample, len(outs))
	for i, s := range outs {
		groups[i], smp[i] = p.Groups[dirKey(urlAt[s.At])], s.Sample
	}
	opts := f.opts
	if f.dir != "" {
		opts.Templates = fsStore{ctx: ctx, dir: f.dir}
	}
	tpls, err := opts.LearnTemplates(groups, smp)
	if err != nil {
		return err
	}
	templatesLearned.Inc(ctx, int64(len(tpls)))
	for _, file := range slices.Sorted(maps.Keys(p.Files)) {
		out, err := json.Marshal(p.forFile(host, file, tpls))
		if err != nil {
			return err
		}
		shuffled(ctx, stageTemplates, len(out)+8)
		emit(file, out)
	}
	return nil
}

// forFile is what a file needs of its site: the groups of the
// directories of its pages and their templates, not the whole site's.
// A site whose pages lie in many files thus sends each file at most a
// group and a template a page of the file.
func (p sitePlan) forFile(host string, file int, tpls map[string]*infholder.Template) siteTemplates {
	st := siteTemplates{Host: host, Groups: map[string]string{}, Templates: map[string]*infholder.Template{}}
	for _, dir := range p.Files[file] {
		g := p.Groups[dir]
		st.Groups[dir] = g
		if t, ok := tpls[g]; ok {
			st.Templates[g] = t
		}
	}
	return st
}

var templatesLearned = beam.NewCounter("winnow", "templates")

// fsStore keeps site templates in a folder of any of Beam's filesystems
// (winnow run --templates DIR's files, the same names and bytes).
type fsStore struct {
	ctx context.Context
	dir string
}

func (s fsStore) path(group string) string {
	return strings.TrimSuffix(s.dir, "/") + "/" + infholder.FileName(group)
}

// Open returns the saved template file of a group.
func (s fsStore) Open(group string) (io.ReadCloser, error) {
	fs, err := filesystem.New(s.ctx, s.path(group))
	if err != nil {
		return nil, err
	}
	r, err := fs.OpenRead(s.ctx, s.path(group))
	if err != nil {
		fs.Close()
		return nil, err
	}
	return closeBoth{r, fs}, nil
}

// Save writes a template whole (writeAtomic).
func (s fsStore) Save(tpl *infholder.Template) error {
	return writeAtomic(s.ctx, s.path(tpl.Group), tpl.Save)
}

// closeBoth closes a file and then its filesystem.
type closeBoth struct {
	io.ReadCloser
	fs io.Closer
}

func (c closeBoth) Close() error {
	err := c.ReadCloser.Close()
	c.fs.Close()
	return err
}
