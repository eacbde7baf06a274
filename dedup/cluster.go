package dedup

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// Method is how candidate pairs are found.
type Method uint8

const (
	MethodSimHash Method = iota // Hamming distance <= K in the permuted tables
	MethodMinHash               // a shared LSH band
	// Seed 000's signatures: a shared value of Doc.Signatures (see
	// SignCollection) makes a candidate.
	MethodMD5
	MethodTFIDF
	MethodLongSent
	MethodHeavySent
	MethodLexRand
)

// methodNames are the command-line names, by Method.
var methodNames = []string{"simhash", "minhash", "md5", "tfidf", "longsent", "heavysent", "lexrand"}

// Signed reports whether the method compares Doc.Signatures.
func (m Method) Signed() bool { return m >= MethodMD5 && int(m) < len(methodNames) }

// Measure is how a candidate pair is verified.
type Measure uint8

const (
	MeasureJaccard     Measure = iota // |A∩B| / |A∪B| of the shingle sets
	MeasureContainment                // the larger of |A∩B|/|A| and |A∩B|/|B|
	MeasureCosine                     // cosine of the shingle profiles (seed 002)
)

// String is the command-line name of the method.
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("method(%d)", uint8(m))
}

// String is the command-line name of the measure.
func (m Measure) String() string {
	switch m {
	case MeasureContainment:
		return "containment"
	case MeasureCosine:
		return "cosine"
	}
	return "jaccard"
}

// ParseMethod and ParseMeasure read the command-line names.
func ParseMethod(s string) (Method, error) {
	for m, name := range methodNames {
		if s == name {
			return Method(m), nil
		}
	}
	return 0, fmt.Errorf("dedup: unknown method %q (want one of %s)", s, strings.Join(methodNames, ", "))
}

// ParseMeasure reads jaccard, containment or cosine.
func ParseMeasure(s string) (Measure, error) {
	switch s {
	case "jaccard":
		return MeasureJaccard, nil
	case "containment":
		return MeasureContainment, nil
	case "cosine":
		return MeasureCosine, nil
	}
	return 0, fmt.Errorf("dedup: unknown measure %q (want jaccard, containment or cosine)", s)
}

// Similarity verifies a pair with the measure.
func (m Measure) Similarity(a, b []Feature) float64 {
	switch m {
	case MeasureContainment:
		return max(Containment(a, b), Containment(b, a))
	case MeasureCosine:
		return Cosine(a, b)
	}
	return Jaccard(a, b)
}

// Doc is one text to deduplicate, with what canonical choice needs.
type Doc struct {
	URL              string
	FetchedAt        time.Time // zero when unknown: ranks after every known time
	Score            float64   // popularity; higher wins
	BoilerplateRatio float64   // lower wins
	TextLen          int       // longer wins
	Lang             string    // language or script; empty when unknown
	Features         []Feature // from Normalizer.Features; verification compares these
	// Fingerprint is the document's SimHash when HasFingerprint is set
	// (it may come from other features than Features, e.g. a mixture of
	// shingle sizes); otherwise SimHash(Features) is used.
	Fingerprint    uint64
	HasFingerprint bool
	// Signatures are the document's signatures for the signature methods
	// (MethodMD5 ... MethodLexRand), from SignCollection.
	Signatures []uint64
}

// fingerprints returns every document's SimHash.
func fingerprints(docs []Doc) ([]uint64, []bool) {
	fps, ok := make([]uint64, len(docs)), make([]bool, len(docs))
	for i, d := range docs {
		if d.HasFingerprint {
			fps[i], ok[i] = d.Fingerprint, true
		} else {
			fps[i], ok[i] = SimHash(d.Features)
		}
	}
	return fps, ok
}

// Config configures Cluster. The zero value clusters with SimHash at k=3
// and verifies Jaccard >= 0.8.
type Config struct {
	Method    Method
	K         int     // SimHash distance; 0 means DefaultK
	NumPerm   int     // MinHash signature length; 0 means 128
	Threshold float64 // verification threshold; 0 means 0.8
	Measure   Measure
	Seed      uint64 // MinHash seed
	// LengthRatio, when above 1, skips candidate pairs whose text lengths
	// differ by more than this factor (seed 004 compares a page only with
	// pages of 0.8 to 1.2 times its length: 1.25). 0 compares all.
	LengthRatio float64
	// SameLang skips candidate pairs whose Lang differs (both known).
	SameLang bool
	// NoVerify counts every candidate as a duplicate without verification:
	// plain SimHash clusters, as seed 004 draws its histograms.
	NoVerify bool
	// FalsePositiveWeight is the weight of false positives against false
	// negatives (1 - FalsePositiveWeight) when choosing LSH bands. Every
	// candidate is verified, so a false positive costs one comparison and a
	// false negative a missed duplicate. 0 means 0.01.
	FalsePositiveWeight float64
}

// Validate reports every broken setting in one error wrapping ErrConfig:
// a threshold outside [0,1], a SimHash distance outside 0..MaxK, a
// negative MinHash signature length. Zero values stand for the defaults.
func (c Config) Validate() error {
	var errs []error
	if c.Threshold < 0 || c.Threshold > 1 {
		errs = append(errs, fmt.Errorf("%w: threshold %v not in [0,1]", ErrConfig, c.Threshold))
	}
	if c.K < 0 || c.K > MaxK {
		errs = append(errs, fmt.Errorf("%w: dedup: k=%d not in 0..%d", ErrConfig, c.K, MaxK))
	}
	if c.NumPerm < 0 {
		errs = append(errs, fmt.Errorf("%w: MinHash signature length %d: want 1 or more", ErrConfig, c.NumPerm))
	}
	return errors.Join(errs...)
}

// WithDefaults is c with its zero fields set to their defaults (K DefaultK,
// NumPerm 128, Threshold 0.8 and the rest), as Dedup and the Streamer
// read it.
func (c Config) WithDefaults() Config {
	c.ensureDefaults()
	return c
}

func (c *Config) ensureDefaults() {
	if c.K == 0 {
		c.K = DefaultK
	}
	if c.NumPerm == 0 {
		c.NumPerm = 128
	}
	if c.Threshold == 0 {
		c.Threshold = 0.8
	}
	if c.FalsePositiveWeight == 0 {
		c.FalsePositiveWeight = 0.01
	}
}

// Result says, for every document, its cluster and whether it is the
// cluster's canonical page.
type Result struct {
	Centre      []int    // index of the cluster's canonical document, per document
	ClusterID   []string // deterministic cluster id, per document
	SimHash     []uint64 // fingerprint per document
	HasSimHash  []bool   // false for an empty text
	Layout      Layout   // the SimHash tables used (MethodSimHash)
	Bands       Bands    // the LSH banding used (MethodMinHash)
	Candidates  int      // candidate pairs examined
	Verified    int      // pairs that passed verification
	Clusters    int      // clusters, singletons included
	Duplicates  int      // documents that are not canonical
	LargestSize int
}

// ErrConfig is wrapped by Cluster's configuration errors.
var ErrConfig = errors.New("dedup: bad configuration")

// Cluster groups near-duplicate documents so that no cluster chains: the
// documents are taken in canonical order (earliest fetch, then highest
// score, then least boilerplate, then longest text, then URL, then input
// order), each one not yet placed becomes a centre, and its cluster is
// every unplaced candidate whose verified similarity to the centre itself
// reaches the threshold. A loose threshold cannot make one cluster swallow
// everything (seed 002), since membership never passes through another
// member.
func Cluster(docs []Doc, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.ensureDefaults()
	n := len(docs)
	res := &Result{Centre: make([]int, n), ClusterID: make([]string, n)}
	res.SimHash, res.HasSimHash = fingerprints(docs)
	candidates, err := candidateFinder(docs, res, cfg)
	if err != nil {
		return nil, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return canonicalBefore(&docs[order[a]], &docs[order[b]]) })
	placed := make([]bool, n)
	size := make(map[int]int)
	for _, c := range order {
		if placed[c] {
			continue
		}
		placed[c] = true
		res.Centre[c] = c
		res.Clusters++
		size[c] = 1
		for _, j := range candidates(c) {
			if placed[j] || j == c {
				continue
			}
			res.Candidates++
			if cfg.pruned(&docs[c], &docs[j]) {
				continue
			}
			if cfg.NoVerify || cfg.Measure.Similarity(docs[c].Features, docs[j].Features) >= cfg.Threshold {
				res.Verified++
				placed[j] = true
				res.Centre[j] = c
				res.Duplicates++
				size[c]++
			}
		}
	}
	for i := range docs {
		c := res.Centre[i]
		res.ClusterID[i] = ClusterID(docs[c].URL, c)
		res.LargestSize = max(res.LargestSize, size[c])
	}
	return res, nil
}

// ClusterID is the deterministic id of the cluster whose canonical
// document is document centre (its place in the input), with that URL.
func ClusterID(url string, centre int) string {
	return "c" + FormatFingerprint(xxhash.Sum64String(url)^uint64(centre)*0x9e3779b97f4a7c15)
}

// Pair is a verified near-duplicate pair, I < J, with its similarity.
type Pair struct {
	I, J       int
	Similarity float64
}

// PairStats counts the work of FindPairs.
type PairStats struct {
	Candidates int // candidate pairs examined
	Pruned     int // candidates skipped by LengthRatio or SameLang
	Verified   int // pairs that passed
	Layout     Layout
	Bands      Bands
}

// FindPairs returns every candidate pair that passes verification (or
// every candidate pair, with NoVerify), sorted by I then J. It is what
// Cluster clusters, without the clustering: evaluations measure recall
// and precision on it.
func FindPairs(docs []Doc, cfg Config) ([]Pair, PairStats, error) {
	cfg.ensureDefaults()
	res := &Result{}
	res.SimHash, res.HasSimHash = fingerprints(docs)
	candidates, err := candidateFinder(docs, res, cfg)
	if err != nil {
		return nil, PairStats{}, err
	}
	st := PairStats{Layout: res.Layout, Bands: res.Bands}
	var pairs []Pair
	for i := range docs {
		for _, j := range candidates(i) {
			if j <= i {
				continue
			}
			st.Candidates++
			if cfg.pruned(&docs[i], &docs[j]) {
				st.Pruned++
				continue
			}
			sim := cfg.Measure.Similarity(docs[i].Features, docs[j].Features)
			if cfg.NoVerify || sim >= cfg.Threshold {
				st.Verified++
				pairs = append(pairs, Pair{I: i, J: j, Similarity: sim})
			}
		}
	}
	return pairs, st, nil
}

// pruned reports whether the configuration's cheap tests rule a candidate
// pair out before verification.
func (c *Config) pruned(a, b *Doc) bool {
	if c.SameLang && a.Lang != "" && b.Lang != "" && a.Lang != b.Lang {
		return true
	}
	if c.LengthRatio > 1 {
		la, lb := float64(max(a.TextLen, 1)), float64(max(b.TextLen, 1))
		if max(la, lb) > c.LengthRatio*min(la, lb) {
			return true
		}
	}
	return false
}

// candidateFinder prepares the chosen method's index and returns a
// function that lists the candidates of a document (in increasing order).
func candidateFinder(docs []Doc, res *Result, cfg Config) (func(int) []int, error) {
	switch cfg.Method {
	case MethodSimHash:
		layout, err := PlanProbeLayout(cfg.K, len(docs), 0)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConfig, err)
		}
		res.Layout = layout
		ix := NewIndex(res.SimHash, layout)
		return func(i int) []int {
			if !res.HasSimHash[i] {
				return nil
			}
			var out []int
			ix.Query(res.SimHash[i], func(id, _ int) {
				if res.HasSimHash[id] {
					out = append(out, id)
				}
			})
			sort.Ints(out)
			return out
		}, nil
	case MethodMinHash:
		mh := NewOnePermHasher(cfg.NumPerm, cfg.Seed)
		bands := ChooseBands(cfg.Threshold, cfg.NumPerm, cfg.FalsePositiveWeight, 1-cfg.FalsePositiveWeight)
		res.Bands = bands
		keys := make([][]uint64, len(docs))
		// With MeasureContainment a last table holds the sampled
		// shingles (containmentKeys).
		buckets := make([]map[uint64][]int, bands.B+1)
		for b := range buckets {
			buckets[b] = make(map[uint64][]int)
		}
		var hashes []uint64
		for i, d := range docs {
			hashes = hashes[:0]
			for _, f := range d.Features {
				hashes = append(hashes, f.Hash)
			}
			sig := mh.Signature(hashes)
			if sig == nil {
				continue
			}
			keys[i] = bands.bandKeys(sig)
			for b, k := range keys[i] {
				buckets[b][k] = append(buckets[b][k], i)
			}
			if cfg.Measure == MeasureContainment {
				ck := containmentKeys(hashes)
				for _, k := range ck {
					buckets[bands.B][k] = append(buckets[bands.B][k], i)
				}
				keys[i] = append(keys[i], ck...)
			}
		}
		return func(i int) []int {
			return bucketCandidates(keys[i], func(n int, k uint64) []int {
				if n >= bands.B {
					if ids := buckets[bands.B][k]; len(ids) <= maxContainmentGroup {
						return ids
					}
					return nil
				}
				return buckets[n][k]
			})
		}, nil
	}
	if cfg.Method.Signed() {
		buckets := map[uint64][]int{}
		for i, d := range docs {
			for _, s := range d.Signatures {
				buckets[s] = append(buckets[s], i)
			}
		}
		return func(i int) []int {
			return bucketCandidates(docs[i].Signatures, func(_ int, k uint64) []int { return buckets[k] })
		}, nil
	}
	return nil, fmt.Errorf("%w: unknown method %d", ErrConfig, cfg.Method)
}

// bucketCandidates lists, in increasing order and once each, the
// documents in the buckets of a document's keys (bucket gets the key's
// position and the key).
func bucketCandidates(keys []uint64, bucket func(n int, key uint64) []int) []int {
	seen := make(map[int]bool)
	var out []int
	for n, k := range keys {
		for _, j := range bucket(n, k) {
			if !seen[j] {
				seen[j] = true
				out = append(out, j)
			}
		}
	}
	sort.Ints(out)
	return out
}

// canonicalBefore orders documents for canonical choice (seed 000): the
// earliest fetch, then the highest score, then the least boilerplate, then
// the longest text, then the URL.
func canonicalBefore(a, b *Doc) bool {
	switch {
	case !a.FetchedAt.Equal(b.FetchedAt):
		if a.FetchedAt.IsZero() || b.FetchedAt.IsZero() {
			return !a.FetchedAt.IsZero()
		}
		return a.FetchedAt.Before(b.FetchedAt)
	case a.Score != b.Score:
		return a.Score > b.Score
	case a.BoilerplateRatio != b.BoilerplateRatio:
		return a.BoilerplateRatio < b.BoilerplateRatio
	case a.TextLen != b.TextLen:
		return a.TextLen > b.TextLen
	}
	return a.URL < b.URL
}
