package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/jsonl"
)

// DedupOptions configure near-duplicate detection, the last stage of a
// run (winnow run --dedup) and the whole of winnow dedup. Its zero value
// is not ready: start from DefaultDedupOptions, the one place the
// defaults are written.
type DedupOptions struct {
	Method    dedup.Method
	K         int     // SimHash Hamming distance for candidates (0-8)
	Threshold float64 // verified similarity that makes a duplicate
	Measure   dedup.Measure
	NumPerm   int // MinHash signature length
	// Normalize configures the tokens and shingles that candidates are
	// verified on; SimShingles are the shingle sizes of the SimHash
	// fingerprint (the rest as Normalize).
	Normalize   dedup.Options
	SimShingles []int
	// IDF weighs SimHash features by TF*IDF over the input collection.
	IDF bool
	// Index, when set, is a winnow index folder (it must exist: winnow
	// index add creates one): each cluster that duplicates a page it
	// holds (another URL) points at that page, which stays canonical;
	// then every record is added. IndexWant are the
	// settings asked for (nil: an existing index keeps its own, a new one
	// takes the defaults).
	Index     string
	IndexWant *dedup.StoreOptions
	// DropDuplicates writes only canonical records.
	DropDuplicates bool
}

// DefaultDedupOptions are the defaults of winnow dedup and run --dedup:
// MinHash candidates (128 permutations, LSH bands chosen for the
// threshold) over 3-word shingles, verified by the Jaccard similarity of
// 3-word shingles at 0.8. MinHash is the default because it is the best
// method measured: on the generated collection (winnow eval dedup
// generated, seeds 1-4) it finds every pair at Jaccard >= 0.8 with no
// false one, where SimHash at k=3 finds about half. SimHash (Method,
// K) stays for the fingerprint every record carries and for its own
// index.
func DefaultDedupOptions() DedupOptions {
	return DedupOptions{
		Method:    dedup.MethodMinHash,
		K:         3,
		Threshold: 0.8,
		Measure:   dedup.MeasureJaccard,
		NumPerm:   128,
		Normalize: dedup.Options{Shingles: []int{3}},
		// Single words and word pairs. With --method simhash candidates
		// are verified on 3-word shingles, so SimHash is tuned for
		// recall: on the generated collection words and pairs find every
		// pair of Jaccard >= 0.9 at k=6, where 3-word shingles alone find
		// four in five (winnow eval dedup generated).
		SimShingles: []int{1, 2},
	}
}

// normalizers builds the verification and the SimHash normalisers.
func (o DedupOptions) normalizers() (norm, simNorm *dedup.Normalizer, err error) {
	if norm, err = dedup.NewNormalizer(o.Normalize); err != nil {
		return nil, nil, err
	}
	so := o.Normalize
	so.Shingles = o.SimShingles
	if simNorm, err = dedup.NewNormalizer(so); err != nil {
		return nil, nil, err
	}
	return norm, simNorm, nil
}

// Validate reports every broken setting in one error (wrapping
// dedup.ErrConfig), so that a command can refuse it before any work.
func (o DedupOptions) Validate() error {
	var errs []error
	if _, _, err := o.normalizers(); err != nil {
		errs = append(errs, err)
	}
	if err := o.config().Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (o DedupOptions) config() dedup.Config {
	return dedup.Config{Method: o.Method, K: o.K, NumPerm: o.NumPerm, Threshold: o.Threshold, Measure: o.Measure}
}

// DedupSummary is what near-duplicate detection found.
type DedupSummary struct {
	Records    int `json:"records"`
	Clusters   int `json:"clusters"`
	Duplicates int `json:"duplicates"`
	Largest    int `json:"largest_cluster"`
	Candidates int `json:"candidates"`
	Verified   int `json:"verified"`
	// Index names the index checked and its settings (DedupOptions.Index),
	// and Held counts the clusters that duplicate a page it held before.
	Index string `json:"index,omitempty"`
	Held  int    `json:"held,omitempty"`
	// Errors counts the input lines that were not JSON records; each
	// becomes an error record.
	Errors int `json:"errors,omitempty"`
	// Layout describes the candidate search: the SimHash tables, the
	// MinHash banding or the signature.
	Layout string `json:"layout"`
}

// Describe formats the summary for a person.
func (s DedupSummary) Describe() string {
	out := fmt.Sprintf("%s\n%d records, %d clusters, %d duplicates (largest cluster %d); %d candidates verified, %d passed",
		s.Layout, s.Records, s.Clusters, s.Duplicates, s.Largest, s.Candidates, s.Verified)
	if s.Index != "" {
		out += fmt.Sprintf("\nindex %s: %d clusters duplicate a page held before; records added", s.Index, s.Held)
	}
	if s.Errors > 0 {
		out += fmt.Sprintf("\n%d lines were not JSON records (error records)", s.Errors)
	}
	return out
}

// Clusters is the outcome of Dedup for the callers that report on it
// (winnow dedup's redirects and HTML report): per record, its document
// and its canonical URL.
type Clusters struct {
	Docs   []dedup.Doc
	Result *dedup.Result
	// Canonical is the URL each record duplicates ("" for a canonical
	// record).
	Canonical []string
	// Snippet returns the start of record i's text.
	Snippet func(i int) string
}

// dedupDoc is the part of a record near-duplicate detection reads.
type dedupDoc struct {
	URL              string
	Text             string
	FetchedAt        *string
	Score            *float64
	BoilerplateRatio *float64
}

// Dedup reads JSONL records with "url" and "text" (optional "fetched_at",
// "score", "boilerplate_ratio" steer the canonical choice), clusters
// them and writes them to w in input order with "simhash", "cluster",
// "canonical" and "duplicate_of" set; other fields pass through in their
// order. A line that is not a JSON object becomes an error record
// (counted in Errors). name names the input in those records.
func Dedup(r io.Reader, name string, w io.Writer, opts DedupOptions) (DedupSummary, *Clusters, error) {
	norm, simNorm, err := opts.normalizers()
	if err != nil {
		return DedupSummary{}, nil, err
	}
	var recs []*object
	var docs []dedup.Doc
	var texts []string
	var sum DedupSummary
	err = jsonl.ScanLimit(r, name, jsonl.MaxLine, func(line int, b []byte, long bool) error {
		var rec *object
		var d dedup.Doc
		var text string
		err := fmt.Errorf("line longer than %d bytes", jsonl.MaxLine)
		if !long {
			rec, d, text, err = readDedupRecord(b, norm, simNorm)
		}
		if err != nil {
			sum.Errors++
			rec = newObject()
			rec.set("source", jsonValue(fmt.Sprintf("%s:%d", name, line)))
			rec.set("fetched_at", json.RawMessage("null"))
			rec.set("status", jsonValue(StatusError))
			rec.set("error", jsonValue("not a JSON record: "+err.Error()))
			rec.set("text", jsonValue(""))
		}
		recs, docs, texts = append(recs, rec), append(docs, d), append(texts, text)
		return nil
	})
	if err != nil {
		return sum, nil, err
	}
	if opts.IDF {
		// Shingles that most of the collection shares (a site's footer)
		// weigh little in the fingerprints.
		feats := make([][]dedup.Feature, len(docs))
		for i := range docs {
			feats[i] = simNorm.Features(texts[i])
		}
		idf := dedup.NewIDF(feats)
		for i := range docs {
			docs[i].Fingerprint, docs[i].HasFingerprint = dedup.SimHash(idf.Apply(feats[i]))
		}
	}
	if opts.Method.Signed() {
		// Seed 000's signatures need the collection's term statistics,
		// so they are computed once all texts are read.
		for i, sigs := range dedup.SignCollection(opts.Method, texts, norm) {
			docs[i].Signatures = sigs
		}
	}
	res, err := dedup.Cluster(docs, opts.config())
	if err != nil {
		return sum, nil, err
	}
	sum.Records, sum.Clusters, sum.Duplicates, sum.Largest = len(docs), res.Clusters, res.Duplicates, res.LargestSize
	sum.Candidates, sum.Verified = res.Candidates, res.Verified
	switch {
	case opts.Method == dedup.MethodSimHash:
		sum.Layout = fmt.Sprintf("simhash tables: %v", res.Layout)
	case opts.Method == dedup.MethodMinHash:
		sum.Layout = fmt.Sprintf("minhash LSH: %v", res.Bands)
	default:
		sum.Layout = fmt.Sprintf("%v signatures: a shared value makes a candidate", opts.Method)
	}
	var held []string
	if opts.Index != "" {
		if held, sum.Index, err = checkIndex(opts, texts, docs, res); err != nil {
			return sum, nil, err
		}
		for _, h := range held {
			if h != "" {
				sum.Held++
			}
		}
	}
	cl := &Clusters{Docs: docs, Result: res, Canonical: make([]string, len(docs)), Snippet: func(i int) string {
		t := texts[i]
		if r := []rune(t); len(r) > 300 {
			t = string(r[:300]) + "…"
		}
		return t
	}}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, rec := range recs {
		c := res.Centre[i]
		canonical, dupOf := c == i, docs[c].URL
		if held != nil && held[c] != "" {
			canonical, dupOf = false, held[c]
		}
		if !canonical {
			cl.Canonical[i] = dupOf
		}
		if opts.DropDuplicates && !canonical {
			continue
		}
		if res.HasSimHash[i] {
			rec.set("simhash", jsonValue(dedup.FormatFingerprint(res.SimHash[i])))
		} else {
			rec.set("simhash", json.RawMessage("null"))
		}
		rec.set("cluster", jsonValue(res.ClusterID[i]))
		rec.set("canonical", json.RawMessage(strconv.FormatBool(canonical)))
		if canonical {
			rec.delete("duplicate_of")
		} else {
			rec.set("duplicate_of", jsonValue(dupOf))
		}
		if err := enc.Encode(rec); err != nil {
			return sum, nil, err
		}
		recs[i] = nil
	}
	return sum, cl, nil
}

// readDedupRecord reads one record and its document.
func readDedupRecord(b []byte, norm, simNorm *dedup.Normalizer) (*object, dedup.Doc, string, error) {
	rec := newObject()
	if err := json.Unmarshal(b, rec); err != nil {
		return nil, dedup.Doc{}, "", err
	}
	// The fields are read from the object's values: the line, text and
	// all, is parsed once.
	var dr dedupDoc
	for _, f := range []struct {
		key string
		dst any
	}{{"url", &dr.URL}, {"text", &dr.Text}, {"fetched_at", &dr.FetchedAt}, {"score", &dr.Score}, {"boilerplate_ratio", &dr.BoilerplateRatio}} {
		if v, ok := rec.vals[f.key]; ok {
			if err := json.Unmarshal(v, f.dst); err != nil {
				return nil, dedup.Doc{}, "", fmt.Errorf("%q: %w", f.key, err)
			}
		}
	}
	d := dedup.Doc{URL: dr.URL, TextLen: len(dr.Text), Features: norm.Features(dr.Text)}
	d.Fingerprint, d.HasFingerprint = simNorm.Fingerprint(dr.Text)
	if dr.FetchedAt != nil {
		if t, err := time.Parse(time.RFC3339, *dr.FetchedAt); err == nil {
			d.FetchedAt = t
		}
	}
	if dr.Score != nil {
		d.Score = *dr.Score
	}
	if dr.BoilerplateRatio != nil {
		d.BoilerplateRatio = *dr.BoilerplateRatio
	}
	return rec, d, dr.Text, nil
}

// IndexAddBatch is how many documents one synced batch of an index add
// holds.
const IndexAddBatch = 1000

// checkIndex looks up each cluster's centre in the persistent index and
// then adds every document to it. held[c] is the URL of the held
// document most similar to centre c (then the earliest added), when it
// has another URL: the cluster duplicates a page seen in an earlier run,
// which stays canonical (seed 000). The index signs the texts itself,
// with the method it was created with.
func checkIndex(opts DedupOptions, texts []string, docs []dedup.Doc, res *dedup.Result) ([]string, string, error) {
	st, err := dedup.OpenExistingStore(opts.Index, opts.IndexWant)
	if err != nil {
		return nil, "", err
	}
	defer st.Close()
	held := make([]string, len(docs))
	for i := range docs {
		if res.Centre[i] != i {
			continue
		}
		best, bestSim := "", -1.0
		err := st.Query(dedup.Entry{URL: docs[i].URL, Text: texts[i]}, func(m dedup.Match) {
			if m.URL != docs[i].URL && m.Similarity > bestSim {
				best, bestSim = m.URL, m.Similarity
			}
		})
		if err != nil && !errors.Is(err, dedup.ErrNoSignature) {
			return nil, "", err
		}
		held[i] = best
	}
	batch := make([]dedup.Entry, len(docs))
	for i, d := range docs {
		batch[i] = dedup.Entry{URL: d.URL, Text: texts[i]}
	}
	for len(batch) > 0 {
		n := min(len(batch), IndexAddBatch)
		if _, err := st.AddBatch(batch[:n]); err != nil {
			return nil, "", err
		}
		batch = batch[n:]
	}
	return held, fmt.Sprintf("%s (%v)", opts.Index, st.Options()), nil
}

// object is a JSON object that keeps its fields in their order: records
// pass through near-duplicate detection with only its fields changed.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

func (o *object) set(k string, v json.RawMessage) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) delete(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// UnmarshalJSON reads an object, its fields in order; a repeated key
// keeps its first place and its last value, as encoding/json does.
func (o *object) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		o.set(t.(string), v)
	}
	_, err := dec.Token()
	return err
}

// MarshalJSON writes the fields in their order, values as they came.
func (o *object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(jsonValue(k))
		buf.WriteByte(':')
		buf.Write(o.vals[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// jsonValue encodes a string without HTML escaping.
func jsonValue(s string) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}
