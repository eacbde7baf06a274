package dedup

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Store is a persistent, incremental near-duplicate index on pebble. Its
// lookup structures are sorted keys, so a query reads a few short key
// ranges instead of scanning the collection:
//
//   - SimHash (the default): Manku's permuted tables, one key per table;
//   - MinHash: one key per LSH band, and a one-byte-per-position (b-bit,
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
//	"d" id                     SimHash: fingerprint, URL; MinHash: signature bytes, URL; others: URL
//	"u" URL                    id (uvarint)
//	"t" table permuted id      SimHash tables (empty value)
//	"b" band key(4) id         MinHash bands (empty value)
//	"s" gen signature(8) id    signatures (empty value)
//	"g" gen id                 a document's signatures in generation gen
//	"x" id                     the text, for the methods that need statistics
//	"S"                        generation, then the statistics (TermStats.WriteTo)
//	"c"                        documents added, deleted since the statistics were frozen (uvarints)
//
// Store is safe for concurrent use: queries may run while documents are
// added and while statistics are rebuilt.
type Store struct {
	db   *pebble.DB
	opts StoreOptions

	// SimHash
	layout Layout
	tables []table
	simFP  *Normalizer
	// MinHash
	mh     *MinHasher
	mhNorm *Normalizer
	bands  Bands
	// signatures
	tokNorm *Normalizer

	mu   sync.Mutex // serialises writers: id allocation, URL keys, rebuilds
	next uint64

	gmu    sync.RWMutex // guards the signing state below against a rebuild
	gen    byte
	stats  *TermStats
	signer *Signer
	added  int // documents added since the statistics were frozen
	deltd  int // and deleted
}

// StoreVersion is the version of the key layout.
const StoreVersion = 3

// StoreOptions fix how a store finds near-duplicates; they are kept with
// it. Zero fields take the defaults.
type StoreOptions struct {
	Method    Method  `json:"-"`
	K         int     `json:"k,omitempty"`         // SimHash Hamming distance; default 3
	Threshold float64 `json:"threshold,omitempty"` // MinHash estimated Jaccard of a near-duplicate; default 0.8
}

func (o *StoreOptions) ensureDefaults() {
	switch {
	case o.Method == MethodSimHash:
		if o.K == 0 {
			o.K = 3
		}
		o.Threshold = 0
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
		return fmt.Sprintf("simhash k=%d", o.K)
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

const (
	// storeLayoutN is the collection size the SimHash tables are planned for.
	storeLayoutN = 10_000_000
	// storeNumPerm is the MinHash signature length, and storeSeed its seed.
	storeNumPerm = 128
	storeSeed    = 0
	// rebuildBatch is how many re-signed documents one rebuild batch holds.
	rebuildBatch = 10_000
)

// The features each method signs, fixed for the key layout version: as
// winnow dedup computes them by default.
var (
	storeSimShingles = []int{1, 2} // SimHash: words and word pairs
	storeMinShingles = []int{3}    // MinHash: 3-word shingles
)

// StoredDoc is a document held by a Store.
type StoredDoc struct {
	ID          uint64
	URL         string
	Fingerprint uint64 // SimHash stores only
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
	// Similarity is 1 - Distance/64 (SimHash), the estimated Jaccard
	// similarity (MinHash), or the share of signatures in common
	// (signature methods; 1 for the one-signature methods).
	Similarity float64
}

// ErrStore wraps the errors of a store that cannot be used as asked.
var ErrStore = errors.New("dedup: store")

// ErrNoSignature reports a text with nothing to sign (no words).
var ErrNoSignature = errors.New("dedup: no words to sign")

// OpenStore opens the store in dir, or creates it. With want nil an
// existing store keeps its settings and a new one takes the defaults;
// otherwise the store is created with *want, and an existing store with
// other settings is an error.
func OpenStore(dir string, want *StoreOptions) (*Store, error) {
	opts := pebble.Options{Logger: quietLogger{}}
	// zstd on the lower levels, where compaction leaves most of the store.
	opts.ApplyCompressionSettings(func() pebble.DBCompressionSettings { return pebble.DBCompressionGood })
	db, err := pebble.Open(dir, &opts)
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %v", ErrStore, dir, err)
	}
	s, err := openStore(db, dir, want)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func openStore(db *pebble.DB, dir string, want *StoreOptions) (*Store, error) {
	s := &Store{db: db}
	v, err := s.value([]byte("m"))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		if want != nil {
			s.opts = *want
		}
		s.opts.ensureDefaults()
		meta, err := json.Marshal(storeMeta{Version: StoreVersion, Method: s.opts.Method.String(), StoreOptions: s.opts})
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
		if err := json.Unmarshal(v, &m); err != nil || m.Version != StoreVersion {
			return nil, fmt.Errorf("%w: %s is not a winnow index of version %d (settings %q)", ErrStore, dir, StoreVersion, v)
		}
		method, err := ParseMethod(m.Method)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrStore, dir, err)
		}
		s.opts = m.StoreOptions
		s.opts.Method = method
		if want != nil {
			w := *want
			w.ensureDefaults()
			if w != s.opts {
				return nil, fmt.Errorf("%w: %s holds a %v index, not %v", ErrStore, dir, s.opts, w)
			}
		}
	}
	if v, err := s.value([]byte("n")); err == nil && len(v) == 8 {
		s.next = binary.BigEndian.Uint64(v)
	} else if err != nil && !errors.Is(err, pebble.ErrNotFound) {
		return nil, err
	}
	return s, s.prepare()
}

// value reads a key's value into a fresh slice.
func (s *Store) value(key []byte) ([]byte, error) {
	v, closer, err := s.db.Get(key)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return bytes.Clone(v), nil
}

// prepare builds the method's signing state from the settings and, for
// the statistics methods, from the stored statistics.
func (s *Store) prepare() error {
	var err error
	switch m := s.opts.Method; {
	case m == MethodSimHash:
		if s.layout, err = PlanLayout(s.opts.K, storeLayoutN, 0); err != nil {
			return fmt.Errorf("%w: %v", ErrStore, err)
		}
		s.tables = newTables(s.layout)
		s.simFP, err = NewNormalizer(Options{Shingles: storeSimShingles})
	case m == MethodMinHash:
		if s.opts.Threshold <= 0 || s.opts.Threshold > 1 {
			return fmt.Errorf("%w: threshold %v not in (0,1]", ErrStore, s.opts.Threshold)
		}
		s.mh = NewMinHasher(storeNumPerm, storeSeed)
		s.bands = ChooseBands(s.opts.Threshold, storeNumPerm, 0.01, 0.99)
		s.mhNorm, err = NewNormalizer(Options{Shingles: storeMinShingles})
	case m.Signed():
		if s.tokNorm, err = NewNormalizer(Options{}); err != nil {
			return err
		}
		s.stats = &TermStats{DF: map[string]int{}}
		if m.NeedsStats() {
			if err := s.readStats(); err != nil {
				return err
			}
		}
		s.signer = NewSigner(m, s.tokNorm, s.stats)
	default:
		return fmt.Errorf("%w: unknown method %d", ErrStore, m)
	}
	return err
}

// readStats loads the "S" and "c" keys: the generation, the statistics
// and the changes since.
func (s *Store) readStats() error {
	if v, err := s.value([]byte("c")); err == nil {
		r := bytes.NewReader(v)
		added, err1 := binary.ReadUvarint(r)
		deleted, err2 := binary.ReadUvarint(r)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%w: change counters: %v", ErrStore, err)
		}
		s.added, s.deltd = int(added), int(deleted)
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return err
	}
	v, err := s.value([]byte("S"))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(v) == 0 || v[0] > 1 {
		return fmt.Errorf("%w: statistics record: bad generation", ErrStore)
	}
	st, err := ReadTermStats(bytes.NewReader(v[1:]))
	if err != nil {
		// ErrStatsVersion among them: an index of this layout version
		// always holds statistics of this version.
		return fmt.Errorf("%w: %v", ErrStore, err)
	}
	s.gen, s.stats = v[0], st
	return nil
}

// statsValue is the "S" record of a generation.
func statsValue(gen byte, st *TermStats) ([]byte, error) {
	buf := bytes.NewBuffer([]byte{gen})
	if _, err := st.WriteTo(buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// countersValue is the "c" record.
func countersValue(added, deleted int) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(nil, uint64(added)), uint64(deleted))
}

// Options are the store's settings.
func (s *Store) Options() StoreOptions { return s.opts }

// Layout is a SimHash store's table layout.
func (s *Store) Layout() Layout { return s.layout }

// Bands is a MinHash store's LSH banding.
func (s *Store) Bands() Bands { return s.bands }

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

// tableKey is the key of a fingerprint in SimHash table ti.
func tableKey(ti int, perm uint64) []byte {
	k := make([]byte, 10, 18)
	k[0], k[1] = 't', byte(ti)
	binary.BigEndian.PutUint64(k[2:], perm)
	return k
}

// bandKey is the key of band b of a MinHash signature.
func bandKey(b int, key uint64) []byte {
	k := make([]byte, 6, 14)
	k[0], k[1] = 'b', byte(b)
	binary.BigEndian.PutUint32(k[2:], uint32(key))
	return k
}

// sigKey is the key of a signature in generation gen.
func sigKey(gen byte, sig uint64) []byte {
	k := make([]byte, 10, 18)
	k[0], k[1] = 's', gen
	binary.BigEndian.PutUint64(k[2:], sig)
	return k
}

// genDocKey is the key of a document's signatures in generation gen.
func genDocKey(gen byte, id uint64) []byte {
	k := make([]byte, 10)
	k[0], k[1] = 'g', gen
	binary.BigEndian.PutUint64(k[2:], id)
	return k
}

// signed is a document as a store keeps it.
type signed struct {
	fp   uint64   // SimHash
	mh   []byte   // MinHash, one byte per position
	sigs []uint64 // signature methods
}

// sign computes what the store keeps of an entry; ok is false for a text
// with nothing to sign, which the store does not hold.
func (s *Store) sign(e Entry) (signed, bool) {
	switch s.opts.Method {
	case MethodSimHash:
		if e.HasFingerprint {
			return signed{fp: e.Fingerprint}, true
		}
		fp, ok := s.simFP.Fingerprint(e.Text)
		return signed{fp: fp}, ok
	case MethodMinHash:
		sig := s.mh.Signature(s.mhNorm.Features(e.Text))
		if sig == nil {
			return signed{}, false
		}
		b := make([]byte, len(sig))
		for i, v := range sig {
			b[i] = byte(v)
		}
		return signed{mh: b}, true
	}
	sigs := s.signer.Sign(e.Text)
	if len(sigs) == 0 && s.opts.Method.NeedsStats() {
		// Statistics to come may give it signatures: a text with words
		// is held (the first batch is signed before any statistics).
		return signed{}, len(s.tokNorm.Tokens(e.Text)) > 0
	}
	return signed{sigs: sigs}, len(sigs) > 0
}

// bandKeysOf are the LSH band keys of a b-bit signature.
func (s *Store) bandKeysOf(mh []byte) []uint64 {
	sig := make([]uint64, len(mh))
	for i, v := range mh {
		sig[i] = uint64(v)
	}
	return s.bands.bandKeys(sig)
}

// lookupKeys are the lookup keys of a signed document, without its id.
func (s *Store) lookupKeys(sd signed, gen byte) [][]byte {
	var keys [][]byte
	switch s.opts.Method {
	case MethodSimHash:
		for ti := range s.tables {
			keys = append(keys, tableKey(ti, s.tables[ti].permute(sd.fp)))
		}
	case MethodMinHash:
		for b, k := range s.bandKeysOf(sd.mh) {
			keys = append(keys, bandKey(b, k))
		}
	default:
		for _, sig := range sd.sigs {
			keys = append(keys, sigKey(gen, sig))
		}
	}
	return keys
}

// docValue is a document's "d" record.
func (s *Store) docValue(sd signed, url string) []byte {
	var v []byte
	switch s.opts.Method {
	case MethodSimHash:
		v = binary.BigEndian.AppendUint64(v, sd.fp)
	case MethodMinHash:
		v = append(v, sd.mh...)
	}
	return append(v, url...)
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
	s.gmu.RLock()
	for i, e := range es {
		if last[e.URL] == i {
			sds[i], oks[i] = s.sign(e)
		}
	}
	gen := s.gen
	s.gmu.RUnlock()

	b := s.db.NewBatch()
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
		b.Set(docKey('d', id), s.docValue(sds[i], e.URL), nil)
		b.Set(append([]byte{'u'}, e.URL...), binary.AppendUvarint(nil, id), nil)
		for _, k := range s.lookupKeys(sds[i], gen) {
			b.Set(appendID(k, id), nil, nil)
		}
		if s.opts.Method.Signed() {
			b.Set(genDocKey(gen, id), sigsValue(sds[i].sigs), nil)
		}
		if s.opts.Method.NeedsStats() {
			b.Set(docKey('x', id), []byte(e.Text), nil)
		}
		sd := StoredDoc{ID: id, URL: e.URL}
		if s.opts.Method == MethodSimHash {
			sd.Fingerprint = sds[i].fp
		}
		out = append(out, sd)
		id++
	}
	b.Set([]byte("n"), binary.BigEndian.AppendUint64(nil, id), nil)
	if err := s.commitLocked(b, len(out), deleted); err != nil {
		return nil, err
	}
	s.next = id
	return out, s.maybeRebuildLocked()
}

// commitLocked commits a writer's batch with the changed counters of the
// statistics methods.
func (s *Store) commitLocked(b *pebble.Batch, added, deleted int) error {
	if !s.opts.Method.NeedsStats() {
		return b.Commit(pebble.Sync)
	}
	b.Set([]byte("c"), countersValue(s.added+added, s.deltd+deleted), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return err
	}
	s.gmu.Lock()
	s.added += added
	s.deltd += deleted
	s.gmu.Unlock()
	return nil
}

func sigsValue(sigs []uint64) []byte {
	v := make([]byte, 0, 8*len(sigs))
	for _, sig := range sigs {
		v = binary.BigEndian.AppendUint64(v, sig)
	}
	return v
}

// Delete removes the document with this URL; it reports whether there was
// one.
func (s *Store) Delete(url string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	gone, err := s.deleteLocked(b, url)
	if err != nil || !gone {
		return false, err
	}
	if err := s.commitLocked(b, 0, 1); err != nil {
		return false, err
	}
	return true, s.maybeRebuildLocked()
}

// deleteLocked adds to b the deletion of the document with this URL.
func (s *Store) deleteLocked(b *pebble.Batch, url string) (bool, error) {
	uk := append([]byte{'u'}, url...)
	v, err := s.value(uk)
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
	dv, err := s.value(docKey('d', id))
	if err != nil {
		return false, fmt.Errorf("%w: document %d: %v", ErrStore, id, err)
	}
	var sd signed
	switch s.opts.Method {
	case MethodSimHash:
		if len(dv) < 8 {
			return false, fmt.Errorf("%w: document %d: short record", ErrStore, id)
		}
		sd.fp = binary.BigEndian.Uint64(dv)
	case MethodMinHash:
		if len(dv) < storeNumPerm {
			return false, fmt.Errorf("%w: document %d: short record", ErrStore, id)
		}
		sd.mh = dv[:storeNumPerm]
	default:
		gv, err := s.value(genDocKey(s.gen, id))
		if err != nil {
			return false, fmt.Errorf("%w: signatures of document %d: %v", ErrStore, id, err)
		}
		sd.sigs = readSigs(gv)
		b.Delete(genDocKey(s.gen, id), nil)
		b.Delete(docKey('x', id), nil)
	}
	for _, k := range s.lookupKeys(sd, s.gen) {
		b.Delete(appendID(k, id), nil)
	}
	b.Delete(uk, nil)
	b.Delete(docKey('d', id), nil)
	return true, nil
}

func readSigs(v []byte) []uint64 {
	sigs := make([]uint64, 0, len(v)/8)
	for i := 0; i+8 <= len(v); i += 8 {
		sigs = append(sigs, binary.BigEndian.Uint64(v[i:]))
	}
	return sigs
}

// maybeRebuildLocked rebuilds the statistics when the stale rule says so.
func (s *Store) maybeRebuildLocked() error {
	if !s.opts.Method.NeedsStats() {
		return nil
	}
	s.gmu.RLock()
	stale := s.stats.Stale(s.added, s.deltd)
	s.gmu.RUnlock()
	if !stale {
		return nil
	}
	return s.rebuildLocked()
}

// Rebuild recomputes the statistics from the stored texts and re-signs
// the collection (the statistics methods; others have nothing to rebuild).
func (s *Store) Rebuild() error {
	if !s.opts.Method.NeedsStats() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rebuildLocked()
}

// rebuildLocked writes the new generation's keys in unsynced batches, then
// switches to it, and drops the old one, in one synced batch. A crash
// before the switch leaves the old generation in force; the partial new
// one is cleared by the next rebuild.
func (s *Store) rebuildLocked() error {
	newGen := s.gen ^ 1
	wipe := s.db.NewBatch()
	s.deleteGeneration(wipe, newGen)
	err := wipe.Commit(pebble.NoSync)
	wipe.Close()
	if err != nil {
		return err
	}

	st := &TermStats{DF: map[string]int{}}
	if err := s.eachText(func(_ uint64, text string) error {
		st.Add(s.tokNorm.Tokens(text))
		return nil
	}); err != nil {
		return err
	}
	signer := NewSigner(s.opts.Method, s.tokNorm, st)
	b := s.db.NewBatch()
	n := 0
	err = s.eachText(func(id uint64, text string) error {
		sigs := signer.Sign(text)
		b.Set(genDocKey(newGen, id), sigsValue(sigs), nil)
		for _, sig := range sigs {
			b.Set(appendID(sigKey(newGen, sig), id), nil, nil)
		}
		if n++; n%rebuildBatch == 0 {
			if err := b.Commit(pebble.NoSync); err != nil {
				return err
			}
			b.Close()
			b = s.db.NewBatch()
		}
		return nil
	})
	if err != nil {
		b.Close()
		return err
	}
	v, err := statsValue(newGen, st)
	if err != nil {
		b.Close()
		return err
	}
	b.Set([]byte("S"), v, nil)
	b.Set([]byte("c"), countersValue(0, 0), nil)
	s.deleteGeneration(b, s.gen)
	s.gmu.Lock()
	defer s.gmu.Unlock()
	err = b.Commit(pebble.Sync)
	b.Close()
	if err != nil {
		return err
	}
	s.gen, s.stats, s.signer, s.added, s.deltd = newGen, st, signer, 0, 0
	return nil
}

// deleteGeneration adds to b the deletion of generation gen's keys.
func (s *Store) deleteGeneration(b *pebble.Batch, gen byte) {
	b.DeleteRange([]byte{'s', gen}, []byte{'s', gen + 1}, nil)
	b.DeleteRange([]byte{'g', gen}, []byte{'g', gen + 1}, nil)
}

// eachText calls fn with every stored text, in id order.
func (s *Store) eachText(fn func(id uint64, text string) error) error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte("x"), UpperBound: []byte("y")})
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		if err := fn(binary.BigEndian.Uint64(it.Key()[1:]), string(it.Value())); err != nil {
			it.Close()
			return err
		}
	}
	return it.Close()
}

// TermStatsState describes a statistics method's frozen statistics: the
// number of documents they were built from, and the documents added and
// deleted since. Other methods give zeros.
func (s *Store) TermStatsState() (docs, added, deleted int) {
	s.gmu.RLock()
	defer s.gmu.RUnlock()
	if s.stats == nil {
		return 0, 0, 0
	}
	return s.stats.Docs, s.added, s.deltd
}

// get reads a document by id.
func (s *Store) get(id uint64) (StoredDoc, []byte, error) {
	v, err := s.value(docKey('d', id))
	if err != nil {
		return StoredDoc{}, nil, fmt.Errorf("%w: document %d: %v", ErrStore, id, err)
	}
	d := StoredDoc{ID: id}
	switch s.opts.Method {
	case MethodSimHash:
		if len(v) < 8 {
			return StoredDoc{}, nil, fmt.Errorf("%w: document %d: short record", ErrStore, id)
		}
		d.Fingerprint, d.URL = binary.BigEndian.Uint64(v), string(v[8:])
		return d, nil, nil
	case MethodMinHash:
		if len(v) < storeNumPerm {
			return StoredDoc{}, nil, fmt.Errorf("%w: document %d: short record", ErrStore, id)
		}
		d.URL = string(v[storeNumPerm:])
		return d, v[:storeNumPerm], nil
	}
	d.URL = string(v)
	return d, nil, nil
}

// scan calls fn with the id of every key that starts with prefix.
func (s *Store) scan(prefix []byte, fn func(key []byte, id uint64)) error {
	hi := bytes.Clone(prefix)
	for i := len(hi) - 1; i >= 0; i-- {
		if hi[i]++; hi[i] != 0 {
			hi = hi[:i+1]
			break
		}
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: hi})
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		fn(it.Key(), keyID(it.Key(), len(prefix)))
	}
	return it.Close()
}

// Query calls fn, in increasing id order, for every held near-duplicate of
// an entry: within K bits (SimHash), sharing a band with an estimated
// Jaccard similarity of at least the threshold (MinHash), or sharing a
// signature. A text with nothing to sign is ErrNoSignature.
func (s *Store) Query(q Entry, fn func(Match)) error {
	s.gmu.RLock()
	defer s.gmu.RUnlock()
	sd, ok := s.sign(q)
	if !ok {
		return ErrNoSignature
	}
	found := map[uint64]float64{}
	dist := map[uint64]int{}
	switch s.opts.Method {
	case MethodSimHash:
		for ti := range s.tables {
			t := &s.tables[ti]
			p := t.permute(sd.fp)
			shift := 64 - t.prefix
			// The keys of table ti whose leading t.prefix bits equal p's.
			prefix := tableKey(ti, p)[:2+(t.prefix+7)/8]
			err := s.scan(prefix, func(k []byte, _ uint64) {
				perm := binary.BigEndian.Uint64(k[2:10])
				if perm>>shift != p>>shift {
					return
				}
				if d := bits.OnesCount64(perm ^ p); d <= s.opts.K {
					id := keyID(k, 10)
					dist[id] = d
					found[id] = 1 - float64(d)/64
				}
			})
			if err != nil {
				return err
			}
		}
	case MethodMinHash:
		cand := map[uint64]bool{}
		for _, k := range s.lookupKeys(sd, 0) {
			if err := s.scan(k, func(_ []byte, id uint64) { cand[id] = true }); err != nil {
				return err
			}
		}
		for id := range cand {
			_, mh, err := s.get(id)
			if err != nil {
				return err
			}
			if j := bbitJaccard(sd.mh, mh); j >= s.opts.Threshold {
				found[id] = j
			}
		}
	default:
		shared := map[uint64]int{}
		for _, k := range s.lookupKeys(sd, s.gen) {
			if err := s.scan(k, func(_ []byte, id uint64) { shared[id]++ }); err != nil {
				return err
			}
		}
		for id, n := range shared {
			gv, err := s.value(genDocKey(s.gen, id))
			if err != nil {
				return fmt.Errorf("%w: signatures of document %d: %v", ErrStore, id, err)
			}
			found[id] = float64(n) / float64(max(len(sd.sigs), len(gv)/8))
		}
	}
	ids := make([]uint64, 0, len(found))
	for id := range found {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		d, _, err := s.get(id)
		if err != nil {
			return err
		}
		m := Match{StoredDoc: d, Distance: -1, Similarity: found[id]}
		if s.opts.Method == MethodSimHash {
			m.Distance = dist[id]
		}
		fn(m)
	}
	return nil
}

// bbitJaccard estimates the Jaccard similarity from signatures that keep
// the lowest 8 bits of each minimum (Li and König, "b-Bit Minwise
// Hashing", 2010): unrelated positions still agree with probability 1/256,
// so the share p of equal positions gives (p - 1/256) / (1 - 1/256).
func bbitJaccard(a, b []byte) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	const c = 1.0 / 256
	return max(0, (agreement(a, b)-c)/(1-c))
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
	if err := s.scan([]byte("d"), func([]byte, uint64) { n++ }); err != nil {
		return StoreStats{}, err
	}
	out := StoreStats{Documents: n, DiskBytes: s.db.Metrics().DiskSpaceUsage(), Method: s.opts.String()}
	switch s.opts.Method {
	case MethodSimHash:
		out.Layout = s.layout.String()
	case MethodMinHash:
		out.Layout = s.bands.String()
	}
	out.StatsDocs, out.StatsAdded, out.StatsDeleted = s.TermStatsState()
	return out, nil
}

// quietLogger keeps pebble's messages out of the library's output.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}
