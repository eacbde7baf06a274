package dedup

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// A MinHash store keeps each document's b-bit signature, one byte per
// position, at the start of its "d" record, one key per LSH band and,
// from key layout version 5, one key per verified near-duplicate:
//
//	"b" band key(4) id         the band's key (empty value)
//	"v" id(8) id2              id2 shares a band with id and reaches the threshold
//	                           (version 7: or comes within listMargin positions of it; empty value)
//	"w" id(8)                  id's "v" keys are not all its near-duplicates: ask the bands
//
// A query reads the keys of its own bands and keeps the candidates whose
// estimated Jaccard similarity reaches the threshold.
//
// What a query finds depends on its signature alone, and the relation
// "shares a band and reaches the threshold" is symmetric: a document
// held with the same signature as the query finds what the query would,
// and itself. So a version 5 store, when it adds a document, runs its
// query (through the batch, which sees the documents added earlier in
// it; from version 6, on its uncrowded bands: see store_crowded.go) and
// keeps both directions of each near-duplicate found; a delete
// removes both directions of each of the document's keys. The query of
// a URL held with the same signature (a held, unchanged page: the
// common case of a recrawl) then reads its URL key, its record and its
// neighbour keys, and its neighbours' records, on one iterator (one
// consistent view), instead of seeking every band: on a million
// documents a band seek that finds a key reads a data block, 18 of them
// a query. Any other query seeks its bands one at a time: a document
// found there held with the query's signature (the same text under
// another URL) answers it in the same way, from its neighbour keys. The
// matches are the same (TestStoreMinHashHeld). A document keeps at most
// maxNear of them: one with more, or whose list would be incomplete, is
// marked, and its held query seeks the bands.
//
// From version 7 a document's "v" keys also keep those that come within
// listMargin signature positions of the threshold. A query whose
// signature differs from a held document's in at most listMargin
// positions (a recrawl with a word or two changed, under its URL or
// another) is then answered from that document: its neighbour keys, and
// the few bands in which the two differ (see anchored; on a million
// documents such a query read 18 data blocks, one a band, where it now
// reads a handful). The matches are the same (TestStoreMinHashAnchored).

// storeNumPerm is the MinHash signature length, and storeSeed its seed.
const (
	storeNumPerm = 128
	storeSeed    = 0
)

// storeMinShingles are the features a MinHash store signs, fixed for the
// key layout version: 3-word shingles, as winnow dedup's default.
var storeMinShingles = []int{3}

var _ indexKind = (*minKind)(nil)

// minKind is the index of a MinHash store.
type minKind struct {
	noUpkeep
	sketcher
	db        *pebble.DB
	threshold float64
	bands     Bands
	// keepNear: the store keeps each document's near-duplicates ("v"
	// keys; key layout version 5) and crowds its full band buckets
	// (version 6, see store_crowded.go).
	keepNear bool
	// minAgree is the number of equal signature positions at which the
	// estimated similarity reaches the threshold; listAgree, at which a
	// document is kept in another's "v" keys: minAgree less listMargin
	// from key layout version 7, minAgree before (see anchored).
	minAgree, listAgree int
	// margin is the number of positions in which a query's signature
	// may differ from a held document's for the query to be answered
	// from that document's "v" keys (0 before version 7: equal).
	margin int
	// pre and dirty are, during AddBatch, the band buckets read before
	// it and those it wrote since (see prepare).
	pre   map[string]bucketRead
	dirty map[string]bool
	// writeReads counts the keys and records that put and remove read
	// (the tests bound it); writers hold the store's lock.
	writeReads int
}

// sketcher signs a text with the b-bit MinHash signature a store keeps
// to estimate the Jaccard similarity of its candidates: storeNumPerm
// bytes over 3-word shingles (the MinHash store's signature, and the
// sketch a SimHash store verifies on). Stores of key layout version 4
// sign with one permutation hashing, those of version 3 with
// storeNumPerm permutations.
type sketcher struct {
	oph  *OnePermHasher // version 4
	mh   *MinHasher     // version 3
	norm *Normalizer
}

func newSketcher(version int) (sketcher, error) {
	norm, err := NewNormalizer(Options{Shingles: storeMinShingles})
	if err != nil {
		return sketcher{}, err
	}
	if version >= 4 {
		return sketcher{oph: NewOnePermHasher(storeNumPerm, storeSeed), norm: norm}, nil
	}
	return sketcher{mh: NewMinHasher(storeNumPerm, storeSeed), norm: norm}, nil
}

// sketch is the text's b-bit signature; ok is false for a text with no
// shingle.
func (k sketcher) sketch(text string) (minSigned, bool) {
	if k.oph != nil {
		sig := k.bbit(k.norm.ShingleHashes(text))
		return sig, sig != nil
	}
	return lowBytes(k.mh.Signature(k.norm.Features(text)))
}

// bbit is the b-bit signature of a text's shingle hashes (version 4);
// nil for none.
func (k sketcher) bbit(hashes []uint64) minSigned {
	sig, _ := lowBytes(k.oph.Signature(hashes))
	return sig
}

// lowBytes keeps the lowest byte of each position of a signature.
func lowBytes(sig []uint64) (minSigned, bool) {
	if sig == nil {
		return nil, false
	}
	b := make(minSigned, len(sig))
	for i, v := range sig {
		b[i] = byte(v)
	}
	return b, true
}

// minSigned is a document's b-bit signature.
type minSigned []byte

func (sig minSigned) record() []byte { return sig }

// listMargin is, from key layout version 7, how many signature
// positions below the threshold's a document is still kept in another's
// "v" keys, and so how many positions a query may differ from a held
// document in and still be answered from its "v" keys (see anchored).
// One word changed in each of 10,000 generated documents moved at most 8
// of the 128 positions in 97.7% of them and at most 12 in 99.8%.
const listMargin = 12

// marginVersion is the key layout version of the stores whose "v" keys
// keep listMargin.
const marginVersion = 7

func newMinKind(db *pebble.DB, sk sketcher, threshold float64, version int) (*minKind, error) {
	if threshold <= 0 || threshold > 1 {
		return nil, fmt.Errorf("%w: threshold %v not in (0,1]", ErrStore, threshold)
	}
	k := &minKind{
		sketcher:  sk,
		db:        db,
		threshold: threshold,
		bands:     ChooseBands(threshold, storeNumPerm, 0.01, 0.99),
		keepNear:  version >= 5,
		minAgree:  storeNumPerm + 1,
	}
	// The same estimate as bbitJaccard, so that "minAgree positions
	// equal" and "bbitJaccard reaches the threshold" are one test.
	for c := 0; c <= storeNumPerm; c++ {
		if bbitEstimate(float64(c)/storeNumPerm) >= threshold {
			k.minAgree = c
			break
		}
	}
	k.listAgree = k.minAgree
	if version >= marginVersion {
		k.margin = listMargin
		k.listAgree = max(0, k.minAgree-listMargin)
	}
	return k, nil
}

// Bands is a MinHash store's LSH banding (zero for other stores).
func (s *Store) Bands() Bands {
	if k, ok := s.kind.(*minKind); ok {
		return k.bands
	}
	return Bands{}
}

func (k *minKind) sign(e Entry) (signed, bool) {
	sig, ok := k.sketch(e.Text)
	if !ok {
		return nil, false
	}
	return sig, true
}

// bandPrefixLen is the length of a band key without its id.
const bandPrefixLen = 6

// bandKey is the key of band b of a MinHash signature.
func bandKey(b int, key uint64) []byte {
	k := make([]byte, bandPrefixLen, bandPrefixLen+8)
	k[0], k[1] = 'b', byte(b)
	binary.BigEndian.PutUint32(k[2:], uint32(key))
	return k
}

// bandKeys are the band keys of a b-bit signature, without an id.
func (k *minKind) bandKeys(sig []byte) [][]byte {
	wide := make([]uint64, len(sig))
	for i, v := range sig {
		wide[i] = uint64(v)
	}
	var keys [][]byte
	for b, key := range k.bands.bandKeys(wide) {
		keys = append(keys, bandKey(b, key))
	}
	return keys
}

// nearPrefixLen is the length of a neighbour key without the
// neighbour's id.
const nearPrefixLen = 9

// nearKey is the key that says document n is a near-duplicate of id.
func nearKey(id, n uint64) []byte {
	return appendID(docKey('v', id), n)
}

// maxNear is the most near-duplicates kept ("v" keys) for a document.
// A family of N near-identical documents (soft-404s, login walls: a
// crawl holds thousands of them) would otherwise keep N·(N-1) keys, and
// each of its adds write 2·(N-1). A document with more is marked ("w"
// id), keeps none, and its held query goes through the bands.
const maxNear = 64

// farKey marks document id as having more than maxNear near-duplicates,
// or a neighbour list that may be incomplete: a held query of id goes
// through the bands.
func farKey(id uint64) []byte { return docKey('w', id) }

// farValue is a mark's value: not empty, which a read could not tell
// from none.
var farValue = []byte{1}

// The neighbour keys keep, on every write:
//
//   - an unmarked document's "v" keys are exactly its near-duplicates
//     held, at most maxNear of them;
//   - a marked document has no "v" keys of its own (others may list it).
//
// So a held query of an unmarked document finds what the bands find.

func (k *minKind) put(b *pebble.Batch, id uint64, sd signed, _ string) error {
	sig := sd.(minSigned)
	if k.keepNear {
		// The candidates of the uncrowded bands only: those of a crowded
		// band are marked (see store_crowded.go).
		cand, crowded, err := k.bandCandidates(b, sig)
		if err != nil {
			return err
		}
		ns, err := k.nearInBatch(b, sig, id, cand)
		if err != nil {
			return err
		}
		if err := k.putNear(b, id, ns, crowded); err != nil {
			return err
		}
	}
	for _, key := range k.bandKeys(sig) {
		b.Set(appendID(key, id), nil, nil)
		k.touch(key)
	}
	return nil
}

// putNear keeps the neighbour keys of a new document id whose
// near-duplicates in its uncrowded bands are ns, and that is in a
// crowded bucket if crowded (see maxNear and store_crowded.go).
func (k *minKind) putNear(b *pebble.Batch, id uint64, ns []uint64, crowded bool) error {
	far := crowded || len(ns) > maxNear
	if far {
		b.Set(farKey(id), farValue, nil)
	}
	for _, n := range ns {
		k.writeReads++
		marked, err := hasKey(b, farKey(n))
		if err != nil {
			return err
		}
		if !far {
			b.Set(nearKey(id, n), nil, nil)
		}
		if marked {
			continue
		}
		var have []uint64
		if err := scanPrefixes(b, [][]byte{docKey('v', n)}, func(_ []byte, m uint64) { have = append(have, m) }); err != nil {
			return err
		}
		k.writeReads += len(have)
		if len(have) < maxNear {
			b.Set(nearKey(n, id), nil, nil)
			continue
		}
		// n's list would hold more than maxNear: mark it.
		b.Set(farKey(n), farValue, nil)
		for _, m := range have {
			b.Delete(nearKey(n, m), nil)
		}
	}
	return nil
}

// hasKey says whether r holds key.
func hasKey(r pebble.Reader, key []byte) (bool, error) {
	_, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, closer.Close()
}

// minStored splits document id's "d" record into its signature and URL.
func minStored(id uint64, rec []byte) (minSigned, []byte, error) {
	if len(rec) < storeNumPerm {
		return nil, nil, shortRecord(id)
	}
	return rec[:storeNumPerm], rec[storeNumPerm:], nil
}

func (k *minKind) remove(b *pebble.Batch, id uint64, rec []byte) error {
	sig, _, err := minStored(id, rec)
	if err != nil {
		return err
	}
	for _, key := range k.bandKeys(sig) {
		b.Delete(appendID(key, id), nil)
		k.touch(key)
	}
	if !k.keepNear {
		return nil
	}
	// Those that list id: its own list when it is complete (unmarked),
	// else any of its near-duplicates, found through the bands.
	marked, err := hasKey(b, farKey(id))
	if err != nil {
		return err
	}
	var ns []uint64
	if err := scanPrefixes(b, [][]byte{docKey('v', id)}, func(_ []byte, n uint64) { ns = append(ns, n) }); err != nil {
		return err
	}
	for _, n := range ns {
		b.Delete(nearKey(id, n), nil)
		b.Delete(nearKey(n, id), nil)
	}
	if !marked {
		return nil
	}
	b.Delete(farKey(id), nil)
	// Those that list a marked document are unmarked: they share an
	// uncrowded band with it (see store_crowded.go).
	cand, _, err := k.bandCandidates(b, sig)
	if err != nil {
		return err
	}
	for _, n := range cand {
		k.writeReads++
		if ok, err := hasKey(b, nearKey(n, id)); err != nil {
			return err
		} else if ok {
			b.Delete(nearKey(n, id), nil)
		}
	}
	return nil
}

func (k *minKind) doc(id uint64, rec []byte) (StoredDoc, error) {
	_, url, err := minStored(id, rec)
	return StoredDoc{ID: id, URL: string(url)}, err
}

// query finds what near does. In a store that keeps near-duplicates it
// seeks the query's bands one at a time and reads the records of their
// candidates as it goes: the first one unmarked whose signature is
// within margin positions of the query's (equal before key layout
// version 7; a held copy of the query under another URL, or none, or
// from version 7 a copy with a few words changed) anchors the query,
// which is then answered from it (see anchored) instead of the bands
// left. A query with no such candidate seeks every band.
func (k *minKind) query(sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) error {
	sig := sd.(minSigned)
	fn := func(id uint64, rec []byte, j float64) { found(id, rec, -1, j, true) }
	return onIter(k.db, func(it *pebble.Iterator) error {
		keys := k.bandKeys(sig)
		if !k.keepNear || qs.bandsOnly {
			return k.nearOn(it, sig, keys, nil, nil, qs, fn)
		}
		var cand []uint64
		recs := map[uint64][]byte{}
		for b := range keys {
			var ids []uint64
			if err := scanIter(it, keys[b:b+1], func(_ []byte, id uint64) { qs.Keys++; ids = append(ids, id) }); err != nil {
				return err
			}
			for _, id := range ids {
				if _, ok := recs[id]; ok {
					continue
				}
				cand = append(cand, id)
				rec, err := seekRecord(it, id)
				if err != nil {
					return err
				}
				recs[id] = rec
				held, _, err := minStored(id, rec)
				if err != nil {
					return err
				}
				if storeNumPerm-sameCount(sig, held) > k.margin {
					continue
				}
				ok, err := k.anchored(it, sig, keys, b+1, id, held, cand, recs, qs, found)
				if ok || err != nil {
					return err
				}
			}
		}
		slices.Sort(cand)
		qs.Candidates += len(cand)
		return k.verify(it, sig, cand, recs, fn)
	})
}

// anchored answers a query of signature sig (band keys keys), whose
// bands before from were sought and gave the candidates cand (their
// records in recs), from document a, held with signature held within
// margin positions of sig, and reports true; or false, having found
// nothing, when a is marked (its "v" keys may be incomplete: ask the
// bands).
//
// It is exact. A document d that shares band b with the query and
// reaches the threshold with it has at least minAgree positions equal to
// sig, so at least minAgree-margin = listAgree equal to held. If band b
// was sought, d is in cand; if the query's key of band b differs from
// a's, that band is sought now; if it is a's, d shares it with a, and an
// unmarked a lists d in its "v" keys (see store_crowded.go: a is in no
// crowded bucket). Every candidate is then checked as the bands would
// have: the threshold, and a band shared with the query (a listed
// document may share none).
func (k *minKind) anchored(it *pebble.Iterator, sig minSigned, keys [][]byte, from int, a uint64, held minSigned, cand []uint64, recs map[uint64][]byte, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) (bool, error) {
	if far, err := seekValue(it, farKey(a)); far != nil || err != nil {
		return false, err // too many near-duplicates kept: ask the bands
	}
	cand = append(slices.Clip(cand), a)
	p := docKey('v', a)
	for valid := it.SeekPrefixGE(p); valid && bytes.HasPrefix(it.Key(), p); valid = it.Next() {
		qs.Keys++
		cand = append(cand, keyID(it.Key(), nearPrefixLen))
	}
	if err := it.Error(); err != nil {
		return false, err
	}
	var akeys [][]byte
	if from < len(keys) && !bytes.Equal(sig, held) {
		akeys = k.bandKeys(held)
	}
	for b := from; b < len(keys) && akeys != nil; b++ {
		if bytes.Equal(keys[b], akeys[b]) {
			continue
		}
		if err := scanIter(it, keys[b:b+1], func(_ []byte, id uint64) { qs.Keys++; cand = append(cand, id) }); err != nil {
			return false, err
		}
	}
	slices.Sort(cand)
	cand = slices.Compact(cand)
	qs.Candidates += len(cand)
	qs.Held = true
	err := k.verify(it, sig, cand, recs, func(id uint64, rec []byte, j float64) {
		if bytes.Equal(rec[:storeNumPerm], sig) || sharesBand(keys, k.bandKeys(rec[:storeNumPerm])) {
			found(id, rec, -1, j, true)
		}
	})
	return err == nil, err
}

// sharesBand says whether two lists of band keys have one band equal.
func sharesBand(a, b [][]byte) bool {
	for i := range a {
		if i < len(b) && bytes.Equal(a[i], b[i]) {
			return true
		}
	}
	return false
}

// near calls fn, in increasing id order, for each document of r that
// shares a band with sig and whose estimated Jaccard similarity reaches
// the threshold, with its record. It reads the band keys and the
// records on one iterator, one consistent view of r: a document deleted
// meanwhile is either found whole or not at all.
func (k *minKind) near(r pebble.Reader, sig minSigned, qs *QueryStats, fn func(id uint64, rec []byte, similarity float64)) error {
	return onIter(r, func(it *pebble.Iterator) error { return k.nearOn(it, sig, k.bandKeys(sig), nil, nil, qs, fn) })
}

// nearOn is near on it, of the candidates cand (their keys counted) and
// those of the band keys given; the records in recs are not read again.
func (k *minKind) nearOn(it *pebble.Iterator, sig minSigned, keys [][]byte, cand []uint64, recs map[uint64][]byte, qs *QueryStats, fn func(id uint64, rec []byte, similarity float64)) error {
	if err := scanIter(it, keys, func(_ []byte, id uint64) { qs.Keys++; cand = append(cand, id) }); err != nil {
		return err
	}
	slices.Sort(cand)
	cand = slices.Compact(cand)
	qs.Candidates += len(cand)
	return k.verify(it, sig, cand, recs, fn)
}

// verify reads on it the record of each of ids (but those in recs), in
// order, and calls fn for those whose estimated Jaccard similarity to
// sig reaches the threshold.
func (k *minKind) verify(it *pebble.Iterator, sig minSigned, ids []uint64, recs map[uint64][]byte, fn func(id uint64, rec []byte, similarity float64)) error {
	for _, id := range ids {
		rec, ok := recs[id]
		if !ok {
			var err error
			if rec, err = seekRecord(it, id); err != nil {
				return err
			}
		}
		held, _, err := minStored(id, rec)
		if err != nil {
			return err
		}
		if j := bbitJaccard(sig, held); j >= k.threshold {
			fn(id, rec, j)
		}
	}
	return nil
}

// queryHeld answers the query of a document held under url with the
// same signature, or from key layout version 7 one within margin
// positions of it (a recrawl with a few words changed), from its
// neighbour keys (see anchored).
func (k *minKind) queryHeld(url string, sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) (ok bool, err error) {
	if !k.keepNear || qs.bandsOnly {
		return false, nil
	}
	err = onIter(k.db, func(it *pebble.Iterator) error {
		ok, err = k.heldOn(it, url, sd.(minSigned), qs, found)
		return err
	})
	return ok && err == nil, err
}

// heldOn is queryHeld on it.
func (k *minKind) heldOn(it *pebble.Iterator, url string, sig minSigned, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) (bool, error) {
	v, err := seekValue(it, append([]byte{'u'}, url...))
	if v == nil || err != nil {
		return false, err
	}
	id, n := binary.Uvarint(v)
	if n <= 0 {
		return false, fmt.Errorf("%w: URL key of %s: bad id", ErrStore, url)
	}
	rec, err := seekRecord(it, id)
	if err != nil {
		return false, err
	}
	held, _, err := minStored(id, rec)
	if err != nil || storeNumPerm-sameCount(sig, held) > k.margin {
		return false, err // changed since it was added: ask the bands
	}
	return k.anchored(it, sig, k.bandKeys(sig), 0, id, held, nil, map[uint64][]byte{id: rec}, qs, found)
}

// seekRecord reads document id's "d" record on it.
func seekRecord(it *pebble.Iterator, id uint64) ([]byte, error) {
	rec, err := seekValue(it, docKey('d', id))
	if err == nil && rec == nil {
		err = fmt.Errorf("%w: document %d: no record", ErrStore, id)
	}
	return rec, err
}

// seekValue reads key's value on it, into a fresh slice; nil when it is
// not there.
func seekValue(it *pebble.Iterator, key []byte) ([]byte, error) {
	if !it.SeekPrefixGE(key) || !bytes.Equal(it.Key(), key) {
		return nil, it.Error()
	}
	v, err := it.ValueAndErr()
	if err != nil {
		return nil, err
	}
	return bytes.Clone(v), nil
}

// bbitJaccard estimates the Jaccard similarity from signatures that keep
// the lowest 8 bits of each minimum (Li and König, "b-Bit Minwise
// Hashing", 2010): unrelated positions still agree with probability 1/256,
// so the share p of equal positions gives (p - 1/256) / (1 - 1/256).
func bbitJaccard(a, b []byte) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	return bbitEstimate(agreement(a, b))
}

// bbitEstimate is bbitJaccard's estimate for a share p of equal
// positions.
func bbitEstimate(p float64) float64 {
	const c = 1.0 / 256
	return max(0, (p-c)/(1-c))
}

func (k *minKind) describe(st *StoreStats) { st.Layout = k.bands.String() }
