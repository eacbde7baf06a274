package dedup

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// A store of seed 000's signatures (md5, tfidf, longsent, heavysent,
// lexrand) keeps only the URL in a document's "d" record, and:
//
//	"s" gen signature(8) id    one key per signature (empty value)
//	"g" gen id                 the document's signatures in generation gen
//	"x" id                     the text, for the methods that need statistics
//	"S"                        generation, then the statistics (TermStats.WriteTo)
//	"c"                        documents added, deleted since the statistics were frozen (uvarints)
//
// A query reads the keys of its own signatures. TF*IDF, Heavy Sent and
// Lex Rand sign with the collection's term statistics: when the stale
// rule says so (TermStats.Stale) a writer rebuilds them from the stored
// texts and re-signs every document under the other generation, then
// switches to it in one synced batch.

// rebuildBatch is how many re-signed documents one rebuild batch holds.
const rebuildBatch = 10_000

var _ indexKind = (*sigKind)(nil)

// sigKind is the index of a signature store.
type sigKind struct {
	db     *pebble.DB
	method Method
	norm   *Normalizer

	// gmu is the store's lock of the signing state below: the writer
	// changes it holding both the store's writer lock and gmu, so the
	// writer reads it freely and readers hold gmu.
	gmu    *sync.RWMutex
	gen    byte
	stats  *TermStats
	signer *Signer
	added  int // documents added since the statistics were frozen
	deltd  int // and deleted
}

// sigSigned is a document's signatures.
type sigSigned []uint64

func (sigSigned) record() []byte { return nil }

func newSigKind(db *pebble.DB, m Method, gmu *sync.RWMutex) (*sigKind, error) {
	norm, err := NewNormalizer(Options{})
	if err != nil {
		return nil, err
	}
	k := &sigKind{db: db, method: m, norm: norm, gmu: gmu, stats: &TermStats{DF: map[string]int{}}}
	if m.NeedsStats() {
		if err := k.readStats(); err != nil {
			return nil, err
		}
	}
	k.signer = NewSigner(m, norm, k.stats)
	return k, nil
}

// readStats loads the "S" and "c" keys: the generation, the statistics
// and the changes since.
func (k *sigKind) readStats() error {
	if v, err := dbValue(k.db, []byte("c")); err == nil {
		r := bytes.NewReader(v)
		added, err1 := binary.ReadUvarint(r)
		deleted, err2 := binary.ReadUvarint(r)
		if err := errors.Join(err1, err2); err != nil {
			return fmt.Errorf("%w: change counters: %v", ErrStore, err)
		}
		k.added, k.deltd = int(added), int(deleted)
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return err
	}
	v, err := dbValue(k.db, []byte("S"))
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
	k.gen, k.stats = v[0], st
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

func sigsValue(sigs []uint64) []byte {
	v := make([]byte, 0, 8*len(sigs))
	for _, sig := range sigs {
		v = binary.BigEndian.AppendUint64(v, sig)
	}
	return v
}

func readSigs(v []byte) []uint64 {
	sigs := make([]uint64, 0, len(v)/8)
	for i := 0; i+8 <= len(v); i += 8 {
		sigs = append(sigs, binary.BigEndian.Uint64(v[i:]))
	}
	return sigs
}

func (k *sigKind) sign(e Entry) (signed, bool) {
	sigs := k.signer.Sign(e.Text)
	if len(sigs) == 0 && k.method.NeedsStats() {
		// Statistics to come may give it signatures: a text with words
		// is held (the first batch is signed before any statistics).
		return sigSigned(nil), len(k.norm.Tokens(e.Text)) > 0
	}
	return sigSigned(sigs), len(sigs) > 0
}

// putSigs adds to b document id's signatures in generation gen.
func putSigs(b *pebble.Batch, gen byte, id uint64, sigs []uint64) {
	for _, sig := range sigs {
		b.Set(appendID(sigKey(gen, sig), id), nil, nil)
	}
	b.Set(genDocKey(gen, id), sigsValue(sigs), nil)
}

func (k *sigKind) put(b *pebble.Batch, id uint64, sd signed, text string) error {
	putSigs(b, k.gen, id, sd.(sigSigned))
	if k.method.NeedsStats() {
		b.Set(docKey('x', id), []byte(text), nil)
	}
	return nil
}

func (k *sigKind) remove(b *pebble.Batch, id uint64, _ []byte) error {
	gv, err := dbValue(k.db, genDocKey(k.gen, id))
	if err != nil {
		return fmt.Errorf("%w: signatures of document %d: %v", ErrStore, id, err)
	}
	b.Delete(genDocKey(k.gen, id), nil)
	b.Delete(docKey('x', id), nil)
	for _, sig := range readSigs(gv) {
		b.Delete(appendID(sigKey(k.gen, sig), id), nil)
	}
	return nil
}

func (k *sigKind) doc(id uint64, rec []byte) (StoredDoc, error) {
	return StoredDoc{ID: id, URL: string(rec)}, nil
}

func (k *sigKind) query(sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) error {
	sigs := sd.(sigSigned)
	prefixes := make([][]byte, len(sigs))
	for i, sig := range sigs {
		prefixes[i] = sigKey(k.gen, sig)
	}
	// The lookup keys, the candidates' signatures and their records on
	// one view (see onIter).
	return onIter(k.db, func(it *pebble.Iterator) error {
		shared := map[uint64]int{}
		if err := scanIter(it, prefixes, func(_ []byte, id uint64) { qs.Keys++; shared[id]++ }); err != nil {
			return err
		}
		qs.Candidates += len(shared)
		for id, n := range shared {
			gv, err := seekValue(it, genDocKey(k.gen, id))
			switch {
			case err != nil:
				return fmt.Errorf("%w: signatures of document %d: %v", ErrStore, id, err)
			case gv == nil:
				return fmt.Errorf("%w: document %d: no signatures", ErrStore, id)
			}
			rec, err := seekRecord(it, id)
			if err != nil {
				return err
			}
			found(id, rec, -1, float64(n)/float64(max(len(sigs), len(gv)/8)), false)
		}
		return nil
	})
}

func (k *sigKind) describe(st *StoreStats) {
	if !k.method.NeedsStats() {
		return
	}
	k.gmu.RLock()
	defer k.gmu.RUnlock()
	st.StatsDocs, st.StatsAdded, st.StatsDeleted = k.stats.Docs, k.added, k.deltd
}

// commit commits a writer's batch, with the changed counters of the
// statistics methods.
func (k *sigKind) commit(b *pebble.Batch, added, deleted int) error {
	if !k.method.NeedsStats() {
		return b.Commit(pebble.Sync)
	}
	b.Set([]byte("c"), countersValue(k.added+added, k.deltd+deleted), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return err
	}
	k.gmu.Lock()
	k.added += added
	k.deltd += deleted
	k.gmu.Unlock()
	return nil
}

// rebuild recomputes the statistics when the stale rule says so, or
// always with force.
func (k *sigKind) rebuild(force bool) error {
	if !k.method.NeedsStats() {
		return nil
	}
	if !force {
		k.gmu.RLock()
		stale := k.stats.Stale(k.added, k.deltd)
		k.gmu.RUnlock()
		if !stale {
			return nil
		}
	}
	return k.rebuildNow()
}

// rebuildNow writes the new generation's keys in unsynced batches, then
// switches to it, and drops the old one, in one synced batch. A crash
// before the switch leaves the old generation in force; the partial new
// one is cleared by the next rebuild.
func (k *sigKind) rebuildNow() error {
	newGen := k.gen ^ 1
	wipe := k.db.NewBatch()
	deleteGeneration(wipe, newGen)
	err := wipe.Commit(pebble.NoSync)
	wipe.Close()
	if err != nil {
		return err
	}

	st := &TermStats{DF: map[string]int{}}
	if err := k.eachText(func(_ uint64, text string) error {
		st.Add(k.norm.Tokens(text))
		return nil
	}); err != nil {
		return err
	}
	signer := NewSigner(k.method, k.norm, st)
	b := k.db.NewBatch()
	n := 0
	err = k.eachText(func(id uint64, text string) error {
		putSigs(b, newGen, id, signer.Sign(text))
		if n++; n%rebuildBatch == 0 {
			if err := b.Commit(pebble.NoSync); err != nil {
				return err
			}
			b.Close()
			b = k.db.NewBatch()
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
	deleteGeneration(b, k.gen)
	k.gmu.Lock()
	defer k.gmu.Unlock()
	err = b.Commit(pebble.Sync)
	b.Close()
	if err != nil {
		return err
	}
	k.gen, k.stats, k.signer, k.added, k.deltd = newGen, st, signer, 0, 0
	return nil
}

// deleteGeneration adds to b the deletion of generation gen's keys.
func deleteGeneration(b *pebble.Batch, gen byte) {
	b.DeleteRange([]byte{'s', gen}, []byte{'s', gen + 1}, nil)
	b.DeleteRange([]byte{'g', gen}, []byte{'g', gen + 1}, nil)
}

// eachText calls fn with every stored text, in id order.
func (k *sigKind) eachText(fn func(id uint64, text string) error) error {
	it, err := k.db.NewIter(&pebble.IterOptions{LowerBound: []byte("x"), UpperBound: []byte("y")})
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
