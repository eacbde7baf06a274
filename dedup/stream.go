package dedup

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
)

// ErrMemory is wrapped by a Streamer's errors when what it must hold
// (the candidate keys' sort buffer, the candidate documents' tables)
// does not fit in StreamOptions.MaxMemory.
var ErrMemory = errors.New("dedup: over the memory budget")

// DefaultStreamMemory is StreamOptions.MaxMemory when it is zero.
const DefaultStreamMemory = 512 << 20

// StreamOptions bound a Streamer's resources.
type StreamOptions struct {
	// MaxMemory is the bytes the Streamer's own tables may hold: half of
	// it sorts candidate keys in memory before they are spilled to
	// TempDir, and after the sort the candidate documents' tables and
	// their cached features share all of it. 0 means DefaultStreamMemory.
	MaxMemory int64
	// TempDir holds the per-document file and the spilled key runs; ""
	// means os.TempDir(). The files are removed by Close.
	TempDir string
	// Workers read the candidate documents back in Finish (through the
	// FetchFunc, which must then be safe for concurrent use); 0 means
	// one. The result does not depend on it.
	Workers int
}

// A Streamer clusters a collection that it sees once, in input order,
// without holding its texts: Add keeps, per document, a fixed record in a
// temporary file (SimHash fingerprint, where to read the document back,
// and a b-bit MinHash sketch) and sends its candidate keys (LSH band
// keys or signature values) to an external sort. Finish groups the
// documents that share a key, reads back only those (through a
// FetchFunc), and clusters them exactly as Cluster does: in canonical
// order, each unplaced document a centre of every unplaced candidate whose
// verified similarity to it reaches the threshold. With MethodSimHash the
// fingerprints (8 bytes a document) and Manku's tables stay in memory.
//
// Verification is exact (the Config's Measure over the Normalizer's
// features) for every pair whose features fit in memory beside the
// tables. When they do not, a pair's b-bit MinHash estimate of Jaccard
// decides it if it is clearly above or below the threshold (more than
// 4.5 standard deviations of the estimate), and the borderline pairs
// are verified exactly in batches of re-read documents; the clustering is
// repeated until it meets no pair whose fate is undecided. Other measures
// than Jaccard verify every pair exactly.
//
// Use: NewStreamer, Sign and Add for every document in input order (Sign
// is safe for concurrent use; Add is not), Finish once, then Close.
type Streamer struct {
	cfg       Config
	norm      *Normalizer
	mh        *OnePermHasher
	bands     Bands
	opts      StreamOptions
	sorter    *keySorter
	docs      *os.File
	dw        *bufio.Writer
	n         int
	recLen    int
	fps       []uint64 // MethodSimHash: every fingerprint
	hasFP     []bool
	finished  bool
	sketchLen int
	// noFeatures holds no feature in memory (tests of the sketch path).
	noFeatures bool
}

// StreamDoc is one document as a Streamer sees it: where the caller can
// read it back (passed to the FetchFunc), its SimHash fingerprint, and
// for a signed method its signatures. Sign fills in its candidate keys
// and sketch.
type StreamDoc struct {
	Offset         int64
	Length         int
	Fingerprint    uint64
	HasFingerprint bool
	// Signatures are the document's values for the signature methods
	// (SignCollection).
	Signatures []uint64
	// Mark is the caller's, kept and given back in StreamOutcome.
	Mark   uint8
	keys   []uint64
	sketch []byte
}

// FetchFunc reads document id back, from where its StreamDoc said, and
// returns its canonical-choice fields (URL, FetchedAt, Score,
// BoilerplateRatio, TextLen; Features are not read) and its text. With
// StreamOptions.Workers above one it is called from several goroutines.
type FetchFunc func(id int, offset int64, length int) (Doc, string, error)

// NewStreamer prepares a streaming clustering with cfg; norm makes the
// features that verification compares and MinHash signs.
func NewStreamer(cfg Config, norm *Normalizer, opts StreamOptions) (*Streamer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.ensureDefaults()
	if cfg.Method != MethodSimHash && cfg.Method != MethodMinHash && !cfg.Method.Signed() {
		return nil, fmt.Errorf("%w: unknown method %d", ErrConfig, cfg.Method)
	}
	if opts.MaxMemory == 0 {
		opts.MaxMemory = DefaultStreamMemory
	}
	if opts.TempDir == "" {
		opts.TempDir = os.TempDir()
	}
	s := &Streamer{cfg: cfg, norm: norm, opts: opts, mh: NewOnePermHasher(cfg.NumPerm, cfg.Seed)}
	s.sketchLen = cfg.NumPerm
	s.recLen = docRecHeader + s.sketchLen
	if cfg.Method == MethodMinHash {
		s.bands = ChooseBands(cfg.Threshold, cfg.NumPerm, cfg.FalsePositiveWeight, 1-cfg.FalsePositiveWeight)
	}
	var err error
	if s.sorter, err = newKeySorter(opts.MaxMemory/2, opts.TempDir); err != nil {
		return nil, err
	}
	if s.docs, err = os.CreateTemp(opts.TempDir, "winnow-docs-*.bin"); err != nil {
		return nil, fmt.Errorf("dedup: %w", err)
	}
	s.dw = bufio.NewWriterSize(s.docs, 1<<16)
	return s, nil
}

// docRecHeader is the fixed part of a document's record: fingerprint
// (8), flags (1), offset (8), length (4), the caller's mark (1); the
// sketch follows.
const docRecHeader = 22

const (
	flagFingerprint = 1 << iota
	flagSketch
)

// Bands is the LSH banding (MethodMinHash).
func (s *Streamer) Bands() Bands { return s.bands }

// Sign computes d's candidate keys and sketch from the document's
// shingle hashes (the Streamer's Normalizer's ShingleHashes; order and
// repeats do not matter): a one-permutation MinHash signature of
// Config.NumPerm positions (OnePermHasher), its LSH band keys (with
// MeasureContainment also its sampled shingles, containmentKeys) and its
// low bytes as the sketch. It is safe for concurrent use.
func (s *Streamer) Sign(d *StreamDoc, hashes []uint64) {
	d.keys, d.sketch = nil, nil
	sig := s.mh.Signature(hashes)
	if sig != nil {
		d.sketch = make([]byte, len(sig))
		for i, v := range sig {
			d.sketch[i] = byte(v)
		}
	}
	switch {
	case s.cfg.Method == MethodMinHash && sig != nil:
		d.keys = s.bands.bandKeys(sig)
		if s.cfg.Measure == MeasureContainment {
			d.keys = append(d.keys, containmentKeys(hashes)...)
		}
	case s.cfg.Method.Signed():
		d.keys = slices.Clone(d.Signatures)
	}
}

// Add appends the next document (its id is the number of documents
// added before it). d must have been signed.
func (s *Streamer) Add(d StreamDoc) error {
	if s.finished {
		return errors.New("dedup: Streamer.Add after Finish")
	}
	if s.n >= math.MaxUint32 {
		return fmt.Errorf("%w: more than %d documents", ErrMemory, uint32(math.MaxUint32))
	}
	rec := make([]byte, s.recLen)
	binary.LittleEndian.PutUint64(rec, d.Fingerprint)
	if d.HasFingerprint {
		rec[8] |= flagFingerprint
	}
	if len(d.sketch) == s.sketchLen {
		rec[8] |= flagSketch
		copy(rec[docRecHeader:], d.sketch)
	}
	binary.LittleEndian.PutUint64(rec[9:], uint64(d.Offset))
	binary.LittleEndian.PutUint32(rec[17:], uint32(d.Length))
	rec[21] = d.Mark
	if _, err := s.dw.Write(rec); err != nil {
		return fmt.Errorf("dedup: %w", err)
	}
	for _, k := range d.keys {
		if err := s.sorter.add(k, uint32(s.n)); err != nil {
			return err
		}
	}
	if s.cfg.Method == MethodSimHash {
		if int64(len(s.fps)+1)*9 > s.opts.MaxMemory/2 {
			return fmt.Errorf("%w: %d SimHash fingerprints", ErrMemory, len(s.fps)+1)
		}
		s.fps = append(s.fps, d.Fingerprint)
		s.hasFP = append(s.hasFP, d.HasFingerprint)
	}
	s.n++
	return nil
}

// Len is the number of documents added.
func (s *Streamer) Len() int { return s.n }

// Close removes the temporary files.
func (s *Streamer) Close() error {
	var errs []error
	if s.docs != nil {
		name := s.docs.Name()
		s.docs.Close()
		if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
			errs = append(errs, err)
		}
		s.docs = nil
	}
	errs = append(errs, s.sorter.close())
	return errors.Join(errs...)
}

// docRecord reads document id's fixed record.
func (s *Streamer) docRecord(id int, rec []byte) error {
	if _, err := s.docs.ReadAt(rec, int64(id)*int64(s.recLen)); err != nil {
		return fmt.Errorf("dedup: reading back document %d's record: %w", id, err)
	}
	return nil
}

// Finish finds the candidates, reads their documents back with fetch and
// clusters. It may be called once, after the last Add.
func (s *Streamer) Finish(fetch FetchFunc) (*StreamResult, error) {
	if s.finished {
		return nil, errors.New("dedup: Streamer.Finish called twice")
	}
	s.finished = true
	if err := s.dw.Flush(); err != nil {
		return nil, fmt.Errorf("dedup: %w", err)
	}
	c := &clusterer{s: s, cfg: s.cfg, budget: s.opts.MaxMemory}
	var err error
	if s.cfg.Method == MethodSimHash {
		err = c.simhashCandidates()
	} else {
		err = c.keyCandidates()
	}
	if err != nil {
		return nil, err
	}
	if err := c.load(fetch); err != nil {
		return nil, err
	}
	if err := c.cluster(fetch); err != nil {
		return nil, err
	}
	return c.result(), nil
}

// StreamResult is the outcome of a Streamer: counts, and per document
// (read in input order with Next) its cluster.
type StreamResult struct {
	Docs        int
	Layout      Layout // MethodSimHash
	Bands       Bands  // MethodMinHash
	Candidates  int    // candidate pairs examined against a centre
	Verified    int    // pairs that passed
	Clusters    int
	Duplicates  int
	LargestSize int
	// Estimated counts the pairs decided on their b-bit MinHash sketch,
	// Exact those verified on their features.
	Estimated, Exact int
	// Near counts the documents with a near-duplicate in another
	// cluster (StreamOutcome.Near).
	Near int
	// Examined counts the SimHash table entries the candidate search
	// and the clusterings looked at (MethodSimHash).
	Examined int

	s      *Streamer
	cands  []uint32 // documents with candidates, increasing
	centre []int32  // per candidate: its centre (a candidate index)
	size   []int32  // per centre candidate: its cluster's size
	url    []string
	near   []int32 // per candidate: its near-duplicate in another cluster, or -1
	nearS  []float64
	next   int // Next's document
	pos    int // Next's place in cands
	rd     *bufio.Reader
	rec    []byte
}

// StreamOutcome is one document's cluster.
type StreamOutcome struct {
	ID             int
	Fingerprint    uint64
	HasFingerprint bool
	Mark           uint8 // StreamDoc.Mark
	// Centre is the id of the cluster's canonical document (ID itself
	// for a canonical one), CentreURL its URL when it is not ID, and
	// Size the cluster's size.
	Centre    int
	CentreURL string
	Size      int
	// Near, when HasNear, is the URL of the most similar document of
	// another cluster whose verified similarity reaches the threshold
	// (NearSimilarity): a near-duplicate that the clustering split off,
	// since membership goes through the centre only.
	Near           string
	NearSimilarity float64
	HasNear        bool
}

// Rewind makes Next start again from the first document.
func (r *StreamResult) Rewind() { r.next, r.pos, r.rd = 0, 0, nil }

// Next returns the outcome of the next document in input order, or false
// after the last.
func (r *StreamResult) Next() (StreamOutcome, bool, error) {
	if r.next >= r.Docs {
		return StreamOutcome{}, false, nil
	}
	if r.rd == nil {
		if _, err := r.s.docs.Seek(0, 0); err != nil {
			return StreamOutcome{}, false, fmt.Errorf("dedup: %w", err)
		}
		r.rd = bufio.NewReaderSize(r.s.docs, 1<<16)
		r.rec = make([]byte, r.s.recLen)
	}
	if _, err := io.ReadFull(r.rd, r.rec); err != nil {
		return StreamOutcome{}, false, fmt.Errorf("dedup: reading back the document records: %w", err)
	}
	id := r.next
	r.next++
	o := StreamOutcome{ID: id, Centre: id, Size: 1}
	o.Fingerprint = binary.LittleEndian.Uint64(r.rec)
	o.HasFingerprint = r.rec[8]&flagFingerprint != 0
	o.Mark = r.rec[21]
	if r.pos < len(r.cands) && int(r.cands[r.pos]) == id {
		k := r.pos
		r.pos++
		c := r.centre[k]
		o.Centre, o.Size = int(r.cands[c]), int(r.size[c])
		if int(c) != k {
			o.CentreURL = r.url[c]
		}
		if nb := r.near[k]; nb >= 0 {
			o.Near, o.NearSimilarity, o.HasNear = r.url[nb], r.nearS[k], true
		}
	}
	return o, true, nil
}

// candIndex is the candidate index of document id, or -1.
func candIndex(cands []uint32, id uint32) int {
	k := sort.Search(len(cands), func(i int) bool { return cands[i] >= id })
	if k < len(cands) && cands[k] == id {
		return k
	}
	return -1
}
