package dedup

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"

	"github.com/winnow-go/winnow/internal/par"
)

// Store is a persistent, incremental near-duplicate index on pebble. Its
// lookup structures are sorted keys, so a query reads a few short key
// ranges instead of scanning the collection:
//
//   - SimHash: Manku's permuted tables, one key per table, and a b-bit
//     MinHash sketch per document to verify the candidates;
//   - MinHash (the default): one key per LSH band, and a one-byte-per-position (b-bit,
//     Li and König) signature per document to estimate the Jaccard
//     similarity of the candidates;
//   - seed 000's signatures (md5, tfidf, longsent, heavysent, lexrand):
//     one key per signature. TF*IDF, Heavy Sent and Lex Rand need the
//     collection's term statistics: they are stored with the index,
//     versioned, and rebuilt when the collection has changed by more than
//     StaleShare since they were frozen; a rebuild re-signs every
//     document (from its stored text) under a new generation and switches
//     to it in one synced batch.
//
// The method and its settings are fixed when the store is created. Each
// AddBatch or Delete is one batch, synced before it returns: after a crash
// every document reported as added is there and the lookup keys agree
// with the documents.
//
// Keys (ids are 8 bytes big-endian in document keys and minimal
// big-endian, 1 to 8 bytes, at the end of lookup keys):
//
//	"m"                        settings (JSON, with the key layout version)
//	"n"                        the next document id
//	"d" id                     SimHash: fingerprint, sketch, URL; MinHash: signature bytes, URL; others: URL
//	"u" URL                    id (uvarint)
//	"t" table permuted id      SimHash tables (empty value)
//	"b" band key(4) id         MinHash bands (empty value)
//	"v" id(8) id               MinHash (version 5): a verified near-duplicate of id (version 7: or nearly one; empty value)
//	"w" id                     MinHash (version 5): id's near-duplicates are not all kept (see maxNear)
//	"k" band key(4)            MinHash (version 6): the band bucket is crowded (see store_crowded.go)
//	"s" gen signature(8) id    signatures (empty value)
//	"g" gen id                 a document's signatures in generation gen
//	"x" id                     the text, for the methods that need statistics
//	"S"                        generation, then the statistics (TermStats.WriteTo)
//	"c"                        documents added, deleted since the statistics were frozen (uvarints)
//
// Each kind of index has its own file, with its keys, how it signs and
// how a query finds and scores candidates: store_simhash.go,
// store_minhash.go and store_signatures.go (see indexKind).
//
// Store is safe for concurrent use: queries may run while documents are
// added and while statistics are rebuilt.
type Store struct {
	db   *pebble.DB
	opts StoreOptions
	kind indexKind

	mu   sync.Mutex // serialises writers: id allocation, URL keys, rebuilds
	next uint64

	// gmu guards the kind's signing state against a rebuild: a query
	// signs and looks up under one generation.
	gmu sync.RWMutex
}

// StoreVersion is the newest version of the key layout, that of new
// MinHash stores. Version 4 signs the MinHash signature (and the SimHash
// store's sketch) with one permutation hashing (OnePermHasher: one hash
// a shingle, which makes signing a query 20 to 30 times faster); version
// 3, which still opens, with 128 permutations (MinHasher). The keys are
// the same. Version 5 (MinHash) also keeps each document's verified
// near-duplicates ("v" keys, see store_minhash.go), so that the query of
// a held document needs no band seek; a winnow built before it would add
// documents without them, and refuses such a store. Version 6 (MinHash)
// also marks crowded band buckets ("k" keys, see store_crowded.go), so
// that adding one more copy of a large family of identical pages costs
// the same as any add; a store of version 5 is raised to 6 by the write
// that crowds its first bucket. Version 7 (MinHash) also keeps in a
// document's "v" keys those a few signature positions short of the
// threshold (listMargin), so that a query within that many positions of
// a held document (a page recrawled with a few words changed, under its
// URL or another) is answered from that document's keys too (see
// anchored in store_minhash.go); a winnow built before it would keep
// shorter lists, and refuses such a store. New SimHash stores
// take version 4. The signature methods keep no sketch: their new stores
// still take version 3, so that older winnow builds keep opening them.
const StoreVersion = 7

// storeVersion is the key layout version of a new store of method m.
func storeVersion(m Method) int {
	switch m {
	case MethodMinHash:
		return StoreVersion
	case MethodSimHash:
		return 4
	}
	return 3
}

// newestStoreVersion is the newest key layout version a store of method
// m may have: only MinHash stores have versions 5 (neighbour keys), 6
// (crowded buckets) and 7 (neighbour keys with a margin).
func newestStoreVersion(m Method) int {
	if m == MethodMinHash {
		return StoreVersion
	}
	return 4
}

// oldestStoreVersion is the oldest key layout version a store may have.
const oldestStoreVersion = 3

// StoreOptions fix how a store finds near-duplicates; they are kept with
// it. Zero fields take the defaults.
type StoreOptions struct {
	Method Method `json:"-"`
	K      int    `json:"k,omitempty"` // SimHash Hamming distance; default 3
	// Threshold is the estimated Jaccard similarity of a near-duplicate;
	// default 0.8. A SimHash store verifies its candidates on it too;
	// one made before it did (key layout version 3 without a threshold)
	// has 0 and does not.
	Threshold float64 `json:"threshold,omitempty"`
}

func (o *StoreOptions) ensureDefaults() {
	switch {
	case o.Method == MethodSimHash:
		if o.K == 0 {
			o.K = 3
		}
		if o.Threshold == 0 {
			o.Threshold = 0.8
		}
	case o.Method == MethodMinHash:
		if o.Threshold == 0 {
			o.Threshold = 0.8
		}
		o.K = 0
	default:
		o.K, o.Threshold = 0, 0
	}
}

func (o StoreOptions) String() string {
	switch o.Method {
	case MethodSimHash:
		if o.Threshold == 0 {
			return fmt.Sprintf("simhash k=%d (unverified: made before SimHash indexes verified their candidates; rebuild it)", o.K)
		}
		return fmt.Sprintf("simhash k=%d verified at %g", o.K, o.Threshold)
	case MethodMinHash:
		return fmt.Sprintf("minhash threshold=%g", o.Threshold)
	}
	return o.Method.String()
}

// storeMeta is the stored form of the settings.
type storeMeta struct {
	Version int    `json:"version"`
	Method  string `json:"method"`
	StoreOptions
}

// StoredDoc is a document held by a Store.
type StoredDoc struct {
	ID          uint64
	URL         string
	Fingerprint uint64 // SimHash stores only
	// Replaced is set when the store held a document of this URL before
	// the batch: it is gone, replaced by this one.
	Replaced bool
}

// Entry is a document to add or to look up: its URL and text. A SimHash
// store uses Fingerprint instead of the text when HasFingerprint is set.
type Entry struct {
	URL            string
	Text           string
	Fingerprint    uint64
	HasFingerprint bool
}

// Match is a held document found by a query.
type Match struct {
	StoredDoc
	// Distance is the SimHash Hamming distance (SimHash stores; else -1).
	Distance int
	// Similarity is the estimated Jaccard similarity of the 3-word
	// shingles (MinHash; SimHash when Verified), 1 - Distance/64
	// (SimHash unverified), or the share of signatures in common
	// (signature methods; 1 for the one-signature methods).
	Similarity float64
	// Verified says that the candidate's estimated Jaccard similarity
	// reached the store's threshold (MinHash; SimHash but for a legacy
	// store or a document given by its fingerprint alone). The signature
	// methods do not verify: a shared signature is the match.
	Verified bool
}

// ErrStore wraps the errors of a store that cannot be used as asked.
var ErrStore = errors.New("dedup: store")

// ErrNoSignature reports a text with nothing to sign (no words).
var ErrNoSignature = errors.New("dedup: no words to sign")

// ErrNoStore is returned by OpenExistingStore when the folder holds no
// index.
var ErrNoStore = errors.New("dedup: no index there")

// OpenExistingStore opens the store in dir as OpenStore does, but never
// creates one: a folder that holds no index (a mistyped path) is
// ErrNoStore, so a query cannot answer "no duplicates" from an empty
// index made by mistake.
func OpenExistingStore(dir string, want *StoreOptions) (*Store, error) {
	return OpenExistingStoreWith(dir, want, OpenOptions{})
}

// OpenExistingStoreWith is OpenExistingStore, opened as o says.
func OpenExistingStoreWith(dir string, want *StoreOptions, o OpenOptions) (*Store, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%w: %s", ErrNoStore, dir)
	}
	return openDir(dir, want, o, false)
}

// OpenOptions are how a store is opened by this process; unlike
// StoreOptions, the store does not keep them.
type OpenOptions struct {
	// CacheBytes bounds the block cache, which holds the tables' bloom
	// filters, index blocks and the data blocks read most; 0 means
	// DefaultCacheBytes. It takes memory only as blocks are read.
	CacheBytes int64
}

// DefaultCacheBytes is a store's block cache when OpenOptions leave it
// unset. A query seeks each of its bands through the bloom filter of a
// table at each level, and a table's filter is one block: when the
// filters and index blocks (39 bytes a MinHash document: 24.7 and 14.3)
// do not fit, each query reloads some, up to 2 MB a filter. On a
// million generated documents a query of a held document took 200 µs
// at the median and 4.3 ms at p99 with 64 MB, and 180 µs and 0.6-1.1 ms
// with 128 MB; on ten million (4.1 GB) a query of an unrelated document
// took 2.7 ms at the median and 29 ms at p99 with 128 MB, 78 µs and
// 0.48 ms with 512 MB, which holds them for about thirteen million
// documents.
const DefaultCacheBytes = 512 << 20

func storePebbleOptions(o OpenOptions) pebble.Options {
	cache := o.CacheBytes
	if cache <= 0 {
		cache = DefaultCacheBytes
	}
	opts := pebble.Options{Logger: quietLogger{}, Comparer: &storeComparer, CacheSize: cache}
	// zstd on the lower levels, where compaction leaves most of the store.
	opts.ApplyCompressionSettings(func() pebble.DBCompressionSettings { return pebble.DBCompressionGood })
	// A bloom filter of every table's key prefixes (storeSplit): most of
	// a query's band keys are in no table, or in one level of the tree,
	// and the filters answer for the others without reading a block.
	// Blocks of 1 kB rather than 4: a band lookup reads one block to find
	// one key, and a smaller block is less to read, check and decompress
	// (on a million documents a query of a held document took 126 µs at
	// the median against 190 µs, for 8% more bytes on disk).
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		opts.Levels[i].BlockSize = 1 << 10
	}
	return opts
}

// storeComparer orders keys bytewise, as pebble's default comparer
// does, and under its name, so stores made before it open unchanged; it
// differs only in storeSplit, which the bloom filters and prefix seeks
// use. Stores written without filters have none to disagree with.
var storeComparer = func() pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Split = storeSplit
	return c
}()

// storeSplit is the prefix of a key that a lookup seeks: a MinHash band
// key without the document id that ends it ("b" band key(4)), a
// neighbour key without the neighbour's id ("v" id(8)); any other key
// whole.
func storeSplit(key []byte) int {
	switch {
	case len(key) > bandPrefixLen && key[0] == 'b':
		return bandPrefixLen
	case len(key) > nearPrefixLen && key[0] == 'v':
		return nearPrefixLen
	}
	return len(key)
}

// DefaultStoreOptions are the settings of a store created without any:
// MinHash at an estimated Jaccard similarity of 0.8, the method measured
// best (a SimHash store at k=3 misses near-duplicates that MinHash finds;
// see DefaultDedupOptions in package pipeline).
func DefaultStoreOptions() StoreOptions {
	return StoreOptions{Method: MethodMinHash, Threshold: 0.8}
}

// OpenStore opens the store in dir, or creates it. With want nil an
// existing store keeps its settings and a new one takes the defaults
// (DefaultStoreOptions);
// otherwise the store is created with *want, and an existing store with
// other settings is an error.
func OpenStore(dir string, want *StoreOptions) (*Store, error) {
	return OpenStoreWith(dir, want, OpenOptions{})
}

// OpenStoreWith is OpenStore, opened as o says.
func OpenStoreWith(dir string, want *StoreOptions, o OpenOptions) (*Store, error) {
	return openDir(dir, want, o, true)
}

// openDir opens the pebble database in dir and the store in it; without
// create, a folder that holds no database or no store is ErrNoStore.
func openDir(dir string, want *StoreOptions, o OpenOptions, create bool) (*Store, error) {
	opts := storePebbleOptions(o)
	opts.ErrorIfNotExists = !create
	db, err := pebble.Open(dir, &opts)
	switch {
	case errors.Is(err, pebble.ErrDBDoesNotExist):
		return nil, fmt.Errorf("%w: %s", ErrNoStore, dir)
	case err != nil:
		return nil, fmt.Errorf("%w: open %s: %v", ErrStore, dir, err)
	}
	s, err := openStore(db, dir, want, create)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func openStore(db *pebble.DB, dir string, want *StoreOptions, create bool) (*Store, error) {
	s := &Store{db: db}
	var version int
	v, err := dbValue(db, []byte("m"))
	switch {
	case errors.Is(err, pebble.ErrNotFound) && !create:
		return nil, fmt.Errorf("%w: %s", ErrNoStore, dir)
	case errors.Is(err, pebble.ErrNotFound):
		s.opts = DefaultStoreOptions()
		if want != nil {
			s.opts = *want
		}
		s.opts.ensureDefaults()
		version = storeVersion(s.opts.Method)
		meta, err := json.Marshal(storeMeta{Version: version, Method: s.opts.Method.String(), StoreOptions: s.opts})
		if err != nil {
			return nil, err
		}
		if err := db.Set([]byte("m"), meta, pebble.Sync); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		var m storeMeta
		if err := json.Unmarshal(v, &m); err != nil || m.Version < oldestStoreVersion || m.Version > StoreVersion {
			return nil, fmt.Errorf("%w: %s is not a winnow index of version %d to %d (settings %q)", ErrStore, dir, oldestStoreVersion, StoreVersion, v)
		}
		version = m.Version
		method, err := ParseMethod(m.Method)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrStore, dir, err)
		}
		if top := newestStoreVersion(method); version > top {
			return nil, fmt.Errorf("%w: %s: a %v index of version %d (newest %d)", ErrStore, dir, method, version, top)
		}
		s.opts = m.StoreOptions
		s.opts.Method = method
		if want != nil {
			w := *want
			w.ensureDefaults()
			if s.opts.Method == MethodSimHash && s.opts.Threshold == 0 {
				w.Threshold = 0 // a legacy store: its tables are what is asked
			}
			if w != s.opts {
				return nil, fmt.Errorf("%w: %s holds a %v index, not %v", ErrStore, dir, s.opts, w)
			}
		}
	}
	if v, err := dbValue(db, []byte("n")); err == nil && len(v) == 8 {
		s.next = binary.BigEndian.Uint64(v)
	} else if err != nil && !errors.Is(err, pebble.ErrNotFound) {
		return nil, err
	}
	s.kind, err = newIndexKind(db, s.opts, version, &s.gmu)
	return s, err
}

// indexKind is what differs between the kinds of index a store can hold
// (store_simhash.go, store_minhash.go, store_signatures.go): how a text
// is signed, the lookup keys a document has, how a query finds and scores
// its candidates, and the upkeep after a write. The store holds the rest:
// the document and URL records, ids, batches and their commits.
type indexKind interface {
	// sign computes what the kind keeps of an entry; ok is false for a
	// text with nothing to sign, which the store does not hold.
	sign(e Entry) (sd signed, ok bool)
	// put adds to b the lookup keys (and any other records of the kind)
	// of a new document id; text is the entry's text. b is an indexed
	// batch: reading through it sees the documents held with the batch's
	// changes.
	put(b *pebble.Batch, id uint64, sd signed, text string) error
	// remove adds to b (indexed) the deletion of what put wrote for
	// document id, whose "d" record is rec.
	remove(b *pebble.Batch, id uint64, rec []byte) error
	// doc reads a "d" record.
	doc(id uint64, rec []byte) (StoredDoc, error)
	// query calls found for each held near-duplicate of sd, in any order
	// and maybe more than once, with its "d" record read on the same
	// view as the lookup keys (see onIter); distance is -1 but for SimHash, and verified says
	// whether the similarity was checked on the documents' sketches. It
	// counts its work in qs.
	query(sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) error
	// describe fills in the kind's part of the store's statistics.
	describe(st *StoreStats)
	// commit commits a writer's batch, synced, that added and deleted
	// documents; rebuild runs after it, under the writer's lock, and
	// rebuilds what the kind derives from the collection when that has
	// gone stale, or always with force.
	commit(b *pebble.Batch, added, deleted int) error
	rebuild(force bool) error
}

// signed is an entry as its index kind keeps it.
type signed interface {
	// record is the kind's part of the document's "d" record, before the URL.
	record() []byte
}

// newIndexKind prepares the index of a store with these settings and key
// layout version.
func newIndexKind(db *pebble.DB, opts StoreOptions, version int, gmu *sync.RWMutex) (indexKind, error) {
	sk, err := newSketcher(version)
	if err != nil {
		return nil, err
	}
	switch m := opts.Method; {
	case m == MethodSimHash:
		return newSimKind(db, sk, opts.K, opts.Threshold)
	case m == MethodMinHash:
		return newMinKind(db, sk, opts.Threshold, version)
	case m.Signed():
		return newSigKind(db, m, gmu)
	}
	return nil, fmt.Errorf("%w: unknown method %d", ErrStore, opts.Method)
}

// noUpkeep is the commit and rebuild of the kinds that derive nothing
// from the collection.
type noUpkeep struct{}

func (noUpkeep) commit(b *pebble.Batch, _, _ int) error { return b.Commit(pebble.Sync) }
func (noUpkeep) rebuild(bool) error                     { return nil }

// heldQuerier is a kind that can answer the query of a document it holds
// from what it kept at add time. queryHeld finds what query would for
// the entry of this URL signed sd, and reports ok; ok is false, with
// nothing found, when it cannot (the URL not held, or held with another
// signature), and the query goes the usual way.
type heldQuerier interface {
	queryHeld(url string, sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) (ok bool, err error)
}

// batchPreparer is a kind that reads, before AddBatch writes its batch,
// what the batch's documents will look up, in the order the store keeps
// it (prepare, with the signatures to be added); done forgets it after
// the batch.
type batchPreparer interface {
	prepare(sds []signed) error
	done()
}

// dbValue reads a key's value into a fresh slice.
func dbValue(db pebble.Reader, key []byte) ([]byte, error) {
	v, closer, err := db.Get(key)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return bytes.Clone(v), nil
}

// scanKeys calls fn with every key that starts with prefix and the id
// that ends it.
func scanKeys(db *pebble.DB, prefix []byte, fn func(key []byte, id uint64)) error {
	hi := bytes.Clone(prefix)
	for i := len(hi) - 1; i >= 0; i-- {
		if hi[i]++; hi[i] != 0 {
			hi = hi[:i+1]
			break
		}
	}
	return scanRange(db, prefix, hi, len(prefix), fn)
}

// scanPrefixes calls fn with every key that starts with one of prefixes,
// all of the same length, and the id that ends it, on one iterator: a
// query's band keys are many short ranges, and making an iterator costs
// more than seeking one.
func scanPrefixes(db pebble.Reader, prefixes [][]byte, fn func(key []byte, id uint64)) error {
	if len(prefixes) == 0 {
		return nil
	}
	return onIter(db, func(it *pebble.Iterator) error { return scanIter(it, prefixes, fn) })
}

// onIter runs fn on one new iterator of r, one consistent view: a query
// reads its lookup keys and the records they point at on it, so that a
// document replaced or deleted meanwhile is either found whole or not at
// all (read apart, a key could point at a record gone, and the query
// fail). Most lookup keys are in no table: the bottom level's filters
// too answer for them, where pebble would otherwise read a data block.
func onIter(r pebble.Reader, fn func(it *pebble.Iterator) error) (err error) {
	it, err := r.NewIter(&pebble.IterOptions{UseL6Filters: true})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := it.Close(); err == nil {
			err = cerr
		}
	}()
	return fn(it)
}

// scanIter is scanPrefixes on it.
func scanIter(it *pebble.Iterator, prefixes [][]byte, fn func(key []byte, id uint64)) error {
	for _, p := range prefixes {
		seek := it.SeekGE
		if isSplitPrefix(p) {
			seek = it.SeekPrefixGE // the bloom filters skip the tables without p
		}
		for seek(p); it.Valid() && bytes.HasPrefix(it.Key(), p); it.Next() {
			fn(it.Key(), keyID(it.Key(), len(p)))
		}
	}
	return it.Error()
}

// isSplitPrefix says whether p is the whole prefix (storeSplit) of the
// keys that start with it, which the bloom filters know.
func isSplitPrefix(p []byte) bool {
	return len(p) == bandPrefixLen && p[0] == 'b' || len(p) == nearPrefixLen && p[0] == 'v'
}

// scanRange calls fn with every key from lo (included) to hi (excluded)
// and the id that ends it after the first idAt bytes.
func scanRange(db *pebble.DB, lo, hi []byte, idAt int, fn func(key []byte, id uint64)) error {
	return onIter(db, func(it *pebble.Iterator) error { return scanIterRange(it, lo, hi, idAt, fn) })
}

// scanIterRange is scanRange on it. It bounds it meanwhile, so that the
// end of the range reads no block past it, and leaves it unbounded.
func scanIterRange(it *pebble.Iterator, lo, hi []byte, idAt int, fn func(key []byte, id uint64)) error {
	it.SetBounds(lo, hi)
	for valid := it.First(); valid; valid = it.Next() {
		fn(it.Key(), keyID(it.Key(), idAt))
	}
	err := it.Error()
	it.SetBounds(nil, nil)
	return err
}

// Options are the store's settings.
func (s *Store) Options() StoreOptions { return s.opts }

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

func docKey(prefix byte, id uint64) []byte {
	k := make([]byte, 9)
	k[0] = prefix
	binary.BigEndian.PutUint64(k[1:], id)
	return k
}

// appendID appends id in as few big-endian bytes as hold it: lookup keys
// are most of a store, and the id is the one part of them that would
// otherwise be mostly zeros.
func appendID(k []byte, id uint64) []byte {
	n := max(1, (bits.Len64(id)+7)/8)
	for i := n - 1; i >= 0; i-- {
		k = append(k, byte(id>>(8*i)))
	}
	return k
}

// keyID reads the id that ends a lookup key whose fixed part is n bytes.
func keyID(k []byte, n int) uint64 {
	var id uint64
	for _, b := range k[n:] {
		id = id<<8 | uint64(b)
	}
	return id
}

// docRecord reads document id's "d" record.
func docRecord(db pebble.Reader, id uint64) ([]byte, error) {
	v, err := dbValue(db, docKey('d', id))
	if err != nil {
		return nil, fmt.Errorf("%w: document %d: %v", ErrStore, id, err)
	}
	return v, nil
}

// shortRecord reports a "d" record too short for its kind.
func shortRecord(id uint64) error {
	return fmt.Errorf("%w: document %d: short record", ErrStore, id)
}

// Add stores one document; see AddBatch.
func (s *Store) Add(e Entry) (StoredDoc, error) {
	docs, err := s.AddBatch([]Entry{e})
	if err != nil {
		return StoredDoc{}, err
	}
	if len(docs) == 0 {
		return StoredDoc{}, ErrNoSignature
	}
	return docs[0], nil
}

// AddBatch stores documents in one synced batch and returns those added,
// with their ids; an entry with nothing to sign is left out. A URL already
// held, or repeated later in the batch, is replaced by its last
// occurrence. For the statistics methods the batch may be followed by a
// rebuild (see Store).
func (s *Store) AddBatch(es []Entry) ([]StoredDoc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := make(map[string]int, len(es))
	for i, e := range es {
		last[e.URL] = i
	}
	sds := make([]signed, len(es))
	oks := make([]bool, len(es))
	// Signing, a third of an add, needs no other document: the
	// batch's entries are signed on every core.
	s.gmu.RLock()
	par.Each(len(es), runtime.GOMAXPROCS(0), func(i int) {
		if last[es[i].URL] == i {
			sds[i], oks[i] = s.kind.sign(es[i])
		}
	})
	s.gmu.RUnlock()

	if p, ok := s.kind.(batchPreparer); ok {
		var put []signed
		for i, e := range es {
			if last[e.URL] == i && oks[i] {
				put = append(put, sds[i])
			}
		}
		defer p.done()
		if err := p.prepare(put); err != nil {
			return nil, err
		}
	}
	b := s.db.NewIndexedBatch()
	defer b.Close()
	var out []StoredDoc
	id := s.next
	deleted := 0
	for i, e := range es {
		if last[e.URL] != i {
			continue
		}
		gone, err := s.deleteLocked(b, e.URL)
		if err != nil {
			return nil, err
		}
		if gone {
			deleted++
		}
		if !oks[i] {
			continue
		}
		replaced := gone
		rec := append(sds[i].record(), e.URL...)
		b.Set(docKey('d', id), rec, nil)
		b.Set(append([]byte{'u'}, e.URL...), binary.AppendUvarint(nil, id), nil)
		if err := s.kind.put(b, id, sds[i], e.Text); err != nil {
			return nil, err
		}
		d, err := s.kind.doc(id, rec)
		if err != nil {
			return nil, err
		}
		d.Replaced = replaced
		out = append(out, d)
		id++
	}
	b.Set([]byte("n"), binary.BigEndian.AppendUint64(nil, id), nil)
	if err := s.kind.commit(b, len(out), deleted); err != nil {
		return nil, err
	}
	s.next = id
	return out, s.kind.rebuild(false)
}

// Delete removes the document with this URL; it reports whether there was
// one.
func (s *Store) Delete(url string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewIndexedBatch()
	defer b.Close()
	gone, err := s.deleteLocked(b, url)
	if err != nil || !gone {
		return false, err
	}
	if err := s.kind.commit(b, 0, 1); err != nil {
		return false, err
	}
	return true, s.kind.rebuild(false)
}

// deleteLocked adds to b the deletion of the document with this URL.
func (s *Store) deleteLocked(b *pebble.Batch, url string) (bool, error) {
	uk := append([]byte{'u'}, url...)
	v, err := dbValue(s.db, uk)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	id, n := binary.Uvarint(v)
	if n <= 0 {
		return false, fmt.Errorf("%w: URL key of %s: bad id", ErrStore, url)
	}
	rec, err := docRecord(s.db, id)
	if err != nil {
		return false, err
	}
	if err := s.kind.remove(b, id, rec); err != nil {
		return false, err
	}
	b.Delete(uk, nil)
	b.Delete(docKey('d', id), nil)
	return true, nil
}

// Rebuild recomputes the statistics from the stored texts and re-signs
// the collection (the statistics methods; others have nothing to rebuild).
func (s *Store) Rebuild() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kind.rebuild(true)
}

// TermStatsState describes a statistics method's frozen statistics: the
// number of documents they were built from, and the documents added and
// deleted since. Other methods give zeros.
func (s *Store) TermStatsState() (docs, added, deleted int) {
	var st StoreStats
	s.kind.describe(&st)
	return st.StatsDocs, st.StatsAdded, st.StatsDeleted
}

// Query calls fn, in increasing id order, for every held near-duplicate of
// an entry: within K bits (SimHash), sharing a band with an estimated
// Jaccard similarity of at least the threshold (MinHash), or sharing a
// signature. A text with nothing to sign is ErrNoSignature.
func (s *Store) Query(q Entry, fn func(Match)) error {
	_, err := s.QueryStats(q, fn)
	return err
}

// QueryStats count the work of one query.
type QueryStats struct {
	// Keys is the number of lookup keys read: SimHash table keys sharing
	// a table's leading bits with the query, MinHash band keys equal to
	// one of its bands, shared signatures.
	Keys int
	// Candidates is the number of distinct held documents whose record
	// was read to check them (SimHash: those within K bits; MinHash:
	// those sharing a band; the signature methods: those sharing a
	// signature, whose signatures are read to score them).
	Candidates int
	// Held says that the store holds a document with the query's
	// signature (from key layout version 7, one within a few positions
	// of it), under the query's URL or found in the query's bands, and
	// the query was answered from the near-duplicates kept with it
	// (MinHash stores of key layout version 5 and later): Keys then
	// counts its neighbour keys and the band keys read, and Candidates
	// the records read, its own included.
	Held bool
	// bandsOnly makes a MinHash query seek all its bands (tests).
	bandsOnly bool
}

// QueryStats is Query, and it also says how much the query read.
func (s *Store) QueryStats(q Entry, fn func(Match)) (QueryStats, error) {
	return s.queryStats(q, QueryStats{}, fn)
}

// queryStats is QueryStats, counting in qs.
func (s *Store) queryStats(q Entry, qs QueryStats, fn func(Match)) (QueryStats, error) {
	s.gmu.RLock()
	defer s.gmu.RUnlock()
	sd, ok := s.kind.sign(q)
	if !ok {
		return qs, ErrNoSignature
	}
	type hit struct {
		m   Match
		rec []byte
	}
	found := map[uint64]hit{}
	add := func(id uint64, rec []byte, distance int, similarity float64, verified bool) {
		found[id] = hit{Match{Distance: distance, Similarity: similarity, Verified: verified}, rec}
	}
	var err error
	if hq, ok := s.kind.(heldQuerier); ok && q.URL != "" {
		qs.Held, err = hq.queryHeld(q.URL, sd, &qs, add)
	}
	if err == nil && !qs.Held {
		err = s.kind.query(sd, &qs, add)
	}
	if err != nil {
		return qs, err
	}
	ids := make([]uint64, 0, len(found))
	for id := range found {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		h := found[id]
		d, err := s.kind.doc(id, h.rec)
		if err != nil {
			return qs, err
		}
		h.m.StoredDoc = d
		fn(h.m)
	}
	return qs, nil
}

// StoreStats describe a store.
type StoreStats struct {
	Documents int    `json:"documents"`
	DiskBytes uint64 `json:"disk_bytes"`
	Method    string `json:"method"`
	Layout    string `json:"layout"`
	// The statistics methods: the documents the frozen statistics were
	// built from, and the changes since.
	StatsDocs    int `json:"stats_documents,omitempty"`
	StatsAdded   int `json:"stats_added_since,omitempty"`
	StatsDeleted int `json:"stats_deleted_since,omitempty"`
}

// Stats counts the documents and the bytes the store takes on disk.
func (s *Store) Stats() (StoreStats, error) {
	n := 0
	if err := scanKeys(s.db, []byte("d"), func([]byte, uint64) { n++ }); err != nil {
		return StoreStats{}, err
	}
	out := StoreStats{Documents: n, DiskBytes: s.db.Metrics().DiskSpaceUsage(), Method: s.opts.String()}
	s.kind.describe(&out)
	return out, nil
}

// quietLogger keeps pebble's messages out of the library's output.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}
