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

// NewSites holds templates learned elsewhere (LearnTemplates, per site),
// for Stages.Record: a page's template is that of the group it is given.
func NewSites(templates map[string]*infholder.Template) *Sites {
	return &Sites{templates: templates}
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
// near-duplicate candidates in Dedup (CandidateKeys).
type CandidateKeyer struct {
	norm  *dedup.Normalizer
	mh    *dedup.OnePermHasher
	bands dedup.Bands
	limit int
}

// NewCandidateKeyer prepares CandidateKeys for the options; only the
// MinHash method (the default) is supported.
func NewCandidateKeyer(opts DedupOptions) (*CandidateKeyer, error) {
	if opts.Method != dedup.MethodMinHash {
		return nil, fmt.Errorf("pipeline: candidate keys for --method %v: only minhash is supported", opts.Method)
	}
	if opts.IDF {
		return nil, errors.New("pipeline: candidate keys with IDF weights: not supported (they need the whole collection)")
	}
	norm, _, err := opts.normalizers()
	if err != nil {
		return nil, err
	}
	// The Streamer chooses the banding (with its defaults); ask it.
	st, err := dedup.NewStreamer(opts.config(), norm, dedup.StreamOptions{MaxMemory: 1 << 20})
	if err != nil {
		return nil, err
	}
	bands := st.Bands()
	st.Close()
	numPerm := opts.NumPerm
	if numPerm == 0 {
		numPerm = DefaultDedupOptions().NumPerm
	}
	return &CandidateKeyer{norm: norm, mh: dedup.NewOnePermHasher(numPerm, 0), bands: bands, limit: opts.lineLimit()}, nil
}

// Keys returns the candidate keys of one record line: one per LSH band
// of the MinHash signature of its text's shingles (the band's number and
// rows, hashed). Two records are candidates in Dedup when they share a
// band, that is a key (but for a collision of 64-bit hashes, which only
// adds a candidate pair, verified like any other). A record without
// shingles, or a line Dedup takes for an error record, has none.
func (k *CandidateKeyer) Keys(line []byte) []uint64 {
	line = bytes.TrimSpace(line)
	_, dr, bad := readLine(line, len(line) > k.limit, k.limit, "", 0)
	if bad {
		return nil
	}
	sig := k.mh.Signature(k.norm.ShingleHashes(dr.Text))
	if sig == nil {
		return nil
	}
	keys := make([]uint64, k.bands.B)
	var buf [8]byte
	for b := range keys {
		h := xxhash.New()
		binary.LittleEndian.PutUint64(buf[:], uint64(b))
		h.Write(buf[:])
		for _, v := range sig[b*k.bands.R : (b+1)*k.bands.R] {
			binary.LittleEndian.PutUint64(buf[:], v)
			h.Write(buf[:])
		}
		keys[b] = h.Sum64()
	}
	return keys
}
