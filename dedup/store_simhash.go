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
// bits with the permuted query and keeps those within K bits. Real
// fingerprints are not uniform, so some within K bits are unrelated
// texts: each candidate is then verified on a sketch of the texts, the
// b-bit MinHash signature a MinHash store keeps (128 bytes), which the
// "d" record holds after the fingerprint and a byte that says whether
// there is one:
//
//	"d" id                     fingerprint(8), 1 and sketch(128) or 0, URL
//
// A store of key layout version 3 made before this (its settings have no
// threshold) holds fingerprint(8), URL, and does not verify.

// storeLayoutN is the collection size the SimHash tables are planned for.
const storeLayoutN = 10_000_000

// storeSkew is how many times more fingerprints a table prefix selects
// among real fingerprints than among uniform ones, which a store of key
// layout version 4 plans its tables for. Real fingerprints are not
// uniform: in a store of 1,000,000 generated documents (dedupgen, seed
// 1) the 4 tables of 16 leading bits planned for uniform fingerprints
// had a query read 3,899 keys at the median and 36,875 at p99, where
// uniform ones would read about 61. Planned for 64 times the size, k=3
// takes 10 tables of 25 leading bits (see the README's winnow index).
const storeSkew = 64

// storeMaxTables bounds the tables of a version 4 store: each is a key
// per document (about 12 bytes on disk) and a seek per query.
const storeMaxTables = 16

// storeLayout is the table layout of a SimHash store: version 3 planned
// for storeLayoutN uniform fingerprints within DefaultMaxTables tables,
// version 4 for storeSkew times as many within storeMaxTables. N stays storeLayoutN, the size the layout is described for.
func storeLayout(k int, skewed bool) (Layout, error) {
	n, tables := storeLayoutN, 0
	if skewed {
		n, tables = n*storeSkew, storeMaxTables
	}
	l, err := PlanLayout(k, n, tables)
	l.N = storeLayoutN
	return l, err
}

// storeSimShingles are the features a SimHash store signs, fixed for the
// key layout version: words and word pairs, as winnow dedup's default.
var storeSimShingles = []int{1, 2}

var _ indexKind = (*simKind)(nil)

// simKind is the index of a SimHash store.
type simKind struct {
	noUpkeep
	sketcher
	db        *pebble.DB
	k         int
	threshold float64 // 0: a legacy store, which keeps no sketch
	layout    Layout
	tables    []table
	norm      *Normalizer
}

// simSigned is a document's fingerprint and, in a store that verifies,
// its sketch (nil for an entry given by its fingerprint alone).
type simSigned struct {
	fp     uint64
	verify bool
	sketch minSigned
}

func (sd simSigned) record() []byte {
	rec := binary.BigEndian.AppendUint64(nil, sd.fp)
	switch {
	case !sd.verify:
	case sd.sketch == nil:
		rec = append(rec, 0)
	default:
		rec = append(append(rec, 1), sd.sketch...)
	}
	return rec
}

func newSimKind(db *pebble.DB, sk sketcher, k int, threshold float64) (*simKind, error) {
	layout, err := storeLayout(k, sk.oph != nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStore, err)
	}
	if threshold < 0 || threshold > 1 {
		return nil, fmt.Errorf("%w: threshold %v not in [0,1]", ErrStore, threshold)
	}
	norm, err := NewNormalizer(Options{Shingles: storeSimShingles})
	if err != nil {
		return nil, err
	}
	return &simKind{sketcher: sk, db: db, k: k, threshold: threshold, layout: layout, tables: newTables(layout), norm: norm}, nil
}

// Layout is a SimHash store's table layout (zero for other stores).
func (s *Store) Layout() Layout {
	if k, ok := s.kind.(*simKind); ok {
		return k.layout
	}
	return Layout{}
}

func (k *simKind) sign(e Entry) (signed, bool) {
	sd := simSigned{fp: e.Fingerprint, verify: k.threshold > 0}
	if !e.HasFingerprint && sd.verify && k.oph != nil {
		// One tokenisation for the fingerprint and the sketch.
		hashes, fp, ok := k.sketcher.norm.HashesAndFingerprint(e.Text, k.norm)
		if !ok {
			return nil, false
		}
		sd.fp, sd.sketch = fp, k.bbit(hashes)
		return sd, true
	}
	if !e.HasFingerprint {
		fp, ok := k.norm.Fingerprint(e.Text)
		if !ok {
			return nil, false
		}
		sd.fp = fp
	}
	if sd.verify {
		sd.sketch, _ = k.sketch(e.Text) // nil for no text: unverified
	}
	return sd, true
}

// simStored splits document id's "d" record into its fingerprint, its
// sketch (nil when it has none) and its URL.
func (k *simKind) simStored(id uint64, rec []byte) (fp uint64, sketch minSigned, url []byte, err error) {
	if len(rec) < 8 {
		return 0, nil, nil, shortRecord(id)
	}
	fp, rest := binary.BigEndian.Uint64(rec), rec[8:]
	if k.threshold == 0 {
		return fp, nil, rest, nil
	}
	switch {
	case len(rest) >= 1 && rest[0] == 0:
		return fp, nil, rest[1:], nil
	case len(rest) >= 1+storeNumPerm && rest[0] == 1:
		return fp, minSigned(rest[1 : 1+storeNumPerm]), rest[1+storeNumPerm:], nil
	}
	return 0, nil, nil, shortRecord(id)
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

func (k *simKind) put(b *pebble.Batch, id uint64, sd signed, _ string) error {
	k.eachKey(sd.(simSigned).fp, id, func(key []byte) { b.Set(key, nil, nil) })
	return nil
}

func (k *simKind) remove(b *pebble.Batch, id uint64, rec []byte) error {
	fp, _, _, err := k.simStored(id, rec)
	if err != nil {
		return err
	}
	k.eachKey(fp, id, func(key []byte) { b.Delete(key, nil) })
	return nil
}

func (k *simKind) doc(id uint64, rec []byte) (StoredDoc, error) {
	fp, _, url, err := k.simStored(id, rec)
	return StoredDoc{ID: id, Fingerprint: fp, URL: string(url)}, err
}

// query finds the held fingerprints within K bits of the query's; in a
// store that verifies, a candidate whose sketch and the query's estimate
// a Jaccard similarity under the threshold is dropped, and one of them
// without a sketch is reported unverified.
func (k *simKind) query(sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) error {
	return onIter(k.db, func(it *pebble.Iterator) error { return k.queryOn(it, sd.(simSigned), qs, found) })
}

// queryOn is query on it: the table keys and the candidates' records are
// read on one view (see onIter).
func (k *simKind) queryOn(it *pebble.Iterator, q simSigned, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) error {
	near := map[uint64]int{} // id -> distance
	for ti := range k.tables {
		t := &k.tables[ti]
		p := t.permute(q.fp)
		// The keys of table ti whose leading t.prefix bits equal p's: a
		// range of permuted values, since the prefix need not end on a
		// byte.
		lead := ^uint64(0) << (64 - t.prefix)
		lo, hi := tableKey(ti, p&lead), []byte{'t', byte(ti + 1)}
		if top := p | ^lead; top != ^uint64(0) {
			hi = tableKey(ti, top+1)
		}
		err := scanIterRange(it, lo, hi, 10, func(key []byte, id uint64) {
			qs.Keys++
			if d := bits.OnesCount64(binary.BigEndian.Uint64(key[2:10]) ^ p); d <= k.k {
				near[id] = d
			}
		})
		if err != nil {
			return err
		}
	}
	qs.Candidates += len(near)
	for id, d := range near {
		rec, err := seekRecord(it, id)
		if err != nil {
			return err
		}
		_, held, _, err := k.simStored(id, rec)
		unverified := 1 - float64(d)/64
		switch {
		case err != nil:
			return err
		case k.threshold == 0 || q.sketch == nil || held == nil:
			found(id, rec, d, unverified, false)
		default:
			if j := bbitJaccard(q.sketch, held); j >= k.threshold {
				found(id, rec, d, j, true)
			}
		}
	}
	return nil
}

func (k *simKind) describe(st *StoreStats) { st.Layout = k.layout.String() }
