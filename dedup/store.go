package dedup

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Store is a persistent, incremental SimHash index on pebble: Manku's
// permuted tables as sorted keys, so a query reads a few short key ranges
// instead of scanning the collection. Each Add or Delete is one batch,
// synced before it returns: after a crash every document reported as
// added is there and the tables agree with the documents.
//
// Keys:
//
//	"m"                       version and K
//	"n"                       the next document id
//	"d" id                    fingerprint, then URL
//	"u" URL                   id
//	"t" table permuted id     (empty value; the id in 5 bytes)
//
// Store is safe for concurrent use: queries may run while documents are
// added.
type Store struct {
	db     *pebble.DB
	layout Layout
	tables []table
	mu     sync.Mutex // serialises writers: id allocation and the URL key
	next   uint64
}

// StoreVersion is the version of the key layout.
const StoreVersion = 2

// storeLayoutN is the collection size the store's tables are planned for.
const storeLayoutN = 10_000_000

// StoredDoc is a document held by a Store.
type StoredDoc struct {
	ID          uint64
	URL         string
	Fingerprint uint64
}

// ErrStore wraps the errors of a store that cannot be used as asked.
var ErrStore = errors.New("dedup: store")

// OpenStore opens (or creates) the store in dir for Hamming distance k. A
// store keeps the k it was created with; opening it with another k is an
// error.
func OpenStore(dir string, k int) (*Store, error) {
	layout, err := PlanLayout(k, storeLayoutN, 0)
	if err != nil {
		return nil, err
	}
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %v", ErrStore, dir, err)
	}
	s := &Store{db: db, layout: layout, tables: newTables(layout)}
	meta := []byte{StoreVersion, byte(k)}
	v, closer, err := db.Get([]byte("m"))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		if err := db.Set([]byte("m"), meta, pebble.Sync); err != nil {
			db.Close()
			return nil, err
		}
	case err != nil:
		db.Close()
		return nil, err
	default:
		ok := len(v) == 2 && v[0] == StoreVersion && int(v[1]) == k
		got := fmt.Sprintf("%x", v)
		closer.Close()
		if !ok {
			db.Close()
			return nil, fmt.Errorf("%w: %s holds version/k %s, want version %d, k %d", ErrStore, dir, got, StoreVersion, k)
		}
	}
	if v, closer, err := db.Get([]byte("n")); err == nil {
		s.next = binary.BigEndian.Uint64(v)
		closer.Close()
	} else if !errors.Is(err, pebble.ErrNotFound) {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Layout is the store's table layout.
func (s *Store) Layout() Layout { return s.layout }

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

func docKey(id uint64) []byte {
	k := make([]byte, 9)
	k[0] = 'd'
	binary.BigEndian.PutUint64(k[1:], id)
	return k
}

// tableKey holds the id in 5 bytes: the table keys are most of the
// store, and 2^40 documents are more than one index will hold.
func tableKey(ti int, perm, id uint64) []byte {
	k := make([]byte, 15)
	k[0], k[1] = 't', byte(ti)
	binary.BigEndian.PutUint64(k[2:], perm)
	putID5(k[10:], id)
	return k
}

// maxStoreID bounds the ids a table key can hold.
const maxStoreID = 1<<40 - 1

func putID5(b []byte, id uint64) {
	b[0], b[1], b[2], b[3], b[4] = byte(id>>32), byte(id>>24), byte(id>>16), byte(id>>8), byte(id)
}

func id5(b []byte) uint64 {
	return uint64(b[0])<<32 | uint64(b[1])<<24 | uint64(b[2])<<16 | uint64(b[3])<<8 | uint64(b[4])
}

// Add stores a document. A URL already held is replaced: its old
// fingerprint leaves the tables in the same batch.
func (s *Store) Add(url string, fp uint64) (StoredDoc, error) {
	docs, err := s.AddBatch([]StoredDoc{{URL: url, Fingerprint: fp}})
	if err != nil {
		return StoredDoc{}, err
	}
	return docs[0], nil
}

// AddBatch stores documents (their ID fields are ignored) in one synced
// batch and returns them with their ids. A URL already held, or repeated
// later in docs, is replaced by its last occurrence.
func (s *Store) AddBatch(docs []StoredDoc) ([]StoredDoc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	last := make(map[string]int, len(docs))
	for i, d := range docs {
		last[d.URL] = i
	}
	var out []StoredDoc
	id := s.next
	var idb [8]byte
	for i, d := range docs {
		if last[d.URL] != i {
			continue
		}
		if id > maxStoreID {
			return nil, fmt.Errorf("%w: more than %d documents", ErrStore, maxStoreID)
		}
		if err := s.deleteLocked(b, d.URL); err != nil {
			return nil, err
		}
		val := make([]byte, 8+len(d.URL))
		binary.BigEndian.PutUint64(val, d.Fingerprint)
		copy(val[8:], d.URL)
		b.Set(docKey(id), val, nil)
		binary.BigEndian.PutUint64(idb[:], id)
		b.Set(append([]byte{'u'}, d.URL...), idb[:], nil)
		for ti := range s.tables {
			b.Set(tableKey(ti, s.tables[ti].permute(d.Fingerprint), id), nil, nil)
		}
		out = append(out, StoredDoc{ID: id, URL: d.URL, Fingerprint: d.Fingerprint})
		id++
	}
	binary.BigEndian.PutUint64(idb[:], id)
	b.Set([]byte("n"), idb[:], nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return nil, err
	}
	s.next = id
	return out, nil
}

// Delete removes the document with this URL; it reports whether there was
// one.
func (s *Store) Delete(url string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	if err := s.deleteLocked(b, url); err != nil {
		return false, err
	}
	if b.Empty() {
		return false, nil
	}
	return true, b.Commit(pebble.Sync)
}

// deleteLocked adds to b the deletion of the document with this URL.
func (s *Store) deleteLocked(b *pebble.Batch, url string) error {
	uk := append([]byte{'u'}, url...)
	v, closer, err := s.db.Get(uk)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	id := binary.BigEndian.Uint64(v)
	closer.Close()
	d, err := s.get(id)
	if err != nil {
		return err
	}
	b.Delete(uk, nil)
	b.Delete(docKey(id), nil)
	for ti := range s.tables {
		b.Delete(tableKey(ti, s.tables[ti].permute(d.Fingerprint), id), nil)
	}
	return nil
}

// get reads a document by id.
func (s *Store) get(id uint64) (StoredDoc, error) {
	v, closer, err := s.db.Get(docKey(id))
	if err != nil {
		return StoredDoc{}, fmt.Errorf("%w: document %d: %v", ErrStore, id, err)
	}
	defer closer.Close()
	if len(v) < 8 {
		return StoredDoc{}, fmt.Errorf("%w: document %d: short record", ErrStore, id)
	}
	return StoredDoc{ID: id, Fingerprint: binary.BigEndian.Uint64(v), URL: string(v[8:])}, nil
}

// Query calls fn, in increasing id order, for every stored document within
// the store's K bits of fp.
func (s *Store) Query(fp uint64, fn func(d StoredDoc, dist int)) error {
	found := map[uint64]int{}
	for ti := range s.tables {
		t := &s.tables[ti]
		q := t.permute(fp)
		shift := 64 - t.prefix
		lo := tableKey(ti, q>>shift<<shift, 0)
		var hi []byte
		if top := q >> shift; top == (uint64(1)<<t.prefix)-1 {
			hi = []byte{'t', byte(ti + 1)}
		} else {
			hi = tableKey(ti, (top+1)<<shift, 0)
		}
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
		if err != nil {
			return err
		}
		for it.First(); it.Valid(); it.Next() {
			k := it.Key()
			d := bits.OnesCount64(binary.BigEndian.Uint64(k[2:10]) ^ q)
			if d <= s.layout.K {
				found[id5(k[10:15])] = d
			}
		}
		if err := it.Close(); err != nil {
			return err
		}
	}
	ids := make([]uint64, 0, len(found))
	for id := range found {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		d, err := s.get(id)
		if err != nil {
			return err
		}
		fn(d, found[id])
	}
	return nil
}

// StoreStats describe a store.
type StoreStats struct {
	Documents int    `json:"documents"`
	DiskBytes uint64 `json:"disk_bytes"`
	Layout    string `json:"layout"`
}

// Stats counts the documents and the bytes the store takes on disk.
func (s *Store) Stats() (StoreStats, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte("d"), UpperBound: []byte("e")})
	if err != nil {
		return StoreStats{}, err
	}
	n := 0
	for it.First(); it.Valid(); it.Next() {
		n++
	}
	if err := it.Close(); err != nil {
		return StoreStats{}, err
	}
	return StoreStats{Documents: n, DiskBytes: s.db.Metrics().DiskSpaceUsage(), Layout: s.layout.String()}, nil
}

// quietLogger keeps pebble's messages out of the library's output.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}
