package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/jsonl"
)

type dedupFlags struct {
	out, report, redirects string
	index                  string // a winnow index folder: check against it, then add
	method, measure        string
	threshold              float64
	k, numPerm             int
	shingles, simShingles  []int
	numbers, spaces        string
	charGram               int
	minWordLen             int
	dropDuplicates, idf    bool
	changed                func(flag string) bool // whether a flag was given
}

func newDedupCmd() *cobra.Command {
	var f dedupFlags
	cmd := &cobra.Command{
		Use:   "dedup IN.jsonl --out OUT.jsonl",
		Short: "Mark near-duplicate records: simhash, cluster, canonical, duplicate_of",
		Long: `Reads JSONL records with "url" and "text" (winnow run's records, or any
JSONL; optional "fetched_at", "score", "boilerplate_ratio" steer the
canonical choice) and writes them back, in input order, with "simhash",
"cluster", "canonical" and "duplicate_of". Duplicates are marked, never
dropped, unless --drop-duplicates. Other fields pass through unchanged.

Candidates come from SimHash (Hamming distance <= --k in permuted tables)
or MinHash (LSH bands chosen from --threshold); every candidate is verified
with --measure >= --threshold against its cluster's centre, so clusters do
not chain. The chosen table layout or banding is printed on stderr.`,
		Example: `  winnow dedup pages.jsonl --out marked.jsonl --report clusters.html
  winnow dedup pages.jsonl --out marked.jsonl --method minhash --threshold 0.8 --redirects redirects.tsv`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.changed = cmd.Flags().Changed
			return runDedup(args[0], f, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "output JSONL file, or - for standard output (required)")
	fl.StringVar(&f.method, "method", "simhash", "candidate search: simhash, minhash, or one of seed 000's signatures: md5, tfidf, longsent, heavysent, lexrand")
	fl.StringVar(&f.measure, "measure", "jaccard", "verification: jaccard, containment or cosine")
	fl.Float64Var(&f.threshold, "threshold", 0.8, "verified similarity that makes a duplicate")
	fl.IntVar(&f.k, "k", 3, "SimHash Hamming distance for candidates (0-8)")
	fl.IntVar(&f.numPerm, "num-perm", 128, "MinHash signature length")
	fl.IntSliceVar(&f.shingles, "shingles", []int{3}, "word shingle sizes for verification (e.g. 3,5)")
	fl.IntSliceVar(&f.simShingles, "simhash-shingles", defaultSimShingles, "word shingle sizes for the SimHash fingerprint")
	fl.StringVar(&f.numbers, "numbers", "keep", "numbers: keep, drop or mask")
	fl.StringVar(&f.spaces, "spaces", "keep", "keep: shingle words; remove: join the words and shingle characters (survives letter-spaced and glued text)")
	fl.IntVar(&f.charGram, "char-gram", 5, "character n-gram size with --spaces remove")
	fl.IntVar(&f.minWordLen, "min-word-len", 0, "drop words shorter than this")
	fl.BoolVar(&f.dropDuplicates, "drop-duplicates", false, "write only canonical records")
	fl.BoolVar(&f.idf, "idf", false, "weight SimHash features by TF*IDF over the input collection")
	fl.StringVar(&f.report, "report", "", "write an HTML report of the clusters to this file")
	fl.StringVar(&f.redirects, "redirects", "", "write a redirect map (duplicate URL <TAB> canonical URL) to this file")
	fl.StringVar(&f.index, "index", "", "a winnow index folder: clusters that duplicate a page it holds point at that page; then every record is added")
	return cmd
}

// dedupRecord is the part of an input record dedup reads.
type dedupRecord struct {
	URL              string   `json:"url"`
	Text             string   `json:"text"`
	FetchedAt        *string  `json:"fetched_at"`
	Score            *float64 `json:"score"`
	BoilerplateRatio *float64 `json:"boilerplate_ratio"`
}

func runDedup(in string, f dedupFlags, stderr io.Writer) error {
	if f.out == "" {
		return usagef("dedup: --out is required")
	}
	method, err := dedup.ParseMethod(f.method)
	if err != nil {
		return usagef("%v", err)
	}
	measure, err := dedup.ParseMeasure(f.measure)
	if err != nil {
		return usagef("%v", err)
	}
	opts := dedup.Options{Shingles: f.shingles, MinWordLen: f.minWordLen}
	switch f.spaces {
	case "", "keep":
	case "remove":
		opts.Spaces, opts.CharGram = dedup.RemoveSpaces, f.charGram
	default:
		return usagef("--spaces %q: want keep or remove", f.spaces)
	}
	switch f.numbers {
	case "keep":
	case "drop":
		opts.Numbers = dedup.DropNumbers
	case "mask":
		opts.Numbers = dedup.MaskNumbers
	default:
		return usagef("--numbers %q: want keep, drop or mask", f.numbers)
	}
	norm, err := dedup.NewNormalizer(opts)
	if err != nil {
		return usagef("%v", err)
	}
	opts.Shingles = f.simShingles
	simNorm, err := dedup.NewNormalizer(opts)
	if err != nil {
		return usagef("%v", err)
	}
	raws, docs, err := readDedupInput(in, norm, simNorm)
	if err != nil {
		return err
	}
	texts := make([]string, len(docs))
	for i := range docs {
		json.Unmarshal(raws[i]["text"], &texts[i])
	}
	if f.idf {
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
	if method.Signed() {
		// Seed 000's signatures need the collection's term statistics,
		// so they are computed once all texts are read.
		for i, sigs := range dedup.SignCollection(method, texts, norm) {
			docs[i].Signatures = sigs
		}
	}
	res, err := dedup.Cluster(docs, dedup.Config{Method: method, K: f.k, NumPerm: f.numPerm, Threshold: f.threshold, Measure: measure})
	if err != nil {
		return usagef("%v", err)
	}
	switch {
	case method == dedup.MethodSimHash:
		fmt.Fprintf(stderr, "simhash tables: %v\n", res.Layout)
	case method == dedup.MethodMinHash:
		fmt.Fprintf(stderr, "minhash LSH: %v\n", res.Bands)
	default:
		fmt.Fprintf(stderr, "%v signatures: a shared value makes a candidate\n", method)
	}
	fmt.Fprintf(stderr, "%d records, %d clusters, %d duplicates (largest cluster %d); %d candidates verified, %d passed\n",
		len(docs), res.Clusters, res.Duplicates, res.LargestSize, res.Candidates, res.Verified)
	var held []string
	if f.index != "" {
		want, err := storeWant(f.changed, f.method, f.k, f.threshold)
		if err != nil {
			return usagef("%v", err)
		}
		if held, err = checkIndex(f.index, want, texts, docs, res, stderr); err != nil {
			return err
		}
	}
	if err := writeDedupOutput(f.out, raws, docs, res, held, f.dropDuplicates); err != nil {
		return err
	}
	if f.redirects != "" {
		if err := writeRedirects(f.redirects, docs, res, held); err != nil {
			return err
		}
	}
	if f.report != "" {
		snippet := func(i int) string {
			t := texts[i]
			if r := []rune(t); len(r) > 300 {
				t = string(r[:300]) + "…"
			}
			return t
		}
		if err := writeDedupReport(f.report, docs, snippet, res, method, measure, f.threshold); err != nil {
			return err
		}
	}
	return nil
}

// defaultSimShingles: single words and word pairs. Candidates are verified
// on 3-word shingles, so SimHash is tuned for recall: on the generated
// collection words and pairs find every pair of Jaccard >= 0.9 at k=6,
// where 3-word shingles alone find four in five (winnow eval dedup generated).
var defaultSimShingles = []int{1, 2}

func readDedupInput(path string, norm, simNorm *dedup.Normalizer) ([]map[string]json.RawMessage, []dedup.Doc, error) {
	var raws []map[string]json.RawMessage
	var docs []dedup.Doc
	err := scanJSONLines(path, func(line int, b []byte) error {
		var raw map[string]json.RawMessage
		var rec dedupRecord
		if err := json.Unmarshal(b, &raw); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		d := dedup.Doc{URL: rec.URL, TextLen: len(rec.Text), Features: norm.Features(rec.Text)}
		d.Fingerprint, d.HasFingerprint = simNorm.Fingerprint(rec.Text)
		if rec.FetchedAt != nil {
			if t, err := time.Parse(time.RFC3339, *rec.FetchedAt); err == nil {
				d.FetchedAt = t
			}
		}
		if rec.Score != nil {
			d.Score = *rec.Score
		}
		if rec.BoilerplateRatio != nil {
			d.BoilerplateRatio = *rec.BoilerplateRatio
		}
		raw[rawLineKey] = json.RawMessage(bytes.Clone(b))
		raws = append(raws, raw)
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return raws, docs, nil
}

// scanJSONLines calls fn with the number and the bytes of every non-empty
// line of a JSONL file ("-" is standard input). b is valid only during
// the call.
func scanJSONLines(path string, fn func(line int, b []byte) error) error {
	var r io.Reader = os.Stdin
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return err
		}
		defer fh.Close()
		r = fh
	}
	return jsonl.Scan(r, path, fn)
}

// storeWant is the index settings asked for on the command line: nil
// (an existing index keeps its own, a new one takes the defaults) unless
// --method or --k was given. --threshold sets a new MinHash index's.
func storeWant(changed func(string) bool, method string, k int, threshold float64) (*dedup.StoreOptions, error) {
	if changed == nil || !changed("method") && !changed("k") {
		return nil, nil
	}
	m, err := dedup.ParseMethod(method)
	if err != nil {
		return nil, err
	}
	w := &dedup.StoreOptions{Method: m}
	switch m {
	case dedup.MethodSimHash:
		w.K = k
	case dedup.MethodMinHash:
		w.Threshold = threshold
	}
	return w, nil
}

// checkIndex looks up each cluster's centre in the persistent index at dir
// and then adds every document to it. held[c] is the URL of the held
// document most similar to centre c (then the earliest added), when it has
// another URL: the cluster duplicates a page seen in an earlier run, which
// stays canonical (seed 000). The index signs the texts itself, with the
// method it was created with.
func checkIndex(dir string, want *dedup.StoreOptions, texts []string, docs []dedup.Doc, res *dedup.Result, stderr io.Writer) ([]string, error) {
	st, err := dedup.OpenStore(dir, want)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	held := make([]string, len(docs))
	found := 0
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
			return nil, err
		}
		if best != "" {
			held[i] = best
			found++
		}
	}
	batch := make([]dedup.Entry, len(docs))
	for i, d := range docs {
		batch[i] = dedup.Entry{URL: d.URL, Text: texts[i]}
	}
	for len(batch) > 0 {
		n := min(len(batch), indexAddBatch)
		if _, err := st.AddBatch(batch[:n]); err != nil {
			return nil, err
		}
		batch = batch[n:]
	}
	fmt.Fprintf(stderr, "index %s (%v): %d clusters duplicate a page held before; records added\n", dir, st.Options(), found)
	return held, nil
}

// writeDedupOutput writes the records with their dedup fields. held (nil
// without an index) names, per cluster centre, a page of an earlier run
// that the whole cluster duplicates.
func writeDedupOutput(path string, raws []map[string]json.RawMessage, docs []dedup.Doc, res *dedup.Result, held []string, drop bool) error {
	w, closeFn, err := createOut(path, os.Stdout)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, raw := range raws {
		canonical := res.Centre[i] == i
		dupOf := docs[res.Centre[i]].URL
		if held != nil && held[res.Centre[i]] != "" {
			canonical, dupOf = false, held[res.Centre[i]]
		}
		if drop && !canonical {
			continue
		}
		line := raw[rawLineKey]
		delete(raw, rawLineKey)
		if !hasAny(raw, "simhash", "cluster", "canonical", "duplicate_of") && bytes.HasSuffix(line, []byte("}")) {
			// Keep the record as it was, fields in their order, and add
			// the dedup fields at the end.
			var buf bytes.Buffer
			buf.Write(line[:len(line)-1])
			if res.HasSimHash[i] {
				fmt.Fprintf(&buf, `,"simhash":%q`, dedup.FormatFingerprint(res.SimHash[i]))
			} else {
				buf.WriteString(`,"simhash":null`)
			}
			fmt.Fprintf(&buf, `,"cluster":%q,"canonical":%t`, res.ClusterID[i], canonical)
			if !canonical {
				buf.WriteString(`,"duplicate_of":`)
				buf.Write(jsonString(dupOf))
			}
			buf.WriteString("}\n")
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			continue
		}
		if res.HasSimHash[i] {
			raw["simhash"] = jsonString(dedup.FormatFingerprint(res.SimHash[i]))
		} else {
			raw["simhash"] = json.RawMessage("null")
		}
		raw["cluster"] = jsonString(res.ClusterID[i])
		raw["canonical"] = json.RawMessage(strconv.FormatBool(canonical))
		if canonical {
			delete(raw, "duplicate_of")
		} else {
			raw["duplicate_of"] = jsonString(dupOf)
		}
		if err := enc.Encode(raw); err != nil {
			return err
		}
	}
	return closeFn()
}

// rawLineKey keeps a record's original line in its field map while the
// input is read (a key no JSON object can have: it is not valid UTF-8).
const rawLineKey = "\xff"

func hasAny(m map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func jsonString(s string) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}

// createOut opens a file for writing ("-" or "" is stdout) behind a
// buffer; the returned function flushes and closes it.
func createOut(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "-" || path == "" {
		bw := bufio.NewWriter(stdout)
		return bw, bw.Flush, nil
	}
	fh, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriter(fh)
	return bw, func() error {
		if err := bw.Flush(); err != nil {
			fh.Close()
			return err
		}
		return fh.Close()
	}, nil
}

func writeRedirects(path string, docs []dedup.Doc, res *dedup.Result, held []string) error {
	w, closeFn, err := createOut(path, os.Stdout)
	if err != nil {
		return err
	}
	for i, d := range docs {
		c := res.Centre[i]
		to := docs[c].URL
		if held != nil && held[c] != "" {
			to = held[c]
		} else if c == i {
			continue
		}
		if d.URL != to {
			fmt.Fprintf(w, "%s\t%s\n", strings.ReplaceAll(d.URL, "\t", " "), strings.ReplaceAll(to, "\t", " "))
		}
	}
	return closeFn()
}
