package dedup

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/cockroachdb/pebble/v2"
)

// A SimHash store keeps each document's fingerprint in its "d" record
// and one key per permuted table (Manku et al., WWW'07):
//
//	"t" table permuted id      the fingerprint permuted for the table (empty value)
//
// A query reads, in each table, the keys that share the table's leading
// bits with the permuted query and keeps those within K bits.

// storeLayoutN is the collection size the SimHash tables are planned for.
const storeLayoutN = 10_000_000

// storeSimShingles are the features a SimHash store signs, fixed for the
// key layout version: words and word pairs, as winnow dedup's default.
var storeSimShingles = []int{1, 2}

var _ indexKind = (*simKind)(nil)

// simKind is the index of a SimHash store.
type simKind struct {
	noUpkeep
	db     *pebble.DB
	k      int
	layout Layout
	tables []table
	norm   *Normalizer
}

// simSigned is a document's fingerprint.
type simSigned uint64

func (fp simSigned) record() []byte { return binary.BigEndian.AppendUint64(nil, uint64(fp)) }

func newSimKind(db *pebble.DB, k int) (*simKind, error) {
	layout, err := PlanLayout(k, storeLayoutN, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStore, err)
	}
	norm, err := NewNormalizer(Options{Shingles: storeSimShingles})
	if err != nil {
		return nil, err
	}
	return &simKind{db: db, k: k, layout: layout, tables: newTables(layout), norm: norm}, nil
}

// Layout is a SimHash store's table layout (zero for other stores).
func (s *Store) Layout() Layout {
	if k, ok := s.kind.(*simKind); ok {
		return k.layout
	}
	return Layout{}
}

func (k *simKind) sign(e Entry) (signed, bool) {
	if e.HasFingerprint {
		return simSigned(e.Fingerprint), true
	}
	fp, ok := k.norm.Fingerprint(e.Text)
	return simSigned(fp), ok
}

// tableKey is the key of a fingerprint in SimHash table ti.
func tableKey(ti int, perm uint64) []byte {
	k := make([]byte, 10, 18)
	k[0], k[1] = 't', byte(ti)
	binary.BigEndian.PutUint64(k[2:], perm)
	return k
}

// eachKey calls fn with the table keys of fingerprint fp and document id.
func (k *simKind) eachKey(fp uint64, id uint64, fn func(key []byte)) {
	for ti := range k.tables {
		fn(appendID(tableKey(ti, k.tables[ti].permute(fp)), id))
	}
}

func (k *simKind) put(b *pebble.Batch, id uint64, sd signed, _ string) {
	k.eachKey(uint64(sd.(simSigned)), id, func(key []byte) { b.Set(key, nil, nil) })
}

func (k *simKind) remove(b *pebble.Batch, id uint64, rec []byte) error {
	d, err := k.doc(id, rec)
	if err != nil {
		return err
	}
	k.eachKey(d.Fingerprint, id, func(key []byte) { b.Delete(key, nil) })
	return nil
}

func (k *simKind) doc(id uint64, rec []byte) (StoredDoc, error) {
	if len(rec) < 8 {
		return StoredDoc{}, shortRecord(id)
	}
	return StoredDoc{ID: id, Fingerprint: binary.BigEndian.Uint64(rec), URL: string(rec[8:])}, nil
}

func (k *simKind) query(sd signed, found func(id uint64, distance int, similarity float64)) error {
	fp := uint64(sd.(simSigned))
	for ti := range k.tables {
		t := &k.tables[ti]
		p := t.permute(fp)
		shift := 64 - t.prefix
		// The keys of table ti whose leading t.prefix bits equal p's.
		prefix := tableKey(ti, p)[:2+(t.prefix+7)/8]
		err := scanKeys(k.db, prefix, func(key []byte, _ uint64) {
			perm := binary.BigEndian.Uint64(key[2:10])
			if perm>>shift != p>>shift {
				return
			}
			if d := bits.OnesCount64(perm ^ p); d <= k.k {
				found(keyID(key, 10), d, 1-float64(d)/64)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (k *simKind) describe(st *StoreStats) { st.Layout = k.layout.String() }
