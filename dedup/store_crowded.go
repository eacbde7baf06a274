package dedup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// Crowded bands (key layout version 6). A family of N identical pages (a
// crawl's error page or login wall, copied thousands of times) puts N
// documents in each of its band buckets. Run as a query, each add of one
// more copy would read the N before it, and visit each of them: adding
// the family would cost N² (5,000 copies: 144 s). So a bucket that holds
// crowdSize documents or more is crowded: it gets a mark, once,
//
//	"k" band key(4)            the bucket is crowded (value 1)
//
// and every document in it is marked ("w"). The neighbour keys then keep,
// on top of what is said above maxNear:
//
//   - every document of a crowded bucket is marked.
//
// So an unmarked document is in no crowded bucket, and any document that
// shares a band with it shares an uncrowded one. A document added to a
// crowded bucket is marked at once (a read of its bands' marks, which
// the bloom filters answer for the many buckets without one), and the
// only neighbours whose lists must learn of it are unmarked: it finds
// them through its uncrowded bands alone. A delete of a marked document
// likewise finds those that list it through its uncrowded bands. Each
// uncrowded bucket holds fewer than crowdSize documents, so an add, a
// replacement or a delete reads at most bands·crowdSize band keys, and
// the records and neighbour lists of those documents, whatever the size
// of the family; crowding a bucket visits its members once. A crowded bucket stays crowded, and its members marked,
// which costs only speed: even when it empties, for a delete that looked
// whether it had would seek past the deleted members' keys (a recrawl
// that replaces a family in one batch would read N² of them), and a
// page that comes back to it is marked.
//
// A store of version 5, written before crowded bands, may hold buckets
// of any size without a mark. A write that reads a bucket stops counting
// at crowdSize and crowds it then, marking its members (once). The batch
// that writes a store's first crowd mark also raises its version to 6:
// a winnow built before it would add unmarked documents to a crowded
// bucket, and must refuse the store.

// crowdSize is the number of documents that makes a band bucket crowded
// (a variable for the tests).
var crowdSize = 4 * maxNear

// crowdKey is the crowd mark of the band bucket of band key key (without
// id).
func crowdKey(key []byte) []byte {
	return append([]byte{'k'}, key[1:bandPrefixLen]...)
}

// crowdVersion is the key layout version of the stores that may hold
// crowd marks.
const crowdVersion = 6

// bandCandidates reads, through b, the documents of sig's uncrowded
// bands, once each and in increasing id order, and says whether one of
// its bands is crowded. A bucket found to hold crowdSize documents or
// more is crowded first (see crowd). It counts the keys it reads in
// k.writeReads. A bucket the batch has not written since prepare read
// it (not in k.dirty) is taken from k.pre: the batch would show the
// same keys. The others are read on one iterator of b, made at the first
// of them: what crowd adds to b meanwhile concerns the band it crowds,
// which the loop has read already.
func (k *minKind) bandCandidates(b *pebble.Batch, sig minSigned) (cand []uint64, crowded bool, err error) {
	var it *pebble.Iterator
	defer func() {
		if it == nil {
			return
		}
		if cerr := it.Close(); err == nil {
			err = cerr
		}
	}()
	for _, key := range k.bandKeys(sig) {
		k.writeReads++
		read, ok := k.pre[string(key)]
		if !ok || k.dirty[string(key)] {
			if it == nil {
				if it, err = b.NewIter(&pebble.IterOptions{UseL6Filters: true}); err != nil {
					return nil, false, err
				}
			}
			if read, err = readBucket(it, key); err != nil {
				return nil, false, err
			}
		}
		if !read.crowded {
			members := read.members
			k.writeReads += len(members)
			if len(members) < crowdSize {
				cand = append(cand, members...)
				continue
			}
			if err := k.crowd(b, key); err != nil {
				return nil, false, err
			}
		}
		crowded = true
	}
	slices.Sort(cand)
	return slices.Compact(cand), crowded, nil
}

// bucketRead is what a band bucket holds: whether it is crowded, and if
// not the ids of its first crowdSize documents.
type bucketRead struct {
	crowded bool
	members []uint64
}

// readBucket reads, through it, the bucket of band key key.
func readBucket(it *pebble.Iterator, key []byte) (bucketRead, error) {
	if crowdMarked(it, key) {
		return bucketRead{crowded: true}, nil
	}
	if err := it.Error(); err != nil {
		return bucketRead{}, err
	}
	members, err := scanUpTo(it, key, crowdSize)
	return bucketRead{members: members}, err
}

// crowdMarked says whether it holds the crowd mark of the bucket of band
// key key (see it.Error for a failed read).
func crowdMarked(it *pebble.Iterator, key []byte) bool {
	ck := crowdKey(key)
	return it.SeekPrefixGE(ck) && bytes.Equal(it.Key(), ck)
}

// prepare reads, before a batch is written, the band buckets of the
// signatures it will add, from the store as committed, in key order on
// one iterator. Read one document at a time, each of a document's 18
// bands and crowd marks lands in another table of each level, and pebble
// opens that table's iterator again: at two million documents those
// seeks took 53% of the CPU of the adds. In key order consecutive seeks
// stay in one table and block. The batch then marks the buckets it
// writes (dirty: put and remove mark their document's buckets, which
// are those crowd may mark crowded), and bandCandidates reads those
// through the batch.
func (k *minKind) prepare(sds []signed) error {
	if !k.keepNear {
		return nil
	}
	k.pre, k.dirty = map[string]bucketRead{}, map[string]bool{}
	var keys [][]byte
	for _, sd := range sds {
		for _, key := range k.bandKeys(sd.(minSigned)) {
			if _, ok := k.pre[string(key)]; !ok {
				k.pre[string(key)] = bucketRead{}
				keys = append(keys, key)
			}
		}
	}
	slices.SortFunc(keys, bytes.Compare)
	return onIter(k.db, func(it *pebble.Iterator) error {
		// The crowd marks first, then the buckets not crowded: each
		// pass seeks forward only.
		for _, key := range keys {
			if crowdMarked(it, key) {
				k.pre[string(key)] = bucketRead{crowded: true}
			}
		}
		if err := it.Error(); err != nil {
			return err
		}
		for _, key := range keys {
			if k.pre[string(key)].crowded {
				continue
			}
			members, err := scanUpTo(it, key, crowdSize)
			if err != nil {
				return err
			}
			k.pre[string(key)] = bucketRead{members: members}
		}
		return nil
	})
}

// done forgets what prepare read.
func (k *minKind) done() { k.pre, k.dirty = nil, nil }

// touch marks the bucket of band key key written by the batch.
func (k *minKind) touch(key []byte) {
	if k.dirty != nil {
		k.dirty[string(key[:bandPrefixLen])] = true
	}
}

// scanUpTo reads, through it, the ids of the first n keys that start
// with prefix.
func scanUpTo(it *pebble.Iterator, prefix []byte, n int) ([]uint64, error) {
	var ids []uint64
	for valid := it.SeekPrefixGE(prefix); valid && len(ids) < n && bytes.HasPrefix(it.Key(), prefix); valid = it.Next() {
		ids = append(ids, keyID(it.Key(), len(prefix)))
	}
	return ids, it.Error()
}

// crowd marks the bucket of band key key crowded, and every document in
// it (see the top of this file); it raises the store's key layout
// version to 6 if it is older.
func (k *minKind) crowd(b *pebble.Batch, key []byte) error {
	if err := raiseVersion(b, crowdVersion); err != nil {
		return err
	}
	b.Set(crowdKey(key), farValue, nil)
	var members []uint64
	if err := scanPrefixes(b, [][]byte{key}, func(_ []byte, id uint64) { members = append(members, id) }); err != nil {
		return err
	}
	k.writeReads += len(members)
	for _, id := range members {
		if err := k.markFar(b, id); err != nil {
			return err
		}
	}
	return nil
}

// markFar marks document id and deletes its neighbour keys; those of
// others that list it stay (a marked document may be listed).
func (k *minKind) markFar(b *pebble.Batch, id uint64) error {
	k.writeReads++
	if marked, err := hasKey(b, farKey(id)); marked || err != nil {
		return err
	}
	b.Set(farKey(id), farValue, nil)
	return scanPrefixes(b, [][]byte{docKey('v', id)}, func(_ []byte, n uint64) {
		k.writeReads++
		b.Delete(nearKey(id, n), nil)
	})
}

// raiseVersion sets the key layout version in the settings to v, in b,
// if it is older.
func raiseVersion(b *pebble.Batch, v int) error {
	raw, err := dbValue(b, []byte("m"))
	if err != nil {
		return fmt.Errorf("%w: settings: %v", ErrStore, err)
	}
	var m storeMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%w: settings %q: %v", ErrStore, raw, err)
	}
	if m.Version >= v {
		return nil
	}
	m.Version = v
	meta, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return b.Set([]byte("m"), meta, nil)
}

// nearInBatch keeps, of ids, those whose record, read through b, has
// listAgree signature positions equal to sig (but id itself): those
// within the threshold of sig, and from key layout version 7 those
// within listMargin positions of it too.
func (k *minKind) nearInBatch(b *pebble.Batch, sig minSigned, id uint64, ids []uint64) ([]uint64, error) {
	var ns []uint64
	for _, n := range ids {
		if n == id {
			continue
		}
		k.writeReads++
		rec, err := docRecord(b, n)
		if err != nil {
			return nil, err
		}
		held, _, err := minStored(n, rec)
		if err != nil {
			return nil, err
		}
		if sameCount(sig, held) >= k.listAgree {
			ns = append(ns, n)
		}
	}
	return ns, nil
}
