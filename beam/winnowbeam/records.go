package winnowbeam

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// fileRef is one manifest line: the file's number and its path as
// written.
type fileRef struct {
	Index int
	Path  string
}

// The stages whose shuffled bytes are counted (counter shuffle.STAGE.bytes).
const (
	stageTemplates = "templates"
	stageDedup     = "dedup"
	stageRecords   = "records"
)

var shuffleCounters = map[string]beam.Counter{
	stageTemplates: beam.NewCounter("winnow", "shuffle."+stageTemplates+".bytes"),
	stageDedup:     beam.NewCounter("winnow", "shuffle."+stageDedup+".bytes"),
	stageRecords:   beam.NewCounter("winnow", "shuffle."+stageRecords+".bytes"),
}

// shuffled counts n bytes (key and value) sent into a shuffle.
func shuffled(ctx context.Context, stage string, n int) {
	shuffleCounters[stage].Inc(ctx, int64(n))
}

var (
	pagesRead   = beam.NewCounter("winnow", "records")
	pagesOK     = beam.NewCounter("winnow", "records.ok")
	pagesError  = beam.NewCounter("winnow", "records.error")
	pagesSkiped = beam.NewCounter("winnow", "records.skipped")
)

// scanFn reads a file once: every page's site and place, and the
// file's number of records.
type scanFn struct {
	Conf conf
	set  Settings
}

func (f *scanFn) Setup() { f.set = f.Conf.settings() }

func (f *scanFn) ProcessElement(ctx context.Context, fr fileRef, emitPage func(string, []byte), emitCount func(int, int)) {
	n := readFile(ctx, fr.Path, func(rec int, in pipeline.Input) {
		if f.set.SinglePage {
			return
		}
		if host, ok := pipeline.PageSite(in); ok {
			b := encodePageRef(pageRef{At: place{fr.Index, rec}, URL: in.URL})
			shuffled(ctx, stageTemplates, len(b)+len(host))
			emitPage(host, b)
		}
	})
	emitCount(fr.Index, n)
}

// firstIDs returns, per file number, the place in winnow run's output
// of the file's first record.
func firstIDs(counts func(*int, *int) bool) map[int]int {
	n := map[int]int{}
	var file, c int
	for counts(&file, &c) {
		n[file] = c
	}
	files := make([]int, 0, len(n))
	for f := range n {
		files = append(files, f)
	}
	slices.Sort(files)
	first, id := map[int]int{}, 0
	for _, f := range files {
		first[f] = id
		id += n[f]
	}
	return first
}

// recordFn reads a file a last time and makes every input's record with
// its site's template: the record winnow run writes. Without
// near-duplicates each record goes to its shard; with them, to the
// component join, and its candidate keys to the band shuffle.
type recordFn struct {
	Conf  conf
	set   Settings
	opts  pipeline.Options
	keyer *pipeline.CandidateKeyer
	first map[int]int // firstIDs of the side input, which never changes
	// typical is each site rule's typical length (the side input, which
	// never changes either; nil until read).
	typical map[*xpathrules.Rule]int
}

func (f *recordFn) Setup() (err error) {
	f.set = f.Conf.settings()
	if f.opts, err = f.set.options(); err != nil {
		return err
	}
	if f.set.Dedup != nil {
		f.keyer, err = pipeline.NewCandidateKeyer(*f.set.Dedup)
	}
	return err
}

// typicalWords reads the rules' typical lengths, by rule number.
func (f *recordFn) typicalWords(typical func(*int, *int) bool) map[*xpathrules.Rule]int {
	out := map[*xpathrules.Rule]int{}
	var no, words int
	for typical(&no, &words) {
		if rs := f.opts.Stages.Rules; rs != nil && no < len(rs.Rules) {
			out[rs.Rules[no]] = words
		}
	}
	return out
}

func (f *recordFn) ProcessElement(ctx context.Context, file int, paths func(*string) bool, sites func(*[]byte) bool,
	counts func(*int, *int) bool, typical func(*int, *int) bool, emit func(int, []byte), emitKey func(int64, []byte)) error {
	var path string
	paths(&path)
	byHost := map[string]siteTemplates{}
	templates := map[string]*infholder.Template{}
	var b []byte
	for sites(&b) {
		var st siteTemplates
		if err := json.Unmarshal(b, &st); err != nil {
			return fmt.Errorf("winnowbeam: templates of file %d: %w", file, err)
		}
		byHost[st.Host] = st
		for k, t := range st.Templates {
			templates[k] = t
		}
	}
	if f.typical == nil {
		f.typical = f.typicalWords(typical)
	}
	var known *pipeline.Sites
	if !f.set.SinglePage {
		known = pipeline.NewSites(templates, f.typical)
	}
	if f.first == nil {
		f.first = firstIDs(counts)
	}
	first := f.first[file]
	shards := f.set.shards()
	var err error
	readFile(ctx, path, func(rec int, in pipeline.Input) {
		if err != nil {
			return
		}
		group := ""
		if host, ok := pipeline.PageSite(in); ok && known != nil {
			group = byHost[host].Groups[dirKey(in.URL)]
		}
		r := f.opts.Stages.Record(ctx, in, known, group, f.opts.Record)
		count(ctx, r)
		var buf bytes.Buffer
		if err = pipeline.WriteRecord(&buf, r); err != nil {
			return
		}
		id := first + rec
		if f.keyer == nil {
			v := encodeIDLine(id, buf.Bytes())
			shuffled(ctx, stageRecords, len(v)+8)
			emit(shardOf(id, shards), v)
			return
		}
		keys, fp := f.keyer.Keys(buf.Bytes())
		if len(keys) > 0 {
			v := encodeKeyed(id, fp, f.set.Dedup.Method == dedup.MethodSimHash)
			for _, k := range keys {
				shuffled(ctx, stageDedup, len(v)+8)
				emitKey(int64(k), v)
			}
		}
		shuffled(ctx, stageRecords, buf.Len()+8)
		emit(id, buf.Bytes())
	})
	return err
}

func count(ctx context.Context, r *pipeline.Record) {
	pagesRead.Inc(ctx, 1)
	switch r.Status {
	case pipeline.StatusOK:
		pagesOK.Inc(ctx, 1)
	case pipeline.StatusError:
		pagesError.Inc(ctx, 1)
	case pipeline.StatusSkipped:
		pagesSkiped.Inc(ctx, 1)
	}
}

// shardOf spreads records (or, with near-duplicates, whole components,
// named by their first record) over the shards.
func shardOf(id, shards int) int {
	x := uint64(id) * 0x9e3779b97f4a7c15
	return int((x >> 32) % uint64(shards))
}

// edgesFn links the records that share a candidate key and are
// candidates (pipeline.CandidateKeyer.Candidates: with SimHash, within
// K bits): the candidates' components, each as a star from its first
// record (the components are the same as with every pair).
type edgesFn struct {
	Conf   conf
	keyer  *pipeline.CandidateKeyer
	verify bool // SimHash: a shared key makes a candidate within K bits
}

func (f *edgesFn) Setup() (err error) {
	d := *f.Conf.settings().Dedup
	f.verify = d.Method == dedup.MethodSimHash
	f.keyer, err = pipeline.NewCandidateKeyer(d)
	return err
}

func (f *edgesFn) ProcessElement(ctx context.Context, _ int64, vals func(*[]byte) bool, emit func(int, int)) error {
	var all []keyed
	var v []byte
	for vals(&v) {
		k, err := decodeKeyed(v)
		if err != nil {
			return err
		}
		all = append(all, k)
	}
	if len(all) < 2 {
		return nil
	}
	slices.SortFunc(all, func(a, b keyed) int { return cmp.Compare(a.ID, b.ID) })
	all = slices.CompactFunc(all, func(a, b keyed) bool { return a.ID == b.ID })
	var u unionFind
	if f.verify {
		u = linkNear(all, f.keyer.Candidates)
	} else {
		u = make(unionFind, len(all)) // MinHash: a shared band makes a candidate
	}
	for j := range all {
		if r := u.find(j); r != j {
			emit(all[r].ID, all[j].ID)
		}
	}
	return nil
}

// linkNear returns the components of the candidate pairs among records
// sorted by id: a pair is a candidate when near says so of their
// fingerprints. Records with one fingerprint are one component without
// a comparison (a fingerprint is within any K bits of itself), so near
// is asked only of pairs of distinct fingerprints: a million copies of
// one error page under a key cost a sort, not a million squared
// comparisons.
func linkNear(all []keyed, near func(a, b uint64) bool) unionFind {
	u := newUnionFind(len(all))
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(all[a].FP, all[b].FP) })
	var reps []int // the first record of each distinct fingerprint
	for n, i := range order {
		if n > 0 && all[order[n-1]].FP == all[i].FP {
			u.union(reps[len(reps)-1], i)
			continue
		}
		reps = append(reps, i)
	}
	for x, i := range reps {
		for _, j := range reps[x+1:] {
			if u.find(i) != u.find(j) && near(all[i].FP, all[j].FP) {
				u.union(i, j)
			}
		}
	}
	return u
}

// assignFn sends each record to the shard of its component.
type assignFn struct {
	Shards int
}

func (f *assignFn) ProcessElement(ctx context.Context, id int, lines func(*[]byte) bool, comps func(*int) bool, emit func(int, []byte)) {
	var line []byte
	if !lines(&line) {
		return
	}
	comp := id
	comps(&comp)
	v := encodeIDLine(id, line)
	shuffled(ctx, stageRecords, len(v)+8)
	emit(shardOf(comp, f.Shards), v)
}
