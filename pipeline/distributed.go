package pipeline

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/winnow-go/winnow/dedup"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/xpathrules"
)

// This file holds the entry points of a run spread over many machines
// (winnow-beam): the pieces of pass 1 that a distributed engine calls
// per site, and the near-duplicate stage over part of a collection. Run
// calls the same code, so that both give the same records.

// PageSite is the site of an input whose pages pass 1 samples together
// (infholder.Site's host), and whether the input is a page at all: a
// skipped or failed input, or one without a URL, belongs to no site.
func PageSite(in Input) (string, bool) {
	if in.Status != "" || in.URL == "" {
		return "", false
	}
	host, _ := infholder.Site(in.URL)
	return host, true
}

// SitePageCap is how many of a site's first pages (in input order) pass
// 1 samples: twice SamplesPerGroup, so that a site of several groups
// gives each some.
func (o Options) SitePageCap() int { return 2 * o.samplesPerGroup() }

func (o Options) samplesPerGroup() int {
	if o.SamplesPerGroup <= 0 {
		return DefaultSamplesPerGroup
	}
	return o.SamplesPerGroup
}

// templateSignature is the block signature templates compare.
func (o Options) templateSignature() infholder.Signature {
	if sig := o.Stages.Template.Signature; sig != "" {
		return sig
	}
	return infholder.SigContent
}

// Sample parses a page and takes what template learning needs of it, as
// pass 1 does for the pages it samples; false when the input does not
// parse (its record will say why).
func (o Options) Sample(in Input) (infholder.Sample, bool) {
	_, s, ok := o.sample(in, o.templateSignature())
	return s, ok
}

func (o Options) sample(in Input, sig infholder.Signature) (*extract.Page, infholder.Sample, bool) {
	p, err := o.Stages.Parse(in)
	if err != nil {
		return nil, infholder.Sample{}, false
	}
	return p, infholder.NewSample(p, sig), true
}

// SampleRule is Sample with what a site rule's typical length is
// taken from: the rule of Stages.Rules that matches the page (nil for
// none) and its content words on it (xpathrules.Rule.ContentWords).
func (o Options) SampleRule(in Input) (s infholder.Sample, rule *xpathrules.Rule, words int, ok bool) {
	p, s, ok := o.sample(in, o.templateSignature())
	if !ok {
		return s, nil, 0, false
	}
	rw := o.ruleWords(p)
	return s, rw.rule, rw.words, true
}

// SamplesRuleWords reports whether pass 1 takes the rule words of a
// site's sampled pages (SampleRule) into its rules' typical lengths: a
// site of fewer than infholder.MinPages pages has its pages parsed only
// when templates are kept (TemplatesDir, Templates), since otherwise it
// learns none.
func (o Options) SamplesRuleWords(sitePages int) bool {
	return sitePages >= infholder.MinPages || o.templateStore() != nil
}

// NewSites holds templates learned elsewhere (LearnTemplates, per site),
// for Stages.Record: a page's template is that of the group it is given,
// and a site rule's typical length is typical's (the median of the rule
// words of the sampled pages, xpathrules.Typical; nil when there are
// no rules).
func NewSites(templates map[string]*infholder.Template, typical map[*xpathrules.Rule]int) *Sites {
	return &Sites{templates: templates, typicalWords: typical}
}

// FileError is the record input of a file that could not be read to
// its end: the records read before it stand, and this one says why the
// rest is missing (winnow-beam, where one bad file must not fail the
// job, and Run with Options.FileErrors).
func FileError(path string, err error) Input {
	return Input{Source: path, Status: StatusError, Err: fmt.Sprintf("reading %s: %v", path, err), Kind: KindRead}
}

// fnError marks an error that readInputs' callback returned, as opposed
// to one of the file being read.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }
func (e fnError) Unwrap() error { return e.err }

// readInputs is readInputs with the run's choice of what a file that
// cannot be read does: stop the run, or (FileErrors) become an error
// record after those read before the failure.
func (o Options) readInputs(paths []string, fn func(Input) error, res func(url, path string, offset int64), readers, limit int, skim bool) error {
	if !o.FileErrors {
		return readInputs(paths, fn, res, readers, limit, skim)
	}
	marked := func(in Input) error {
		if err := fn(in); err != nil {
			return fnError{err}
		}
		return nil
	}
	for _, p := range paths {
		err := readInputs([]string{p}, marked, res, readers, limit, skim)
		var fe fnError
		switch {
		case errors.As(err, &fe):
			return fe.err
		case err != nil:
			if err := fn(FileError(p, err)); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReadPaths reads a list of input paths (winnow run --paths-from, a
// winnow-beam manifest): one path a line, each kept exactly as written
// (records name it in their source); blank lines and lines starting
// with # are skipped.
func ReadPaths(r io.Reader) ([]string, error) {
	var paths []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		paths = append(paths, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pipeline: list of paths: %w", err)
	}
	return paths, nil
}

// DedupPart is Dedup over part of a collection: r holds the records at
// places ids (increasing) of the whole collection, in that order, and
// their cluster ids are those Dedup gives them in the whole. The part
// must hold whole candidate components (records linked by shared
// CandidateKeys, directly or through others): clustering is decided
// within a component, so the part's records then get exactly the fields
// Dedup gives them in the whole collection. opts.Index, KeepClusters and
// Redirects do not apply.
func DedupPart(r io.Reader, name string, ids []int, w io.Writer, opts DedupOptions) (DedupSummary, error) {
	if !slices.IsSorted(ids) {
		return DedupSummary{}, errors.New("pipeline: DedupPart: the places are not in order")
	}
	opts.Index, opts.KeepClusters, opts.Redirects = "", false, nil
	sum, _, err := dedupIDs(r, name, ids, w, opts)
	return sum, err
}

// CandidateKeyer gives the keys under which records meet as
// near-duplicate candidates in Dedup (CandidateKeys), for --method
// minhash and simhash.
type CandidateKeyer struct {
	norm, simNorm *dedup.Normalizer
	mh            *dedup.OnePermHasher
	bands         dedup.Bands // minhash
	masks         []uint64    // simhash: the tables' masks
	k             int         // simhash: the Hamming distance of a candidate
	limit         int
}

// SimHashKeyLayoutSize is the collection size the SimHash keys' tables
// are planned for (dedup.PlanLayout): any layout for K brings every
// pair within K bits together, and one planned for a crawl of a billion
// records keeps the records sharing a key few.
const SimHashKeyLayoutSize = 1 << 30

// MaxKeyedK is the largest SimHash distance candidate keys support:
// keys are Manku's tables (every pair within k shares a table's leading
// bits), and for k=8 planned for SimHashKeyLayoutSize records they lead
// on 8 bits; beyond it, on fewer.
const MaxKeyedK = 8

// NewCandidateKeyer prepares CandidateKeys for the options: --method
// minhash (the default) or simhash, without IDF weights, measured by
// Jaccard or cosine (not containment).
func NewCandidateKeyer(opts DedupOptions) (*CandidateKeyer, error) {
	if opts.Method != dedup.MethodMinHash && opts.Method != dedup.MethodSimHash {
		return nil, fmt.Errorf("pipeline: candidate keys for --method %v: only minhash and simhash are supported", opts.Method)
	}
	if opts.IDF {
		return nil, errors.New("pipeline: candidate keys with IDF weights: not supported (the weights need the whole collection before any fingerprint)")
	}
	if opts.Measure == dedup.MeasureContainment {
		// Dedup's containment candidates (sampled shingles, capped per
		// group) are not keyed here yet.
		return nil, errors.New("pipeline: candidate keys for --measure containment: not supported")
	}
	norm, simNorm, err := opts.normalizers()
	if err != nil {
		return nil, err
	}
	k := &CandidateKeyer{norm: norm, simNorm: simNorm, limit: opts.lineLimit()}
	if opts.Method == dedup.MethodSimHash {
		kk := opts.config().WithDefaults().K // 0 means the default, as in Dedup
		if kk > MaxKeyedK {
			return nil, fmt.Errorf("pipeline: candidate keys for k=%d: at most k=%d (Manku's tables for a larger k lead on fewer than 8 bits, so each key would be shared by a 128th or more of the records)", kk, MaxKeyedK)
		}
		layout, err := dedup.PlanLayout(kk, SimHashKeyLayoutSize, 0)
		if err != nil {
			return nil, fmt.Errorf("pipeline: candidate keys: %w", err)
		}
		k.masks, k.k = layout.TableMasks(), kk
		return k, nil
	}
	// The Streamer chooses the banding (with its defaults); ask it.
	st, err := dedup.NewStreamer(opts.config(), norm, dedup.StreamOptions{MaxMemory: 1 << 20})
	if err != nil {
		return nil, err
	}
	k.bands = st.Bands()
	st.Close()
	numPerm := opts.NumPerm
	if numPerm == 0 {
		numPerm = DefaultDedupOptions().NumPerm
	}
	k.mh = dedup.NewOnePermHasher(numPerm, 0)
	return k, nil
}

// Keys returns the candidate keys of one record line, and its SimHash
// fingerprint with --method simhash (0 with minhash). Two records are
// candidates in Dedup when they share a key and Candidates says so of
// their fingerprints (but for a collision of 64-bit hashes, which only
// adds a candidate pair, verified like any other). A record without
// shingles, or a line Dedup takes for an error record, has none.
//
// MinHash: one key per LSH band of the MinHash signature of the text's
// shingles (the band's number and rows, hashed). SimHash: one key per
// table of Manku's permuted tables for K (dedup.Layout.TableMasks: the
// table's number and the fingerprint's bits it is sorted on, hashed);
// records within K bits share at least one.
func (k *CandidateKeyer) Keys(line []byte) (keys []uint64, fp uint64) {
	line = bytes.TrimSpace(line)
	_, dr, bad := readLine(line, len(line) > k.limit, k.limit, "", 0)
	if bad {
		return nil, 0
	}
	if k.masks != nil {
		// The fingerprint as Dedup's first pass computes it.
		_, fp, ok := k.norm.HashesAndFingerprint(dr.Text, k.simNorm)
		if !ok {
			return nil, 0
		}
		keys = make([]uint64, len(k.masks))
		for t, m := range k.masks {
			keys[t] = hashWords(uint64(t), fp&m)
		}
		return keys, fp
	}
	sig := k.mh.Signature(k.norm.ShingleHashes(dr.Text))
	if sig == nil {
		return nil, 0
	}
	keys = make([]uint64, k.bands.B)
	for b := range keys {
		keys[b] = hashWords(uint64(b), sig[b*k.bands.R:(b+1)*k.bands.R]...)
	}
	return keys, 0
}

// Candidates reports whether two records that share a key, with the
// fingerprints Keys gave them, are candidates in Dedup: with SimHash
// when they are within K bits, with MinHash always.
func (k *CandidateKeyer) Candidates(a, b uint64) bool {
	return k.masks == nil || dedup.Distance(a, b) <= k.k
}

// hashWords hashes a key's number and words.
func hashWords(n uint64, words ...uint64) uint64 {
	h := xxhash.New()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], n)
	h.Write(buf[:])
	for _, v := range words {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	return h.Sum64()
}
