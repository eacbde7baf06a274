package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/winnow-go/winnow/dedup"
)

// DedupOptions configure near-duplicate detection, the last stage of a
// run (winnow run --dedup) and the whole of winnow dedup. Its zero value
// is not ready: start from DefaultDedupOptions, the one place the
// defaults are written.
type DedupOptions struct {
	Method    dedup.Method
	K         int     // SimHash Hamming distance for candidates (0 to dedup.MaxK, 12)
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
	// MaxMemory bounds the memory Dedup uses, in bytes (see Dedup for
	// its shares); 0 means DefaultDedupMemory (1 GB).
	MaxMemory int64 `json:"-"`
	// Workers is the number of goroutines that read and sign records;
	// 0 means GOMAXPROCS. The output does not depend on it.
	Workers int `json:"-"`
	// TempDir holds the spooled input when it is not a regular file,
	// the per-record file and the spilled candidate keys; "" means
	// os.TempDir(). Dedup removes what it wrote there.
	TempDir string `json:"-"`
	// KeepClusters makes Dedup return the Clusters (winnow dedup
	// --redirects and --report): a URL, a fingerprint and a cluster id
	// per record, in memory.
	KeepClusters bool `json:"-"`
	// Redirects, when set, gets the redirect map (as
	// Clusters.WriteRedirects writes it) while the records are written,
	// without keeping anything per record.
	Redirects io.Writer `json:"-"`
}

// DefaultDedupOptions are the defaults of winnow dedup and run --dedup:
// MinHash candidates (128 positions of one permutation hashing, LSH
// bands chosen for the threshold) over 3-word shingles, verified by the Jaccard similarity of
// 3-word shingles at 0.8. MinHash is the default because it is the best
// method measured: on the generated collection (winnow eval dedup
// generated, seeds 1-4) it finds every pair at Jaccard >= 0.8 with no
// false one. SimHash (Method, K) stays for the fingerprint every record
// carries and for its own index; its defaults are the measured ones
// below.
func DefaultDedupOptions() DedupOptions {
	return DedupOptions{
		Method:    dedup.MethodMinHash,
		K:         dedup.DefaultK,
		Threshold: 0.8,
		Measure:   dedup.MeasureJaccard,
		NumPerm:   128,
		Normalize: dedup.Options{Shingles: []int{3}},
		// 3-word shingles, as the Jaccard similarity it stands for: their
		// hashes are independent, so the fingerprints' bits are balanced
		// and unrelated texts lie about 32 bits apart. Words and word
		// pairs share common words between unrelated texts: on a
		// generated collection of 100,000 texts (internal/tools/gendedup)
		// 315,000 pairs of them fell within 6 bits, every one a candidate
		// to verify, against none with 3-word shingles, which at k=11
		// find 99.5% of the pairs at Jaccard >= 0.9 (words and pairs at
		// k=6: 97.3%).
		SimShingles: []int{3},
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
	// Near counts the records whose near-duplicate went to another
	// cluster (the record's "near" field).
	Near int `json:"near,omitempty"`
	// Estimated counts the candidate pairs decided on their b-bit
	// MinHash sketch, clearly above or below the threshold, because
	// their features did not fit in memory (the others are verified
	// exactly).
	Estimated int `json:"estimated,omitempty"`
	// StatsKeys counts the terms and features of two or more records
	// that the collection statistics kept (--method tfidf, heavysent,
	// lexrand; --idf), and StatsRuns the sorted runs their counts
	// spilled to the temporary folder.
	StatsKeys int `json:"stats_keys,omitempty"`
	StatsRuns int `json:"stats_runs,omitempty"`
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
	if s.Near > 0 {
		out += fmt.Sprintf("\n%d records have a near-duplicate in another cluster (near)", s.Near)
	}
	if s.Estimated > 0 {
		out += fmt.Sprintf("\n%d pairs decided on their MinHash sketch (features over the memory budget)", s.Estimated)
	}
	if s.StatsKeys > 0 || s.StatsRuns > 0 {
		out += fmt.Sprintf("\ncollection statistics: %d terms or features in two or more records (%d runs spilled)", s.StatsKeys, s.StatsRuns)
	}
	if s.Errors > 0 {
		out += fmt.Sprintf("\n%d lines were not JSON records (error records)", s.Errors)
	}
	return out
}

// Clusters is the outcome of Dedup for the callers that report on it
// (winnow dedup's redirects and HTML report), kept with
// DedupOptions.KeepClusters: per record, its document (the
// canonical-choice fields and the fingerprint; no features) and its
// canonical URL.
type Clusters struct {
	Docs []dedup.Doc
	// Result holds the counts, and per record Centre, ClusterID, SimHash
	// and HasSimHash.
	Result *dedup.Result
	// Canonical is the URL each record duplicates ("" for a canonical
	// record).
	Canonical []string
	// Snippet returns the start of record i's text, for the centres of
	// clusters of two or more records ("" for the others).
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

// IndexAddBatch is how many documents one synced batch of an index add
// holds.
const IndexAddBatch = 1000

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

// jsonValue encodes a string without HTML escaping.
func jsonValue(s string) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}
