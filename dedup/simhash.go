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

// MaxK is the largest Hamming distance the permuted tables support.
const MaxK = 8

// DefaultMaxTables keeps the tables within 64 bytes per fingerprint
// (12 bytes per table and 8 for the fingerprint).
const DefaultMaxTables = 4

// Layout is a plan of Manku's permuted sorted tables for distance K: the
// 64 bits are cut into Blocks blocks, and every choice of Blocks-K blocks
// leads one table, sorted on those blocks' bits. Two fingerprints within
// K bits agree on all the bits of at least one table's leading blocks, so
// a query looks up its own leading bits in every table.
type Layout struct {
	K      int
	Blocks int
	Tables int // C(Blocks, K)
	// PrefixBits is the smallest number of leading bits a table is sorted
	// on; N / 2^PrefixBits is the expected number of candidates a probe of
	// that table returns.
	PrefixBits int
	N          int // collection size the layout was planned for
}

// String describes the layout for a person.
func (l Layout) String() string {
	cand := float64(l.N) / math.Exp2(float64(l.PrefixBits))
	return fmt.Sprintf("k=%d: %d blocks, %d tables, %d leading bits, about %.1f candidates per table probe for %d fingerprints, %d bytes per fingerprint",
		l.K, l.Blocks, l.Tables, l.PrefixBits, cand, l.N, l.BytesPerFingerprint())
}

// BytesPerFingerprint is the memory the tables take per fingerprint: a
// permuted fingerprint and a 32-bit id per table, and the fingerprint itself.
func (l Layout) BytesPerFingerprint() int { return l.Tables*12 + 8 }

func binom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
	}
	return r
}

// PlanLayout chooses the number of blocks for distance k and a collection
// of n fingerprints by minimising the expected work of a query (one binary
// search and the candidates of each table), among layouts of at most
// maxTables tables (0 means DefaultMaxTables; the fewest possible, k+1,
// when even that is more). More blocks mean more tables but longer
// prefixes and fewer candidates.
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
			best, bestCost = Layout{K: k, Blocks: b, Tables: t, PrefixBits: prefix, N: n}, cost
		}
	}
	return best, nil
}

// table is one permuted sorted table.
type table struct {
	blocks  []int    // block order: the leading blocks first
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
	}
	return ix
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
	for _, lead := range combinations(b, b-layout.K) {
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
	k := ix.layout.K
	for ti := range ix.tables {
		t := &ix.tables[ti]
		q := t.permute(fp)
		shift := 64 - t.prefix
		lo := sort.Search(len(t.perm), func(i int) bool { return t.perm[i]>>shift >= q>>shift })
		for i := lo; i < len(t.perm) && t.perm[i]>>shift == q>>shift; i++ {
			examined++
			id := t.ids[i]
			x := ix.fps[id] ^ fp
			d := bits.OnesCount64(x)
			if d > k || ix.firstTable(x) != ti {
				continue // too far, or reported by an earlier table
			}
			if !fn(int(id), d) {
				return examined
			}
		}
	}
	return examined
}

// firstTable is the first table whose leading bits x leaves untouched.
func (ix *Index) firstTable(x uint64) int {
	for i := range ix.tables {
		if x&ix.tables[i].lead == 0 {
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
