package dedup

import (
	"fmt"
	"math/bits"
	"slices"
)

// A DocFreqCounter counts in how many documents each key occurs (a
// term's hash for TermStats, a feature's hash for IDF) within a memory
// budget, for collections whose vocabulary does not fit in it: the
// counts gather in a map, and when the map reaches the budget it is
// written, sorted, as a run to a temporary folder and emptied. Freeze
// merges the runs and keeps only the keys of two or more documents
// (DocFreq): a key of one document, most of a crawl's vocabulary, has
// a count that need not be stored, since every key asked about is that
// of a counted document.
//
// Use: NewDocFreqCounter, Add per document, Freeze once, then Close.
type DocFreqCounter struct {
	counts map[uint64]uint32
	limit  int // entries the map may hold
	docs   int
	runs   *keySorter
	frozen bool
}

// docFreqMapBytes is what an entry of the counting map costs: its share
// of the table with its empty slots (measured: a map of uint64 to uint32
// holds 24-36 bytes an entry between two growths, 48 just after one) and
// the 16 bytes of the sorted copy that a spill writes.
const docFreqMapBytes = 64

// docFreqBytes is what a key of the frozen table costs: its hash and its
// count, and the directory's share.
const docFreqBytes = 13

// NewDocFreqCounter prepares a count within budget bytes, spilling runs
// to dir ("" means os.TempDir()).
func NewDocFreqCounter(budget int64, dir string) (*DocFreqCounter, error) {
	limit := int(budget / docFreqMapBytes)
	if limit < 1024 {
		return nil, fmt.Errorf("%w: %d bytes cannot hold the document frequencies' counts", ErrMemory, budget)
	}
	ks, err := newKeySorter(budget, dir)
	if err != nil {
		return nil, err
	}
	return &DocFreqCounter{counts: map[uint64]uint32{}, limit: limit, runs: ks}, nil
}

// Add counts one document whose distinct keys are keys (a document with
// none counts too).
func (c *DocFreqCounter) Add(keys []uint64) error {
	if c.frozen {
		return fmt.Errorf("dedup: DocFreqCounter.Add after Freeze")
	}
	c.docs++
	for _, k := range keys {
		c.counts[k]++
		if len(c.counts) >= c.limit {
			if err := c.spill(); err != nil {
				return err
			}
		}
	}
	return nil
}

// spill writes the counts as a sorted run and empties the map.
func (c *DocFreqCounter) spill() error {
	c.runs.buf = c.sorted(0)
	err := c.runs.spill()
	c.runs.buf = nil
	clear(c.counts)
	return err
}

// sorted is the map's entries of a count above min, in key order.
func (c *DocFreqCounter) sorted(min uint32) []keyEntry {
	es := make([]keyEntry, 0, len(c.counts))
	for k, n := range c.counts {
		if n > min {
			es = append(es, keyEntry{k, n})
		}
	}
	slices.SortFunc(es, compareEntries)
	return es
}

// Docs is the number of documents added.
func (c *DocFreqCounter) Docs() int { return c.docs }

// Freeze ends the count and returns the keys of two or more documents
// in a table of at most budget bytes (13 a key), or an error wrapping
// ErrMemory when they need more.
func (c *DocFreqCounter) Freeze(budget int64) (*DocFreq, error) {
	if c.frozen {
		return nil, fmt.Errorf("dedup: DocFreqCounter.Freeze called twice")
	}
	c.frozen = true
	max := int(budget / docFreqBytes)
	over := func(n int) error {
		return fmt.Errorf("%w: more than %d keys occur in two or more of the %d documents, and their document frequencies need more than %d MB",
			ErrMemory, n, c.docs, budget>>20)
	}
	f := &DocFreq{docs: c.docs}
	if len(c.runs.runs) == 0 {
		es := c.sorted(1)
		c.counts = nil
		if len(es) > max {
			return nil, over(max)
		}
		f.keys, f.counts = make([]uint64, len(es)), make([]uint32, len(es))
		for i, e := range es {
			f.keys[i], f.counts[i] = e.key, e.id
		}
		f.index()
		return f, nil
	}
	if len(c.counts) > 0 {
		if err := c.spill(); err != nil {
			return nil, err
		}
	}
	c.counts = nil
	// Two merges of the runs: the first counts the keys to hold, so that
	// the table is allocated once at its size, the second fills it.
	held := 0
	if err := c.merged(func(uint64, uint32) error {
		if held++; held > max {
			return over(max)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	f.keys, f.counts = make([]uint64, 0, held), make([]uint32, 0, held)
	if err := c.merged(func(k uint64, n uint32) error {
		f.keys, f.counts = append(f.keys, k), append(f.counts, n)
		return nil
	}); err != nil {
		return nil, err
	}
	f.index()
	return f, nil
}

// merged calls fn with each key of two or more documents in the runs,
// in key order, and its count.
func (c *DocFreqCounter) merged(fn func(key uint64, n uint32) error) error {
	cur, n, started := uint64(0), uint64(0), false
	flush := func() error {
		if !started || n < 2 {
			return nil
		}
		return fn(cur, uint32(min(n, 1<<32-1)))
	}
	err := c.runs.merge(func(e keyEntry) error {
		if started && e.key == cur {
			n += uint64(e.id)
			return nil
		}
		if err := flush(); err != nil {
			return err
		}
		cur, n, started = e.key, uint64(e.id), true
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// Runs is the number of runs written to the temporary folder.
func (c *DocFreqCounter) Runs() int { return len(c.runs.runs) }

// Close removes the runs.
func (c *DocFreqCounter) Close() error { return c.runs.close() }

// DocFreq is a frozen document-frequency table: the number of documents
// counted, and for each key of two or more of them its count. A key it
// does not hold counts one document: ask only about keys of the counted
// documents. Keys are sorted, and a directory of their leading bits
// finds a key's place in a step or two. It is safe for concurrent use.
type DocFreq struct {
	docs   int
	keys   []uint64
	counts []uint32
	dir    []uint32 // dir[p] is the first key whose leading bits are >= p
	shift  uint
}

// index builds the directory: about one slot per 8 keys.
func (f *DocFreq) index() {
	b := max(1, bits.Len(uint(len(f.keys)/8)))
	f.shift = uint(64 - b)
	f.dir = make([]uint32, 1<<b+1)
	k := 0
	for p := range f.dir {
		for k < len(f.keys) && f.keys[k]>>f.shift < uint64(p) {
			k++
		}
		f.dir[p] = uint32(k)
	}
}

// Docs is the number of documents counted.
func (f *DocFreq) Docs() int { return f.docs }

// Bytes is the memory the table holds.
func (f *DocFreq) Bytes() int { return 12*len(f.keys) + 4*len(f.dir) }

// Len is the number of keys held (those of two or more documents).
func (f *DocFreq) Len() int { return len(f.keys) }

// Count is the number of documents with key, 1 for a key not held.
func (f *DocFreq) Count(key uint64) int {
	p := key >> f.shift
	lo, hi := int(f.dir[p]), int(f.dir[p+1])
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f.keys[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(f.keys) && f.keys[lo] == key {
		return int(f.counts[lo])
	}
	return 1
}
