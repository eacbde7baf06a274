package dedup

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// keyEntry is one candidate key of one document: an LSH band's key (the
// band mixed in) or a signature value.
type keyEntry struct {
	key uint64
	id  uint32
}

// keyEntryBytes is the size of an entry in memory (with padding) and
// keyRunBytes on disk.
const (
	keyEntryBytes = 16
	keyRunBytes   = 12
)

func compareEntries(a, b keyEntry) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// keySorter is an external sort of key entries: entries gather in memory
// up to a budget, and each full buffer is sorted and written to a run
// file in the temporary folder; the runs are merged at the end.
type keySorter struct {
	buf    []keyEntry
	limit  int // entries the buffer may hold
	dir    string
	runs   []string
	merged bool
}

func newKeySorter(budget int64, dir string) (*keySorter, error) {
	limit := int(budget / keyEntryBytes)
	if limit < 1024 {
		return nil, fmt.Errorf("%w: %d bytes cannot hold the candidate keys' sort buffer", ErrMemory, budget)
	}
	return &keySorter{limit: limit, dir: dir}, nil
}

func (s *keySorter) add(key uint64, id uint32) error {
	if len(s.buf) == s.limit {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if s.buf == nil {
		s.buf = make([]keyEntry, 0, min(s.limit, 1<<16))
	}
	s.buf = append(s.buf, keyEntry{key, id})
	return nil
}

// spill sorts the buffer and writes it as a run.
func (s *keySorter) spill() error {
	slices.SortFunc(s.buf, compareEntries)
	fh, err := os.CreateTemp(s.dir, "winnow-keys-*.run")
	if err != nil {
		return fmt.Errorf("dedup: spilling candidate keys: %w", err)
	}
	s.runs = append(s.runs, fh.Name())
	bw := bufio.NewWriterSize(fh, 1<<16)
	var rec [keyRunBytes]byte
	for _, e := range s.buf {
		binary.LittleEndian.PutUint64(rec[:8], e.key)
		binary.LittleEndian.PutUint32(rec[8:], e.id)
		if _, err := bw.Write(rec[:]); err != nil {
			fh.Close()
			return fmt.Errorf("dedup: spilling candidate keys: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		fh.Close()
		return fmt.Errorf("dedup: spilling candidate keys: %w", err)
	}
	s.buf = s.buf[:0]
	return fh.Close()
}

// groups calls fn with every key that two or more documents share and
// their ids, in increasing order of id (ids is reused between calls). It
// may be called once.
func (s *keySorter) groups(fn func(key uint64, ids []uint32) error) error {
	if s.merged {
		return errors.New("dedup: keySorter.groups called twice")
	}
	s.merged = true
	var ids []uint32
	cur, started := uint64(0), false
	flush := func() error {
		if len(ids) > 1 {
			if err := fn(cur, ids); err != nil {
				return err
			}
		}
		ids = ids[:0]
		return nil
	}
	each := func(e keyEntry) error {
		if started && e.key != cur {
			if err := flush(); err != nil {
				return err
			}
		}
		cur, started = e.key, true
		if n := len(ids); n == 0 || ids[n-1] != e.id {
			ids = append(ids, e.id)
		}
		return nil
	}
	if len(s.runs) == 0 {
		slices.SortFunc(s.buf, compareEntries)
		for _, e := range s.buf {
			if err := each(e); err != nil {
				return err
			}
		}
		s.buf = nil
		return flush()
	}
	if len(s.buf) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	s.buf = nil
	if err := s.merge(each); err != nil {
		return err
	}
	return flush()
}

// merge reads the runs in key order.
func (s *keySorter) merge(each func(keyEntry) error) error {
	h := &runHeap{}
	defer func() {
		for _, r := range h.runs {
			r.fh.Close()
		}
	}()
	for _, name := range s.runs {
		fh, err := os.Open(name)
		if err != nil {
			return err
		}
		r := &runReader{fh: fh, br: bufio.NewReaderSize(fh, 1<<16)}
		ok, err := r.next()
		if err != nil {
			fh.Close()
			return err
		}
		if ok {
			h.runs = append(h.runs, r)
		} else {
			fh.Close()
		}
	}
	heap.Init(h)
	for h.Len() > 0 {
		r := h.runs[0]
		if err := each(r.cur); err != nil {
			return err
		}
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			r.fh.Close()
			heap.Pop(h)
		}
	}
	return nil
}

// close removes the run files.
func (s *keySorter) close() error {
	var errs []error
	for _, name := range s.runs {
		if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
			errs = append(errs, err)
		}
	}
	s.runs = nil
	return errors.Join(errs...)
}

type runReader struct {
	fh  *os.File
	br  *bufio.Reader
	cur keyEntry
}

func (r *runReader) next() (bool, error) {
	var rec [keyRunBytes]byte
	if _, err := io.ReadFull(r.br, rec[:]); err != nil {
		if err == io.EOF {
			return false, nil
		}
		return false, fmt.Errorf("dedup: reading a spilled key run: %w", err)
	}
	r.cur = keyEntry{binary.LittleEndian.Uint64(rec[:8]), binary.LittleEndian.Uint32(rec[8:])}
	return true, nil
}

type runHeap struct{ runs []*runReader }

func (h *runHeap) Len() int           { return len(h.runs) }
func (h *runHeap) Less(i, j int) bool { return compareEntries(h.runs[i].cur, h.runs[j].cur) < 0 }
func (h *runHeap) Swap(i, j int)      { h.runs[i], h.runs[j] = h.runs[j], h.runs[i] }
func (h *runHeap) Push(x any)         { h.runs = append(h.runs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	r := h.runs[len(h.runs)-1]
	h.runs = h.runs[:len(h.runs)-1]
	return r
}
