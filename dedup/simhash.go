package dedup

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
)

// SimHash returns the 64-bit SimHash of weighted features (Charikar 2002):
// every feature's hash votes on every bit with its weight, and a bit is set
// when its votes are positive. The feature hashes come from xxhash, whose
// bits are uniform; seed 004 shows what summing raw word hashes does
// instead (the high bits stay zero). An empty feature set has no
// fingerprint: ok is false (and the fingerprint zero), never all ones.
func SimHash(feats []Feature) (fp uint64, ok bool) {
	if len(feats) == 0 {
		return 0, false
	}
	// Ties break without favouring 0 or 1, by the XOR of every occurrence
	// of every hash (a feature of odd weight counts once).
	var tie uint64
	for _, f := range feats {
		if w := int64(f.Weight); float64(w) == f.Weight && w%2 == 0 {
			continue
		}
		tie ^= f.Hash
	}
	if integral(feats) {
		return simhashCounts(feats, tie), true
	}
	var v [64]float64
	for _, f := range feats {
		h := f.Hash
		for i := range 64 {
			if h&(1<<i) != 0 {
				v[i] += f.Weight
			} else {
				v[i] -= f.Weight
			}
		}
	}
	for i := range 64 {
		if v[i] > 0 || v[i] == 0 && tie&(1<<i) != 0 {
			fp |= 1 << i
		}
	}
	return fp, true
}

// integral reports whether every weight is a small whole number (the
// shingle counts that Normalizer.Features gives).
func integral(feats []Feature) bool {
	for _, f := range feats {
		if f.Weight != math.Trunc(f.Weight) || f.Weight < 0 || f.Weight > 1<<16 {
			return false
		}
	}
	return true
}

// simhashAcc accumulates hashes of weight one into bit-sliced counters
// (plane p holds bit p of all 64 per-bit counts): adding a hash is a
// ripple-carry addition that rarely goes past the first planes.
type simhashAcc struct {
	planes [40]uint64
	total  int
	tie    uint64
}

func (a *simhashAcc) add(h uint64) {
	a.tie ^= h
	a.total++
	carry := h
	for p := 0; carry != 0; p++ {
		c := a.planes[p] & carry
		a.planes[p] ^= carry
		carry = c
	}
}

func (a *simhashAcc) fingerprint() uint64 {
	fp, _ := decideBits(&a.planes, a.total, a.tie)
	return fp
}

// simhashHashes is SimHash of hashes of weight one each (repeats count
// again).
func simhashHashes(hashes []uint64) uint64 {
	var acc simhashAcc
	for _, h := range hashes {
		acc.add(h)
	}
	return acc.fingerprint()
}

// decideBits reads the 64 counts out of the bit planes: a bit is set when
// more than half of total voted for it. It returns the fingerprint without
// the tied bits and the mask of tied bits (those are then set from tie).
func decideBits(planes *[40]uint64, total int, tie uint64) (fp, ties uint64) {
	for i := range 64 {
		ones := 0
		for p := range planes {
			ones |= int(planes[p]>>i&1) << p
		}
		zeros := total - ones
		switch {
		case ones > zeros:
			fp |= 1 << i
		case ones == zeros:
			ties |= 1 << i
		}
	}
	return fp | ties&tie, ties
}

// simhashCounts is SimHash for whole-number weights, 64 bits at a time:
// the per-bit counts of set bits live in bit-sliced counters (plane p holds
// bit p of all 64 counts), and adding a hash is a ripple-carry addition
// that rarely goes past the first planes. It gives exactly the float
// version's result.
func simhashCounts(feats []Feature, tie uint64) uint64 {
	var acc simhashAcc
	for _, f := range feats {
		for range int(f.Weight) {
			acc.add(f.Hash)
		}
	}
	fp, _ := decideBits(&acc.planes, acc.total, tie)
	return fp
}

// Distance is the Hamming distance between two fingerprints.
func Distance(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// MaxK is the largest Hamming distance the tables support.
const MaxK = 12

// DefaultK is the Hamming distance of SimHash candidates by default. On
// fingerprints of 3-word shingles of a generated collection of 100,000
// texts (internal/tools/gendedup) k=11 finds 99.5% of the pairs at
// Jaccard >= 0.9 and 95.5% at >= 0.8 (k=10: 98.9% and 92.8%, k=8: 93.9%
// and 80.3%); within 11 bits lie 260 pairs that are not planted copies,
// against 2,576 planted pairs at Jaccard >= 0.8. PlanProbeLayout gives k=10 and k=11 the same lookups (4 tables of
// 16 bits, each prefix within 2 bits); k=12 takes five times as many.
const DefaultK = 11

// DefaultMaxTables keeps the tables within 64 bytes per fingerprint
// (12 bytes per table and 8 for the fingerprint).
const DefaultMaxTables = 4

// maxProbes bounds the prefixes a query looks up in one table.
const maxProbes = 1 << 12

// Layout is a plan of permuted sorted tables for distance K: the 64 bits
// are cut into Blocks blocks, and every choice of Lead blocks leads one
// table, sorted on those blocks' bits. A query looks up, in every table,
// each prefix within Radius bits of its own leading bits. Two
// fingerprints within K bits differ in at most Radius bits on the
// leading blocks of at least one table: the Lead blocks with the fewest
// differing bits hold at most Radius of the K.
//
// Manku's layout (Manku, Jain and Das Sarma, WWW 2007) is the case
// Lead = Blocks-K, Radius 0: two fingerprints within K bits agree on all
// of one table's leading bits. Multi-index hashing (Norouzi, Punjani and
// Fleet, CVPR 2012) is Lead 1 with Radius K/Blocks: fewer tables and
// longer prefixes for large K, at the price of several lookups per table.
type Layout struct {
	K      int
	Blocks int
	Tables int // C(Blocks, Lead)
	Lead   int // blocks each table is sorted on
	Radius int // bits a looked-up prefix may differ from the query's
	// PrefixBits is the smallest number of leading bits a table is sorted
	// on; N / 2^PrefixBits is the expected number of candidates a
	// lookup of that table returns among uniform fingerprints.
	PrefixBits int
	N          int // collection size the layout was planned for
}

// String describes the layout for a person.
func (l Layout) String() string {
	cand := float64(l.Tables) * float64(l.probes()) * float64(l.N) / math.Exp2(float64(l.PrefixBits))
	look := ""
	if l.Radius > 0 {
		look = fmt.Sprintf(", %d lookups per table (prefixes within %d bits)", l.probes(), l.Radius)
	}
	return fmt.Sprintf("k=%d: %d blocks, %d tables of %d leading bits%s, about %.1f candidates per query for %d fingerprints, %d bytes per fingerprint",
		l.K, l.Blocks, l.Tables, l.PrefixBits, look, cand, l.N, l.BytesPerFingerprint())
}

// BytesPerFingerprint is the memory the tables take per fingerprint: a
// permuted fingerprint and a 32-bit id per table, and the fingerprint
// itself.
func (l Layout) BytesPerFingerprint() int { return l.Tables*12 + 8 }

// IndexBytes is the memory NewIndex takes for n fingerprints: the
// tables, and the bucket directories of tables with short prefixes (at
// most 8 bytes per fingerprint and table).
func (l Layout) IndexBytes(n int) int64 {
	b := int64(l.BytesPerFingerprint()) * int64(n)
	for _, t := range newTables(l) {
		if directory(t.prefix, n) {
			b += 4 * (1<<t.prefix + 1)
		}
	}
	return b
}

// directory says whether a table sorted on prefix bits over n
// fingerprints keeps the start of every prefix's run (4 bytes per
// prefix, at most two prefixes per fingerprint), so that a lookup is
// two reads rather than a binary search.
func directory(prefix uint, n int) bool {
	return prefix <= 24 && 1<<prefix <= 2*n
}

// probes is the number of prefixes a query looks up per table: those
// within Radius bits of its own among PrefixBits.
func (l Layout) probes() int {
	v := 0
	for i := 0; i <= l.Radius && i <= l.PrefixBits; i++ {
		v += binom(l.PrefixBits, i)
	}
	return v
}

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// leadRadius is the most bits that two fingerprints within k bits can
// differ in on the lead blocks (of blocks) where they differ least: the
// k bits spread evenly, k/blocks per block and one more on k%blocks of
// them. With k=64 it is the sum of the lead narrowest blocks' widths.
func leadRadius(blocks, lead, k int) int {
	q, rem := k/blocks, k%blocks
	return lead*q + max(0, lead-(blocks-rem))
}

// PlanLayout chooses Manku's layout (Radius 0) for distance k and a
// collection of n fingerprints by minimising the expected work of a query
// (one binary search and the candidates of each table), among layouts of
// at most maxTables tables (0 means DefaultMaxTables; the fewest
// possible, k+1, when even that is more). More blocks mean more tables but
// longer prefixes and fewer candidates. Pairs within k share one table's
// leading bits (TableMasks), which candidate keys need. Its cost takes
// 64*(b-k)/b for the shortest prefix, up to two bits more than the
// narrowest table's (leadRadius(b, b-k, 64)); it stays so because a
// SimHash store's tables were planned with it and their keys are on disk.
func PlanLayout(k, n, maxTables int) (Layout, error) {
	if k < 0 || k > MaxK {
		return Layout{}, fmt.Errorf("dedup: k=%d not in 0..%d", k, MaxK)
	}
	if maxTables <= 0 {
		maxTables = DefaultMaxTables
	}
	n = max(n, 1)
	best := Layout{}
	bestCost := math.Inf(1)
	for b := k + 1; b <= 64 && b <= k+12; b++ {
		t := binom(b, k)
		if t > maxTables && best.Tables != 0 {
			break
		}
		prefix := 64 * (b - k) / b // the shortest prefix: the smallest blocks lead
		cost := float64(t) * (math.Log2(float64(n)+1) + float64(n)/math.Exp2(float64(prefix)))
		if cost < bestCost {
			best, bestCost = Layout{K: k, Blocks: b, Tables: t, Lead: b - k, PrefixBits: prefix, N: n}, cost
		}
	}
	return best, nil
}

// PlanProbeLayout is PlanLayout that may also look up the prefixes near
// a query's own (Radius > 0): for large k it finds a layout of at most
// maxTables tables whose prefixes stay long, where Manku's would need
// many tables or short prefixes. With k=10 and a million fingerprints it
// takes 4 tables of 16 bits and 137 lookups each (about 8,400 uniform
// candidates a query) where Manku's takes 11 tables of 5 bits (about
// 190,000). Its tables are for Index; candidate keys need PlanLayout.
func PlanProbeLayout(k, n, maxTables int) (Layout, error) {
	best, err := PlanLayout(k, n, maxTables)
	if err != nil {
		return best, err
	}
	if maxTables <= 0 {
		maxTables = DefaultMaxTables
	}
	n = max(n, 1)
	cost := func(l Layout) float64 {
		look := math.Log2(float64(n) + 1)
		if directory(uint(l.PrefixBits), n) {
			look = 1
		}
		return float64(l.Tables) * float64(l.probes()) * (look + float64(n)/math.Exp2(float64(l.PrefixBits)))
	}
	bestCost := cost(best)
	for b := 1; b <= 16; b++ {
		for lead := 1; lead <= b; lead++ {
			t := binom(b, lead)
			if t > maxTables {
				continue
			}
			l := Layout{K: k, Blocks: b, Tables: t, Lead: lead, Radius: leadRadius(b, lead, k), PrefixBits: leadRadius(b, lead, 64), N: n}
			if l.probes() > maxProbes {
				continue
			}
			if c := cost(l); c < bestCost {
				best, bestCost = l, c
			}
		}
	}
	return best, nil
}

// table is one permuted sorted table.
type table struct {
	blocks  []int    // block order: the leading blocks first
	starts  []uint32 // with a directory, where each prefix's run starts (and the end)
	prefix  uint     // number of leading bits
	lead    uint64   // mask of the leading blocks' bits in the original positions
	perm    []uint64 // permuted fingerprints, sorted
	ids     []uint32 // ids in the same order
	shifts  []uint   // per block, the shift of its bits in the original
	widths  []uint   // per block, its width
	offsets []uint   // per block in table order, its shift in the permuted word
}

// Index answers Hamming-distance queries over a fixed set of fingerprints.
// Build it with NewIndex; it is immutable and safe for concurrent queries.
type Index struct {
	layout Layout
	fps    []uint64 // by id
	tables []table
}

// NewIndex builds the permuted tables of layout for fps (ids are the slice
// positions). fps is copied.
func NewIndex(fps []uint64, layout Layout) *Index {
	ix := &Index{layout: layout, fps: append([]uint64(nil), fps...), tables: newTables(layout)}
	for ti := range ix.tables {
		t := &ix.tables[ti]
		type pair struct {
			p  uint64
			id uint32
		}
		ps := make([]pair, len(fps))
		for id, fp := range fps {
			ps[id] = pair{t.permute(fp), uint32(id)}
		}
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].p != ps[j].p {
				return ps[i].p < ps[j].p
			}
			return ps[i].id < ps[j].id
		})
		t.perm = make([]uint64, len(ps))
		t.ids = make([]uint32, len(ps))
		for i, p := range ps {
			t.perm[i], t.ids[i] = p.p, p.id
		}
		if directory(t.prefix, len(fps)) {
			t.starts = make([]uint32, 1<<t.prefix+1)
			shift := 64 - t.prefix
			i := 0
			for p := range t.starts {
				for i < len(t.perm) && t.perm[i]>>shift < uint64(p) {
					i++
				}
				t.starts[p] = uint32(i)
			}
		}
	}
	return ix
}

// run is where the fingerprints whose leading bits are p lie in the
// table's sorted order.
func (t *table) run(p uint64) (lo, hi int) {
	if t.starts != nil {
		return int(t.starts[p]), int(t.starts[p+1])
	}
	shift := 64 - t.prefix
	lo = sort.Search(len(t.perm), func(i int) bool { return t.perm[i]>>shift >= p })
	hi = lo
	for hi < len(t.perm) && t.perm[hi]>>shift == p {
		hi++
	}
	return lo, hi
}

// newTables returns the layout's tables with their permutations and no
// fingerprints.
func newTables(layout Layout) []table {
	b := layout.Blocks
	widths := make([]uint, b)
	shifts := make([]uint, b)
	off := uint(0)
	for i := range b {
		// Blocks from the high bits down; the first 64%b blocks get a bit more.
		w := uint(64 / b)
		if i < 64%b {
			w++
		}
		off += w
		widths[i], shifts[i] = w, 64-off
	}
	var tables []table
	for _, lead := range combinations(b, layout.Lead) {
		t := table{widths: widths, shifts: shifts}
		in := make([]bool, b)
		for _, blk := range lead {
			in[blk] = true
			t.prefix += widths[blk]
			t.lead |= blockMask(widths[blk], shifts[blk])
		}
		t.blocks = append(t.blocks, lead...)
		for blk := range b {
			if !in[blk] {
				t.blocks = append(t.blocks, blk)
			}
		}
		pos := uint(64)
		for _, blk := range t.blocks {
			pos -= widths[blk]
			t.offsets = append(t.offsets, pos)
		}
		tables = append(tables, t)
	}
	return tables
}

// TableMasks returns, per table of the layout (in table order), the
// mask of the bits that table is sorted on: its leading blocks, in their
// places in the fingerprint. Two fingerprints within K bits differ in at
// most K of the Blocks blocks, so they agree under at least one mask
// (Manku et al. WWW'07, section 3.1.1): a mask's bits with the table's
// number are keys under which every pair within K meets, as a query
// meets its candidates in Index. The layout must come from PlanLayout.
func (l Layout) TableMasks() []uint64 {
	tables := newTables(l)
	masks := make([]uint64, len(tables))
	for i, t := range tables {
		masks[i] = t.lead
	}
	return masks
}

func blockMask(width, shift uint) uint64 { return ((uint64(1) << width) - 1) << shift }

// permute moves the table's blocks into table order, leading blocks first.
func (t *table) permute(fp uint64) uint64 {
	var out uint64
	for i, blk := range t.blocks {
		v := (fp >> t.shifts[blk]) & ((uint64(1) << t.widths[blk]) - 1)
		out |= v << t.offsets[i]
	}
	return out
}

// combinations returns every sorted choice of r of the numbers 0..n-1.
func combinations(n, r int) [][]int {
	var out [][]int
	cur := make([]int, 0, r)
	var rec func(start int)
	rec = func(start int) {
		if len(cur) == r {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i < n; i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out
}

// Layout returns the index's table layout.
func (ix *Index) Layout() Layout { return ix.layout }

// Len is the number of fingerprints.
func (ix *Index) Len() int { return len(ix.fps) }

// Fingerprint returns the fingerprint with the given id.
func (ix *Index) Fingerprint(id int) uint64 { return ix.fps[id] }

// Query calls fn for every fingerprint within the layout's K bits of fp,
// once each, and returns the number of candidates it examined.
func (ix *Index) Query(fp uint64, fn func(id, dist int)) (examined int) {
	return ix.Search(fp, func(id, dist int) bool {
		fn(id, dist)
		return true
	})
}

// Search is Query that stops at the first call of fn that returns
// false.
func (ix *Index) Search(fp uint64, fn func(id, dist int) bool) (examined int) {
	k, r := ix.layout.K, ix.layout.Radius
	for ti := range ix.tables {
		t := &ix.tables[ti]
		q := t.permute(fp)
		more := withinBits(q>>(64-t.prefix), t.prefix, r, func(p uint64) bool {
			lo, hi := t.run(p)
			examined += hi - lo
			for i := lo; i < hi; i++ {
				// The distance is the same in the table's order.
				d := bits.OnesCount64(t.perm[i] ^ q)
				if d > k {
					continue
				}
				id := t.ids[i]
				if ix.firstTable(ix.fps[id]^fp) != ti {
					continue // reported by an earlier table
				}
				if !fn(int(id), d) {
					return false
				}
			}
			return true
		})
		if !more {
			break
		}
	}
	return examined
}

// withinBits calls fn with every value of the low width bits within r
// bits of v, v first, until fn returns false; it says whether fn never
// did.
func withinBits(v uint64, width uint, r int, fn func(uint64) bool) bool {
	var flip func(v uint64, from uint, r int) bool
	flip = func(v uint64, from uint, r int) bool {
		for b := from; b < width; b++ {
			w := v ^ 1<<b
			if !fn(w) || r > 1 && !flip(w, b+1, r-1) {
				return false
			}
		}
		return true
	}
	return fn(v) && (r == 0 || flip(v, 0, r))
}

// firstTable is the first table whose leading bits x changes in at most
// the layout's Radius bits: the table that reports a pair x apart.
func (ix *Index) firstTable(x uint64) int {
	for i := range ix.tables {
		if bits.OnesCount64(x&ix.tables[i].lead) <= ix.layout.Radius {
			return i
		}
	}
	return -1
}

// FormatFingerprint writes fp as 16 hex digits, the record's simhash field.
func FormatFingerprint(fp uint64) string {
	s := fmt.Sprintf("%x", fp)
	return strings.Repeat("0", 16-len(s)) + s
}
