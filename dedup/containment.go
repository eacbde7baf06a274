package dedup

import "slices"

// Containment candidates. LSH bands on MinHash find pairs of high
// Jaccard, but a text that reuses a passage of a much longer one has a
// low Jaccard with it however much of the short text is reused (a
// 200-shingle answer wholly inside a 2,000-shingle source: Jaccard 0.1,
// containment 1), so with MeasureContainment the bands alone miss the
// pairs that measure is for. Documents therefore also meet on sampled
// shingles: a shingle whose hash falls in one of containmentSample
// buckets is a key (sampling by value, as Broder's and Manber's
// fingerprints select "0 mod p" hashes, so that two documents select the
// same shingles of the passage they share, wherever it sits). A shared
// run of n shingles goes unsampled with probability (1 -
// 1/containmentSample)^n: 0.3% at n = 20. Verification then measures the
// exact containment as for any candidate.

// containmentSample is one over the share of shingles that are keys.
const containmentSample = 4

// maxContainmentGroup is the most documents a sampled shingle links: a
// shingle that more documents share is a stock phrase ("all rights
// reserved"), which links nothing that a longer shared passage would not
// link through its other shingles.
const maxContainmentGroup = 256

// containmentTag marks the low byte of a containment key, so that the
// key sort can tell its groups from band groups (a band key carries the
// same byte once in 256 times; its group is then capped as well, which
// only drops candidates that the other bands give).
const containmentTag = 0xc5

// containmentKeys returns the sampled shingle keys of a document's
// shingle hashes (any order, repeats allowed), sorted and distinct.
func containmentKeys(hashes []uint64) []uint64 {
	var keys []uint64
	for _, h := range hashes {
		if h%containmentSample == 0 {
			keys = append(keys, mix64(h^0x636f6e7461696e)&^0xff|containmentTag)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// isContainmentKey reports whether a key carries containmentTag.
func isContainmentKey(k uint64) bool { return k&0xff == containmentTag }
