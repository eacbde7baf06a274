package dedup

import (
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// A MinHash store keeps each document's b-bit signature, one byte per
// position, at the start of its "d" record, and one key per LSH band:
//
//	"b" band key(4) id         the band's key (empty value)
//
// A query reads the keys of its own bands and keeps the candidates whose
// estimated Jaccard similarity reaches the threshold.

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

func newMinKind(db *pebble.DB, sk sketcher, threshold float64) (*minKind, error) {
	if threshold <= 0 || threshold > 1 {
		return nil, fmt.Errorf("%w: threshold %v not in (0,1]", ErrStore, threshold)
	}
	return &minKind{
		sketcher:  sk,
		db:        db,
		threshold: threshold,
		bands:     ChooseBands(threshold, storeNumPerm, 0.01, 0.99),
	}, nil
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

func (k *minKind) put(b *pebble.Batch, id uint64, sd signed, _ string) {
	for _, key := range k.bandKeys(sd.(minSigned)) {
		b.Set(appendID(key, id), nil, nil)
	}
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
	}
	return nil
}

func (k *minKind) doc(id uint64, rec []byte) (StoredDoc, error) {
	_, url, err := minStored(id, rec)
	return StoredDoc{ID: id, URL: string(url)}, err
}

func (k *minKind) query(sd signed, qs *QueryStats, found func(id uint64, rec []byte, distance int, similarity float64, verified bool)) error {
	sig := sd.(minSigned)
	cand := map[uint64]bool{}
	if err := scanPrefixes(k.db, k.bandKeys(sig), func(_ []byte, id uint64) { qs.Keys++; cand[id] = true }); err != nil {
		return err
	}
	qs.Candidates += len(cand)
	for id := range cand {
		rec, err := docRecord(k.db, id)
		if err != nil {
			return err
		}
		held, _, err := minStored(id, rec)
		if err != nil {
			return err
		}
		if j := bbitJaccard(sig, held); j >= k.threshold {
			found(id, rec, -1, j, true)
		}
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

func (k *minKind) describe(st *StoreStats) { st.Layout = k.bands.String() }
