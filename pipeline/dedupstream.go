package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/jsonl"
)

// DefaultDedupMemory is DedupOptions.MaxMemory when it is zero: 1 GB.
const DefaultDedupMemory = 1 << 30

// Shares of DedupOptions.MaxMemory. The Streamer's tables (the key sort
// buffer, then the candidates' tables and features) take dedupTableShare;
// the batches of lines in flight between the reader, the workers and the
// writer take at most dedupBatchShare; a line longer than MaxMemory /
// dedupLineDivisor is an error record (its text, features and signature
// cost a few times its size in a worker); the rest is the collector's
// headroom and the runtime's own.
const (
	dedupTableShare  = 0.4
	dedupBatchShare  = 1.0 / 16
	dedupLineDivisor = 64
	// The collection statistics of the signature methods and --idf:
	// their counts (spilled beyond the share), then the frozen tables of
	// the terms and features of two or more records, which the signing
	// pass reads beside the Streamer's key buffer (half its share) and
	// the batches.
	dedupCountShare = 0.2
	dedupFreqShare  = 0.35
	// The persistent index's block cache (--index), opened after the
	// Streamer's tables are gone, at most dedup.DefaultCacheBytes.
	dedupIndexCacheShare = 1.0 / 8
)

// openIndex opens the persistent index (DedupOptions.Index), its block
// cache within dedupIndexCacheShare of MaxMemory.
func (d *deduper) openIndex() (*dedup.Store, error) {
	cache := min(dedup.DefaultCacheBytes, int64(dedupIndexCacheShare*float64(d.opts.MaxMemory)))
	return dedup.OpenExistingStoreWith(d.opts.Index, d.opts.IndexWant, dedup.OpenOptions{CacheBytes: cache})
}

// ErrDedupMemory is wrapped by Dedup's errors when the input cannot be
// processed within DedupOptions.MaxMemory (dedup.ErrMemory is wrapped
// too when the Streamer's tables are what does not fit).
var ErrDedupMemory = errors.New("pipeline: near-duplicate detection over --max-memory")

// Dedup reads JSONL records with "url" and "text" (optional "fetched_at",
// "score", "boilerplate_ratio" steer the canonical choice), clusters
// them and writes them to w in input order with "simhash", "cluster",
// "canonical", "duplicate_of" and "near" set; other fields pass through
// in their order. A line that is not a JSON object becomes an error
// record (counted in Errors). name names the input in those records.
//
// It streams (see dedup.Streamer): a first pass reads the records once
// and keeps, per record, a fixed record in opts.TempDir and its
// candidate keys in an external sort; the records that have candidates
// are read back to verify them; a last pass reads the input again and
// writes each record. r is read in place when it is a regular file
// (from its current offset), and spooled to opts.TempDir first
// otherwise. Memory stays within opts.MaxMemory, or Dedup fails with an
// error wrapping ErrDedupMemory or dedup.ErrMemory. The signature
// methods that weigh terms (Method.NeedsStats) and IDF need the
// collection's statistics first: a pass before the signing one counts
// them (see deduper.stats for their bound). Clusters are returned only
// with opts.KeepClusters.
func Dedup(r io.Reader, name string, w io.Writer, opts DedupOptions) (DedupSummary, *Clusters, error) {
	return dedupIDs(r, name, nil, w, opts)
}

// dedupIDs is Dedup whose records have the places ids in a larger
// collection (nil: their own), for the cluster ids (DedupPart).
func dedupIDs(r io.Reader, name string, ids []int, w io.Writer, opts DedupOptions) (DedupSummary, *Clusters, error) {
	norm, simNorm, err := opts.normalizers()
	if err != nil {
		return DedupSummary{}, nil, err
	}
	if opts.MaxMemory == 0 {
		opts.MaxMemory = DefaultDedupMemory
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.TempDir == "" {
		opts.TempDir = os.TempDir()
	}
	in, closeIn, err := seekable(r, opts.TempDir)
	if err != nil {
		return DedupSummary{}, nil, err
	}
	defer closeIn()
	st, err := dedup.NewStreamer(opts.config(), norm, dedup.StreamOptions{
		MaxMemory: int64(float64(opts.MaxMemory) * dedupTableShare), TempDir: opts.TempDir, Workers: opts.Workers})
	if err != nil {
		return DedupSummary{}, nil, err
	}
	defer st.Close()
	d := &deduper{opts: opts, norm: norm, simNorm: simNorm, in: in, name: name, st: st, ids: ids}
	d.limit = opts.lineLimit()
	slots := int64(2*opts.Workers + 2)
	d.batchBytes = int(max(64<<10, min(4<<20, int64(float64(opts.MaxMemory)*dedupBatchShare)/slots)))
	if err := d.sign(); err != nil {
		return d.sum, nil, err
	}
	res, err := st.Finish(d.fetch)
	if err != nil {
		return d.sum, nil, err
	}
	d.summarise(res)
	var held map[int]string
	if opts.Index != "" {
		if held, err = d.queryIndex(res); err != nil {
			return d.sum, nil, err
		}
	}
	cl, err := d.write(res, held, w)
	return d.sum, cl, err
}

// seekable returns the input as a reader at its offsets: a regular file
// from its current offset, or else a spool of r in dir (removed by the
// returned function).
func seekable(r io.Reader, dir string) (*io.SectionReader, func(), error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if base, err := f.Seek(0, io.SeekCurrent); err == nil {
				return io.NewSectionReader(f, base, fi.Size()-base), func() {}, nil
			}
		}
	}
	spool, err := os.CreateTemp(dir, "winnow-dedup-input-*.jsonl")
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline: spooling the input: %w", err)
	}
	done := func() {
		spool.Close()
		os.Remove(spool.Name())
	}
	n, err := io.Copy(spool, r)
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("pipeline: spooling the input: %w", err)
	}
	return io.NewSectionReader(spool, 0, n), done, nil
}

// deduper is the state of one Dedup.
type deduper struct {
	opts          DedupOptions
	norm, simNorm *dedup.Normalizer
	in            *io.SectionReader
	name          string
	st            *dedup.Streamer
	ids           []int // each record's place in the collection (nil: its line)
	limit         int   // the longest line read
	batchBytes    int
	sum           DedupSummary
}

// lineJob is one input line on its way through a pass.
type lineJob struct {
	line int
	off  int64
	n    int
	b    []byte
	long bool

	bad     bool
	doc     dedup.StreamDoc
	terms   []uint64 // the statistics pass: the record's term keys
	feats   []uint64 // and its feature hashes
	text    string   // when the pass needs it
	url     string
	meta    dedup.Doc // with the text: the canonical-choice fields
	outcome dedup.StreamOutcome
	write   bool // pass 2: the record is written (not a dropped duplicate)
	canon   string
}

type lineBatch struct {
	jobs  []lineJob
	arena []byte
	out   []byte
	err   error
}

// readPass reads the input's lines in batches, has work process each
// batch on the workers and consume take them in input order. next, when
// set, gives each line's outcome (in the reading goroutine).
func (d *deduper) readPass(next func() (dedup.StreamOutcome, error), work func(*lineBatch), consume func(*lineBatch) error) error {
	rd := io.NewSectionReader(d.in, 0, d.in.Size())
	produce := func(send func(lineBatch) bool) error {
		var b lineBatch
		flush := func() error {
			if len(b.jobs) == 0 {
				return nil
			}
			if !send(b) {
				return errStopped
			}
			b = lineBatch{}
			return nil
		}
		err := jsonl.ScanOffsets(rd, d.name, d.limit, func(line int, off int64, n int, raw []byte, long bool) error {
			if b.arena == nil {
				b.arena = make([]byte, 0, d.batchBytes)
			}
			j := lineJob{line: line, off: off, n: n, long: long}
			if len(b.arena)+len(raw) > cap(b.arena) && len(b.jobs) > 0 {
				if err := flush(); err != nil {
					return err
				}
				b.arena = make([]byte, 0, max(d.batchBytes, len(raw)))
			}
			start := len(b.arena)
			b.arena = append(b.arena, raw...)
			j.b = b.arena[start:len(b.arena):len(b.arena)]
			if next != nil {
				o, err := next()
				if err != nil {
					return err
				}
				j.outcome = o
			}
			b.jobs = append(b.jobs, j)
			if len(b.arena) >= d.batchBytes {
				return flush()
			}
			return nil
		})
		if err != nil {
			return err
		}
		return flush()
	}
	return ordered(d.opts.Workers, produce, work, consume)
}

// needsStats reports whether the options weigh terms or features by
// the collection's statistics: a pass counts them before the one that
// signs.
func (d *deduper) needsStats() bool { return d.opts.Method.NeedsStats() || d.opts.IDF }

// sign is the first pass (the second with collection statistics): each
// record's fingerprint, candidate keys, signatures and sketch, added to
// the Streamer in input order.
func (d *deduper) sign() error {
	var signer *dedup.Signer
	var idf *dedup.IDF
	if d.needsStats() {
		terms, feats, err := d.stats()
		if err != nil {
			return err
		}
		if terms != nil {
			signer = dedup.NewSigner(d.opts.Method, d.norm, dedup.TermStatsFromDocFreq(terms))
		}
		if feats != nil {
			idf = dedup.IDFFromDocFreq(feats)
		}
	} else if d.opts.Method.Signed() {
		signer = dedup.NewSigner(d.opts.Method, d.norm, nil)
	}
	work := func(b *lineBatch) {
		for i := range b.jobs {
			j := &b.jobs[i]
			rec, dr, bad := readLine(j.b, j.long, d.limit, d.name, j.line)
			j.bad = bad
			j.doc = dedup.StreamDoc{Offset: j.off, Length: j.n}
			if !bad && !rec.slow {
				j.doc.Mark = markObject
			}
			var hashes []uint64
			if idf != nil {
				hashes = d.norm.ShingleHashes(dr.Text)
				j.doc.Fingerprint, j.doc.HasFingerprint = dedup.SimHash(idf.Apply(d.simNorm.Features(dr.Text)))
			} else {
				hashes, j.doc.Fingerprint, j.doc.HasFingerprint = d.norm.HashesAndFingerprint(dr.Text, d.simNorm)
			}
			if signer != nil {
				j.doc.Signatures = signer.Sign(dr.Text)
			}
			d.st.Sign(&j.doc, hashes)
		}
	}
	consume := func(b *lineBatch) error {
		for i := range b.jobs {
			j := &b.jobs[i]
			if j.bad {
				d.sum.Errors++
			}
			if err := d.st.Add(j.doc); err != nil {
				return err
			}
		}
		return nil
	}
	return d.readPass(nil, work, consume)
}

// stats is the pass that counts the collection's statistics before the
// records are signed: in how many records each term occurs (the
// signature methods' TermStats) and each SimHash feature (IDF). The
// counts gather within dedupCountShare of MaxMemory (halved when both
// are counted) and spill to TempDir beyond it (dedup.DocFreqCounter);
// what is kept of them, the terms and features of two or more records,
// must fit together in dedupFreqShare (13 bytes each), or Dedup fails
// with an error wrapping ErrDedupMemory.
// Every line counts as a record, an error record as one with no terms,
// as the in-memory statistics over the same records (SignCollection,
// dedup.NewIDF) count them.
func (d *deduper) stats() (terms, feats *dedup.DocFreq, err error) {
	countTerms, countFeats := d.opts.Method.NeedsStats(), d.opts.IDF
	count := int64(dedupCountShare * float64(d.opts.MaxMemory))
	if countTerms && countFeats {
		count /= 2
	}
	var tc, fc *dedup.DocFreqCounter
	if countTerms {
		if tc, err = dedup.NewDocFreqCounter(count, d.opts.TempDir); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrDedupMemory, err)
		}
		defer tc.Close()
	}
	if countFeats {
		if fc, err = dedup.NewDocFreqCounter(count, d.opts.TempDir); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrDedupMemory, err)
		}
		defer fc.Close()
	}
	work := func(b *lineBatch) {
		for i := range b.jobs {
			j := &b.jobs[i]
			_, dr, _ := readLine(j.b, j.long, d.limit, d.name, j.line)
			if tc != nil {
				j.terms = dedup.TermKeys(d.norm.Tokens(dr.Text))
			}
			if fc != nil {
				fs := d.simNorm.Features(dr.Text)
				j.feats = make([]uint64, len(fs))
				for k, f := range fs {
					j.feats[k] = f.Hash
				}
			}
		}
	}
	consume := func(b *lineBatch) error {
		for i := range b.jobs {
			j := &b.jobs[i]
			if tc != nil {
				if err := tc.Add(j.terms); err != nil {
					return err
				}
			}
			if fc != nil {
				if err := fc.Add(j.feats); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := d.readPass(nil, work, consume); err != nil {
		return nil, nil, err
	}
	// The terms first: a vocabulary is smaller than its word pairs.
	left := int64(dedupFreqShare * float64(d.opts.MaxMemory))
	freeze := func(c *dedup.DocFreqCounter, what string) (*dedup.DocFreq, error) {
		if c == nil {
			return nil, nil
		}
		f, err := c.Freeze(left)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w; use --method minhash or simhash without --idf, or raise --max-memory", ErrDedupMemory, what, err)
		}
		left -= int64(f.Bytes())
		d.sum.StatsKeys += f.Len()
		d.sum.StatsRuns += c.Runs()
		return f, nil
	}
	if terms, err = freeze(tc, "--method "+d.opts.Method.String()+"'s term statistics"); err != nil {
		return nil, nil, err
	}
	if feats, err = freeze(fc, "--idf's feature statistics"); err != nil {
		return nil, nil, err
	}
	return terms, feats, nil
}

// fetch reads a record back for the Streamer; it is safe for concurrent
// use.
func (d *deduper) fetch(id int, off int64, n int) (dedup.Doc, string, error) {
	if n > d.limit {
		return dedup.Doc{}, "", nil // an error record
	}
	b := make([]byte, n)
	if _, err := d.in.ReadAt(b, off); err != nil && !(err == io.EOF && len(b) == n) {
		return dedup.Doc{}, "", fmt.Errorf("%s: reading record %d back: %w", d.name, id+1, err)
	}
	_, dr, bad := readLine(bytes.TrimSpace(b), false, d.limit, d.name, 0)
	if bad {
		return dedup.Doc{}, "", nil
	}
	return dr.doc(), dr.Text, nil
}

// summarise fills the summary from the result.
func (d *deduper) summarise(res *dedup.StreamResult) {
	s := &d.sum
	s.Records, s.Clusters, s.Duplicates, s.Largest = res.Docs, res.Clusters, res.Duplicates, res.LargestSize
	s.Candidates, s.Verified, s.Near, s.Estimated = res.Candidates, res.Verified, res.Near, res.Estimated
	switch {
	case d.opts.Method == dedup.MethodSimHash:
		s.Layout = fmt.Sprintf("simhash tables: %v", res.Layout)
	case d.opts.Method == dedup.MethodMinHash:
		s.Layout = fmt.Sprintf("minhash LSH: %v", res.Bands)
	default:
		s.Layout = fmt.Sprintf("%v signatures: a shared value makes a candidate", d.opts.Method)
	}
}

// queryIndex looks up each cluster's centre in the persistent index (a
// pass over the input): held[c] is the URL of the held document most
// similar to centre c (then the earliest added), when it has another
// URL: the cluster duplicates a page seen in an earlier run, which stays
// canonical (seed 000). The index signs the texts itself, with the
// method it was created with; write adds the records afterwards.
func (d *deduper) queryIndex(res *dedup.StreamResult) (map[int]string, error) {
	st, err := d.openIndex()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	held := map[int]string{}
	next := outcomes(res)
	work := func(b *lineBatch) {
		for i := range b.jobs {
			j := &b.jobs[i]
			if j.outcome.Centre == j.outcome.ID {
				if _, b.err = d.reread(j, true); b.err != nil {
					return
				}
			}
		}
	}
	consume := func(b *lineBatch) error {
		if b.err != nil {
			return b.err
		}
		for i := range b.jobs {
			j := &b.jobs[i]
			if j.outcome.Centre != j.outcome.ID {
				continue
			}
			best, bestSim := "", -1.0
			err := st.Query(dedup.Entry{URL: j.url, Text: j.text}, func(m dedup.Match) {
				if m.URL != j.url && m.Similarity > bestSim {
					best, bestSim = m.URL, m.Similarity
				}
			})
			if err != nil && !errors.Is(err, dedup.ErrNoSignature) {
				return err
			}
			if best != "" {
				held[j.outcome.ID] = best
				d.sum.Held++
			}
		}
		return nil
	}
	if err := d.readPass(next, work, consume); err != nil {
		return nil, err
	}
	d.sum.Index = fmt.Sprintf("%s (%v)", d.opts.Index, st.Options())
	return held, nil
}

// write is the last pass: every record with its cluster fields, in
// input order; with an index, every record is then added to it.
func (d *deduper) write(res *dedup.StreamResult, held map[int]string, w io.Writer) (*Clusters, error) {
	var st *dedup.Store
	if d.opts.Index != "" {
		var err error
		if st, err = d.openIndex(); err != nil {
			return nil, err
		}
		defer st.Close()
	}
	var cl *Clusters
	var snippets map[int]string
	if d.opts.KeepClusters {
		cl = &Clusters{Result: &dedup.Result{Layout: res.Layout, Bands: res.Bands, Candidates: res.Candidates, Verified: res.Verified,
			Clusters: res.Clusters, Duplicates: res.Duplicates, LargestSize: res.LargestSize}}
		snippets = map[int]string{}
		cl.Snippet = func(i int) string { return snippets[i] }
	}
	next := outcomes(res)
	work := func(b *lineBatch) {
		for i := range b.jobs {
			if b.err = d.format(&b.jobs[i], held, b, st != nil || cl != nil); b.err != nil {
				return
			}
		}
	}
	var batch []dedup.Entry
	addBatch := func(all bool) error {
		for len(batch) >= IndexAddBatch || all && len(batch) > 0 {
			n := min(len(batch), IndexAddBatch)
			if _, err := st.AddBatch(batch[:n]); err != nil {
				return err
			}
			batch = batch[n:]
		}
		return nil
	}
	consume := func(b *lineBatch) error {
		if b.err != nil {
			return b.err
		}
		if _, err := w.Write(b.out); err != nil {
			return err
		}
		for i := range b.jobs {
			j := &b.jobs[i]
			o := j.outcome
			if d.opts.Redirects != nil {
				if err := writeRedirect(d.opts.Redirects, j.url, j.canon); err != nil {
					return err
				}
			}
			if cl != nil {
				doc := j.meta
				doc.Fingerprint, doc.HasFingerprint = o.Fingerprint, o.HasFingerprint
				cl.Docs = append(cl.Docs, doc)
				cl.Canonical = append(cl.Canonical, j.canon)
				cl.Result.Centre = append(cl.Result.Centre, o.Centre)
				cl.Result.ClusterID = append(cl.Result.ClusterID, dedup.ClusterID(clusterURL(j), o.Centre))
				cl.Result.SimHash = append(cl.Result.SimHash, o.Fingerprint)
				cl.Result.HasSimHash = append(cl.Result.HasSimHash, o.HasFingerprint)
				if o.Centre == o.ID && o.Size > 1 {
					snippets[o.ID] = snippet(j.text)
				}
			}
			if st != nil {
				batch = append(batch, dedup.Entry{URL: j.url, Text: j.text})
				if err := addBatch(false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := d.readPass(next, work, consume); err != nil {
		return nil, err
	}
	if st != nil {
		if err := addBatch(true); err != nil {
			return nil, err
		}
	}
	return cl, nil
}

// outcomes reads the result's outcomes from the first, for readPass.
func outcomes(res *dedup.StreamResult) func() (dedup.StreamOutcome, error) {
	res.Rewind()
	return func() (dedup.StreamOutcome, error) {
		o, _, err := res.Next()
		return o, err
	}
}

// clusterURL is the URL of the canonical document of j's cluster.
func clusterURL(j *lineJob) string {
	if j.outcome.Centre == j.outcome.ID {
		return j.url
	}
	return j.outcome.CentreURL
}

// snippet is the start of a text, for the report.
func snippet(t string) string {
	if r := []rune(t); len(r) > 300 {
		t = string(r[:300]) + "…"
	}
	return t
}

// markObject marks a record that the first pass read as a valid JSON
// object with the fields' types right: the last pass reads it again
// without validating it, and decodes only the fields it needs.
const markObject = 1

// reread reads a line again in a later pass: its record, URL and, with
// text set, its text.
func (d *deduper) reread(j *lineJob, text bool) (rec *record, err error) {
	if j.outcome.Mark&markObject == 0 {
		rec, dr, _ := readLine(j.b, j.long, d.limit, d.name, j.line)
		j.url, j.text, j.meta = dr.URL, dr.Text, dr.doc()
		return rec, nil
	}
	defer func() {
		if recover() != nil {
			err = fmt.Errorf("%s: line %d: the input changed between the passes", d.name, j.line)
		}
	}()
	if rec, err = parseRecord(j.b, true); err != nil {
		return nil, fmt.Errorf("%s: line %d: the input changed between the passes: %w", d.name, j.line, err)
	}
	if text {
		dr, err := dedupFields(rec)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: the input changed between the passes: %w", d.name, j.line, err)
		}
		j.url, j.text, j.meta = dr.URL, dr.Text, dr.doc()
		return rec, nil
	}
	if v, ok := rec.get("url"); ok {
		if err := decodeString(v, &j.url); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// format writes one record with its cluster fields to the batch's
// output; keep keeps the URL and text for the index and the clusters.
func (d *deduper) format(j *lineJob, held map[int]string, b *lineBatch, keep bool) error {
	rec, err := d.reread(j, keep)
	if err != nil {
		return err
	}
	o := j.outcome
	canonical, dupOf := o.Centre == o.ID, o.CentreURL
	if h := held[o.Centre]; h != "" {
		canonical, dupOf = false, h
	}
	if !canonical {
		j.canon = dupOf
	}
	j.b = nil
	if d.opts.DropDuplicates && !canonical {
		return nil
	}
	if o.HasFingerprint {
		rec.set("simhash", jsonValue(dedup.FormatFingerprint(o.Fingerprint)))
	} else {
		rec.set("simhash", json.RawMessage("null"))
	}
	rec.set("cluster", jsonValue(dedup.ClusterID(clusterURL(j), d.place(o.Centre))))
	rec.set("canonical", json.RawMessage(strconv.FormatBool(canonical)))
	if canonical {
		rec.delete("duplicate_of")
	} else {
		rec.set("duplicate_of", jsonValue(dupOf))
	}
	if o.HasNear {
		near := append(append(append([]byte{'['}, jsonValue(o.Near)...), ','), strconv.FormatFloat(math.Round(o.NearSimilarity*1000)/1000, 'f', -1, 64)...)
		rec.set("near", append(near, ']'))
	} else {
		rec.delete("near")
	}
	b.out, err = rec.appendJSON(b.out)
	return err
}

// place is record id's place in the collection.
func (d *deduper) place(id int) int {
	if d.ids == nil {
		return id
	}
	return d.ids[id]
}

// lineLimit is the longest record line Dedup reads (longer ones are
// error records).
func (o DedupOptions) lineLimit() int {
	m := o.MaxMemory
	if m == 0 {
		m = DefaultDedupMemory
	}
	return int(min(int64(jsonl.MaxLine), m/dedupLineDivisor))
}
