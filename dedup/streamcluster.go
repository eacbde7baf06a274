package dedup

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/cespare/xxhash/v2"

	"github.com/winnow-go/winnow/internal/par"
)

// nearGroupCap is the largest candidate group (documents sharing one
// key, or with SimHash one table's leading bits) whose cross-cluster pairs are checked for near-duplicates: a
// bucket of a million identical pages would otherwise cost a trillion
// comparisons. The clustering itself reads every group.
const nearGroupCap = 1000

// candMetaBytes is what a candidate document's tables hold beside its
// URL and sketch: its Doc, location, and clustering state.
const candMetaBytes = 200

// clusterer is the state of Streamer.Finish.
type clusterer struct {
	s      *Streamer
	cfg    Config
	budget int64
	held   int64 // bytes of the tables

	cands []uint32 // documents with candidates, increasing
	// Key methods: groups of candidate indices sharing a key (gstart
	// indexes members), and each candidate's groups (dstart indexes
	// dgroups).
	gstart, members []int32
	dstart, dgroups []int32
	ix              *Index // MethodSimHash: over the distinct fingerprints
	// MethodSimHash: the documents of each distinct fingerprint (fpStart
	// indexes fpDocs), and each document's distinct fingerprint.
	fpStart []int32
	fpDocs  []uint32
	fpOf    []int32

	meta      []Doc
	loc       []docLoc
	feats     []verifyFeats
	hasFeat   []bool
	featBytes int64
	sketch    []byte
	hasSketch []bool
	order     []int32
	margin    float64

	exact   map[uint64]float64 // pairs verified on their features
	pending map[uint64]struct{}

	placed []bool
	centre []int32
	size   []int32
	near   []int32
	nearS  []float64
	mark   []uint32
	epoch  uint32
	cbuf   []int32

	candidates, verified, clusters, duplicates int
	examined                                   int // SimHash table entries
	estimated, exactN                          int
}

type docLoc struct {
	off int64
	n   int32
}

// keyCandidates reads the sorted keys into groups.
func (c *clusterer) keyCandidates() error {
	s := c.s
	seen := map[uint64][]int32{}
	gstart := []int32{0}
	var members []uint32
	containment := s.cfg.Measure == MeasureContainment
	err := s.sorter.groups(func(key uint64, ids []uint32) error {
		if containment && len(ids) > maxContainmentGroup && isContainmentKey(key) {
			return nil // a stock phrase (containmentKeys)
		}
		h := xxhash.New()
		var b [4]byte
		for _, id := range ids {
			binary.LittleEndian.PutUint32(b[:], id)
			h.Write(b[:])
		}
		sum := h.Sum64()
		for _, g := range seen[sum] {
			if slices.Equal(members[gstart[g]:gstart[g+1]], ids) {
				return nil // the same documents share another band
			}
		}
		seen[sum] = append(seen[sum], int32(len(gstart)-1))
		members = append(members, ids...)
		if len(members) > math.MaxInt32 {
			return fmt.Errorf("%w: more than %d candidate group members", ErrMemory, math.MaxInt32)
		}
		gstart = append(gstart, int32(len(members)))
		if held := int64(len(members))*4 + int64(len(gstart))*4 + int64(len(seen))*64; held > c.budget/2 {
			return fmt.Errorf("%w: the candidate groups (%d members) need more than %d MB", ErrMemory, len(members), c.budget/2>>20)
		}
		return nil
	})
	if err != nil {
		return err
	}
	seen = nil
	marks := make([]uint64, (s.n+63)/64)
	for _, id := range members {
		marks[id/64] |= 1 << (id % 64)
	}
	c.cands = fromMarks(marks, s.n)
	c.gstart = gstart
	c.members = make([]int32, len(members))
	for i, id := range members {
		c.members[i] = int32(candIndex(c.cands, id))
	}
	// Each candidate's groups.
	c.dstart = make([]int32, len(c.cands)+1)
	for _, k := range c.members {
		c.dstart[k+1]++
	}
	for k := range c.cands {
		c.dstart[k+1] += c.dstart[k]
	}
	c.dgroups = make([]int32, len(c.members))
	fill := slices.Clone(c.dstart[:len(c.cands)])
	for g := range len(gstart) - 1 {
		for _, k := range c.members[gstart[g]:gstart[g+1]] {
			c.dgroups[fill[k]] = int32(g)
			fill[k]++
		}
	}
	c.held = int64(len(c.members))*8 + int64(len(gstart)+len(c.dstart))*4 + int64(len(c.cands))*4
	return nil
}

// fromMarks lists the marked ids.
func fromMarks(marks []uint64, n int) []uint32 {
	var out []uint32
	for id := range n {
		if marks[id/64]&(1<<(id%64)) != 0 {
			out = append(out, uint32(id))
		}
	}
	return out
}

// simhashCandidates builds Manku's tables over the distinct
// fingerprints and keeps the documents with a candidate: another
// document with the same fingerprint or one within K bits. Copies of a
// page share one entry of the tables, so a million of them cost no
// million queries of a million entries each.
func (c *clusterer) simhashCandidates() error {
	s := c.s
	layout, err := PlanProbeLayout(c.cfg.K, s.n, 0)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	// About 10 bytes a document beside the tables (fpDocs and fpOf, 4
	// each; fpStart and the candidate marks), and one more while the
	// fingerprints are searched (a flag each).
	held := layout.IndexBytes(s.n) + 10*int64(s.n)
	if need := held + int64(s.n); need > c.budget {
		return fmt.Errorf("%w: SimHash tables for %d documents need %d MB", ErrMemory, s.n, need>>20)
	}
	// The documents with a fingerprint by fingerprint, then by id; each
	// run of one fingerprint is a group (fpStart indexes fpDocs).
	c.fpDocs = make([]uint32, 0, s.n)
	for i := range s.n {
		if s.hasFP[i] {
			c.fpDocs = append(c.fpDocs, uint32(i))
		}
	}
	slices.SortFunc(c.fpDocs, func(a, b uint32) int {
		return cmp.Or(cmp.Compare(s.fps[a], s.fps[b]), cmp.Compare(a, b))
	})
	var distinct []uint64
	c.fpOf = make([]int32, s.n)
	for n, id := range c.fpDocs {
		if n == 0 || s.fps[id] != distinct[len(distinct)-1] {
			distinct = append(distinct, s.fps[id])
			c.fpStart = append(c.fpStart, int32(n))
		}
		c.fpOf[id] = int32(len(distinct) - 1)
	}
	c.fpStart = append(c.fpStart, int32(len(c.fpDocs)))
	s.fps = nil
	c.ix = NewIndex(distinct, layout)
	// The fingerprints are searched on the workers, a block of them
	// each time; the index is safe for concurrent queries.
	marks := make([]uint64, (s.n+63)/64)
	const block = 1024
	blocks := (c.ix.Len() + block - 1) / block
	cand := make([]bool, c.ix.Len())
	examined := make([]int, blocks)
	par.Each(blocks, max(1, s.opts.Workers), func(b int) {
		for g := b * block; g < min(c.ix.Len(), (b+1)*block); g++ {
			if len(c.fpGroup(g)) > 1 {
				cand[g] = true
				continue
			}
			examined[b] += c.ix.Search(c.ix.Fingerprint(g), func(h, _ int) bool {
				cand[g] = h != g
				return !cand[g]
			})
		}
	})
	for g, ok := range cand {
		if ok {
			for _, id := range c.fpGroup(g) {
				marks[id/64] |= 1 << (id % 64)
			}
		}
	}
	for _, e := range examined {
		c.examined += e
	}
	c.cands = fromMarks(marks, s.n)
	c.held = held + int64(len(c.cands))*4
	return nil
}

// fpGroup is the documents whose fingerprint is distinct fingerprint g.
func (c *clusterer) fpGroup(g int) []uint32 { return c.fpDocs[c.fpStart[g]:c.fpStart[g+1]] }

// candidatesOf lists candidate k's candidates (candidate indices,
// increasing, without k); groups over capSize members (with SimHash,
// the documents of one fingerprint) are skipped when capSize > 0. The
// slice is reused by the next call.
func (c *clusterer) candidatesOf(k int32, capSize int) []int32 {
	out := c.cbuf[:0]
	if c.ix != nil {
		id := c.cands[k]
		c.examined += c.ix.Query(c.ix.Fingerprint(int(c.fpOf[id])), func(g, _ int) {
			docs := c.fpGroup(g)
			if capSize > 0 && len(docs) > capSize {
				return
			}
			for _, j := range docs {
				if j != id {
					out = append(out, int32(candIndex(c.cands, j)))
				}
			}
		})
		slices.Sort(out)
		c.cbuf = out
		return out
	}
	c.epoch++
	if c.epoch == 0 {
		clear(c.mark)
		c.epoch = 1
	}
	c.mark[k] = c.epoch
	for _, g := range c.dgroups[c.dstart[k]:c.dstart[k+1]] {
		mem := c.members[c.gstart[g]:c.gstart[g+1]]
		if capSize > 0 && len(mem) > capSize {
			continue
		}
		for _, j := range mem {
			if c.mark[j] != c.epoch {
				c.mark[j] = c.epoch
				out = append(out, j)
			}
		}
	}
	slices.Sort(out)
	c.cbuf = out
	return out
}

// load reads the candidate documents back: their sketches and locations
// from the document records, their canonical-choice fields with fetch,
// and their features while they fit beside the tables.
func (c *clusterer) load(fetch FetchFunc) error {
	s := c.s
	n := len(c.cands)
	P := s.sketchLen
	c.held += int64(n) * int64(candMetaBytes+P)
	if c.held > c.budget {
		return c.tooBig(n)
	}
	c.meta = make([]Doc, n)
	c.loc = make([]docLoc, n)
	c.feats = make([]verifyFeats, n)
	c.hasFeat = make([]bool, n)
	c.sketch = make([]byte, n*P)
	c.hasSketch = make([]bool, n)
	// The documents are read back and their features made on the
	// workers, a few at a time; what is kept is decided in order.
	workers := max(1, s.opts.Workers)
	chunk := 16 * workers
	type got struct {
		d    Doc
		f    verifyFeats
		err  error
		keep bool
	}
	slots := make([]got, chunk)
	for lo := 0; lo < n; lo += chunk {
		hi := min(n, lo+chunk)
		par.Each(hi-lo, workers, func(i int) {
			k := lo + i
			rec := make([]byte, s.recLen)
			g := &slots[i]
			*g = got{}
			if g.err = s.docRecord(int(c.cands[k]), rec); g.err != nil {
				return
			}
			c.hasSketch[k] = rec[8]&flagSketch != 0
			copy(c.sketch[k*P:(k+1)*P], rec[docRecHeader:])
			c.loc[k] = docLoc{int64(binary.LittleEndian.Uint64(rec[9:])), int32(binary.LittleEndian.Uint32(rec[17:]))}
			var text string
			if g.d, text, g.err = fetch(int(c.cands[k]), c.loc[k].off, int(c.loc[k].n)); g.err == nil {
				g.f = c.features(text)
			}
		})
		for i := range hi - lo {
			k, g := lo+i, &slots[i]
			if g.err != nil {
				return g.err
			}
			g.d.Features = nil
			c.meta[k] = g.d
			c.held += int64(len(g.d.URL))
			if b := g.f.bytes(); c.held+c.featBytes+b <= c.budget && !s.noFeatures {
				c.feats[k], c.hasFeat[k] = g.f, true
				c.featBytes += b
			}
			*g = got{}
		}
	}
	if c.held > c.budget {
		return c.tooBig(n)
	}
	c.order = make([]int32, n)
	for k := range c.order {
		c.order[k] = int32(k)
	}
	sort.SliceStable(c.order, func(a, b int) bool { return canonicalBefore(&c.meta[c.order[a]], &c.meta[c.order[b]]) })
	c.placed = make([]bool, n)
	c.centre = make([]int32, n)
	c.size = make([]int32, n)
	c.near = make([]int32, n)
	c.nearS = make([]float64, n)
	if c.ix == nil {
		c.mark = make([]uint32, n)
	}
	c.exact = map[uint64]float64{}
	c.pending = map[uint64]struct{}{}
	// The b-bit estimate's standard deviation at the threshold is about
	// sqrt(t(1-t)/P) (Li and König 2010, with 8 bits the collision term
	// is 1/256); 4.5 of them leave a wrongly decided pair at odds of a
	// few in a million.
	t := c.cfg.Threshold
	c.margin = max(0.05, 4.5*math.Sqrt(t*(1-t)/float64(P)))
	return nil
}

// tooBig is the error of candidate tables over the budget.
func (c *clusterer) tooBig(n int) error {
	return fmt.Errorf("%w: %d candidate documents need %d MB of tables, over the %d MB the budget leaves them (raise the memory bound)",
		ErrMemory, n, (c.held+1<<20-1)>>20, c.budget>>20)
}

// verifyFeats are a document's features as verification needs them:
// the sorted hashes for Jaccard and containment (8 bytes a shingle),
// weighted features for cosine.
type verifyFeats struct {
	h []uint64
	f []Feature
}

func (c *clusterer) features(text string) verifyFeats {
	f := c.s.norm.Features(text)
	if c.cfg.Measure == MeasureCosine {
		return verifyFeats{f: f}
	}
	h := make([]uint64, len(f))
	for i := range f {
		h[i] = f[i].Hash
	}
	return verifyFeats{h: h}
}

func (v verifyFeats) bytes() int64 { return int64(len(v.h))*8 + int64(len(v.f))*16 + 48 }

// similarity is Measure.Similarity of two documents' features.
func (c *clusterer) similarity(a, b verifyFeats) float64 {
	if c.cfg.Measure == MeasureCosine {
		return Cosine(a.f, b.f)
	}
	inter := 0
	for i, j := 0, 0; i < len(a.h) && j < len(b.h); {
		switch {
		case a.h[i] < b.h[j]:
			i++
		case a.h[i] > b.h[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	la, lb := len(a.h), len(b.h)
	if c.cfg.Measure == MeasureContainment {
		if la == 0 || lb == 0 {
			return 0
		}
		return max(float64(inter)/float64(la), float64(inter)/float64(lb))
	}
	if la+lb-inter == 0 {
		return 0
	}
	return float64(inter) / float64(la+lb-inter)
}

func pairKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(uint32(b))
}

// sim is the verified similarity of candidates a and b, and whether it
// is decided: a pair that only an exact verification can decide is
// recorded as pending, and its estimate returned. With exact set, a pair
// is decided only on its features (near reports a similarity).
func (c *clusterer) sim(a, b int32, exact bool) (float64, bool) {
	if c.cfg.NoVerify {
		return 1, true
	}
	if c.hasFeat[a] && c.hasFeat[b] {
		c.exactN++
		return c.similarity(c.feats[a], c.feats[b]), true
	}
	key := pairKey(a, b)
	if v, ok := c.exact[key]; ok {
		c.exactN++
		return v, true
	}
	if !c.hasSketch[a] || !c.hasSketch[b] {
		return 0, true // a document without shingles is like no other
	}
	P := c.s.sketchLen
	est := bbitJaccard(c.sketch[int(a)*P:int(a+1)*P], c.sketch[int(b)*P:int(b+1)*P])
	if c.cfg.Measure == MeasureJaccard {
		t := c.cfg.Threshold
		if est < t-c.margin || !exact && est >= t+c.margin {
			c.estimated++
			return est, true
		}
	}
	c.pending[key] = struct{}{}
	return est, false
}

// cluster runs the clustering until no pair it meets is undecided.
func (c *clusterer) cluster(fetch FetchFunc) error {
	for {
		c.run()
		if len(c.pending) == 0 {
			return nil
		}
		if err := c.verifyPending(fetch); err != nil {
			return err
		}
	}
}

// run is one clustering over the candidates, as Cluster does it, then
// the search for near-duplicates in other clusters.
func (c *clusterer) run() {
	t := c.cfg.Threshold
	clear(c.placed)
	c.candidates, c.verified, c.clusters, c.duplicates, c.estimated, c.exactN = 0, 0, 0, 0, 0, 0
	for _, k := range c.order {
		if c.placed[k] {
			continue
		}
		c.placed[k], c.centre[k], c.size[k] = true, k, 1
		c.clusters++
		for _, j := range c.candidatesOf(k, 0) {
			if c.placed[j] {
				continue
			}
			c.candidates++
			if c.cfg.pruned(&c.meta[k], &c.meta[j]) {
				continue
			}
			if v, _ := c.sim(k, j, false); v >= t {
				c.verified++
				c.placed[j], c.centre[j] = true, k
				c.duplicates++
				c.size[k]++
			}
		}
	}
	for k := range c.cands {
		c.near[k], c.nearS[k] = -1, 0
		for _, j := range c.candidatesOf(int32(k), nearGroupCap) {
			if c.centre[j] == c.centre[k] || c.cfg.pruned(&c.meta[k], &c.meta[j]) {
				continue
			}
			if v, _ := c.sim(int32(k), j, true); v >= t && v > c.nearS[k] {
				c.near[k], c.nearS[k] = j, v
			}
		}
	}
}

// verifyPending verifies the pending pairs on their features, re-reading
// the documents whose features are not held: a block of them at a time,
// as many as the free memory holds, each pair once.
func (c *clusterer) verifyPending(fetch FetchFunc) error {
	pairs := make([]uint64, 0, len(c.pending))
	for key := range c.pending {
		pairs = append(pairs, key)
	}
	clear(c.pending)
	slices.Sort(pairs)
	var need []int32
	for _, key := range pairs {
		for _, k := range []int32{int32(key >> 32), int32(uint32(key))} {
			if !c.hasFeat[k] {
				need = append(need, k)
			}
		}
	}
	slices.Sort(need)
	need = slices.Compact(need)
	free := c.budget - c.held - c.featBytes - int64(len(pairs))*48
	features := func(k int32) (verifyFeats, error) {
		_, text, err := fetch(int(c.cands[k]), c.loc[k].off, int(c.loc[k].n))
		if err != nil {
			return verifyFeats{}, err
		}
		return c.features(text), nil
	}
	for len(pairs) > 0 {
		block := map[int32]verifyFeats{}
		var used int64
		for len(need) > 0 {
			f, err := features(need[0])
			if err != nil {
				return err
			}
			if b := f.bytes(); used+b > free && len(block) > 0 {
				break
			} else {
				used += b
			}
			block[need[0]] = f
			need = need[1:]
		}
		get := func(k int32) (verifyFeats, bool) {
			if c.hasFeat[k] {
				return c.feats[k], true
			}
			f, ok := block[k]
			return f, ok
		}
		// Pairs with both sides at hand now; the others that touch the
		// block wait for their far side, read once for all its pairs.
		far := map[int32][]uint64{}
		rest := pairs[:0]
		for _, key := range pairs {
			a, b := int32(key>>32), int32(uint32(key))
			fa, oka := get(a)
			fb, okb := get(b)
			switch {
			case oka && okb:
				c.exact[key] = c.similarity(fa, fb)
			case oka:
				far[b] = append(far[b], key)
			case okb:
				far[a] = append(far[a], key)
			default:
				rest = append(rest, key)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(far)) {
			fk, err := features(k)
			if err != nil {
				return err
			}
			for _, key := range far[k] {
				a, b := int32(key>>32), int32(uint32(key))
				if a == k {
					fb, _ := get(b)
					c.exact[key] = c.similarity(fk, fb)
				} else {
					fa, _ := get(a)
					c.exact[key] = c.similarity(fa, fk)
				}
			}
		}
		pairs = rest
	}
	return nil
}

// result gathers the outcome.
func (c *clusterer) result() *StreamResult {
	s := c.s
	r := &StreamResult{
		Docs: s.n, Layout: Layout{}, Bands: s.bands,
		Candidates: c.candidates, Verified: c.verified,
		Duplicates: c.duplicates, Clusters: s.n - c.duplicates,
		Estimated: c.estimated, Exact: c.exactN, Examined: c.examined,
		s: s, cands: c.cands, centre: c.centre, size: c.size, near: c.near, nearS: c.nearS,
	}
	if c.ix != nil {
		r.Layout = c.ix.Layout()
	}
	if s.n > 0 {
		r.LargestSize = 1
	}
	r.url = make([]string, len(c.cands))
	for k := range c.cands {
		r.url[k] = c.meta[k].URL
		if c.centre[k] == int32(k) {
			r.LargestSize = max(r.LargestSize, int(c.size[k]))
		}
		if c.near[k] >= 0 {
			r.Near++
		}
	}
	return r
}
