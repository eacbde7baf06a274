package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/pipeline"
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
	maxMemory, tmp         string
	workers                int
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

Candidates come from MinHash (LSH bands chosen from --threshold, the
default: the best method measured) or SimHash (Hamming distance <= --k in
permuted tables); every candidate is verified with --measure >= --threshold
against its cluster's centre, so clusters do not chain. The chosen banding
or table layout is printed on stderr.`,
		Example: `  winnow dedup pages.jsonl --out marked.jsonl --report clusters.html
  winnow dedup pages.jsonl --out marked.jsonl --threshold 0.9 --redirects redirects.tsv
  winnow dedup pages.jsonl --out marked.jsonl --method simhash --k 6`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.changed = cmd.Flags().Changed
			return runDedup(args[0], f, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "output JSONL file, or - for standard output (required)")
	fl.IntVar(&f.workers, "workers", 0, "goroutines that read and sign records (default: GOMAXPROCS); the output does not depend on it")
	addDedupFlags(fl, &f, true)
	return cmd
}

// options turns the flags into the library's options, checking every
// value; an error is a usage error.
func (f dedupFlags) options() (pipeline.DedupOptions, error) {
	o := pipeline.DefaultDedupOptions()
	var err error
	if o.Method, err = dedup.ParseMethod(f.method); err != nil {
		return o, err
	}
	if f.changed != nil && f.changed("k") && o.Method != dedup.MethodSimHash {
		return o, fmt.Errorf("--k is a setting of --method simhash (the method is %v)", o.Method)
	}
	if o.Measure, err = dedup.ParseMeasure(f.measure); err != nil {
		return o, err
	}
	if f.numPerm < 1 {
		return o, fmt.Errorf("--num-perm %d: want 1 or more", f.numPerm)
	}
	o.K, o.Threshold, o.NumPerm, o.IDF = f.k, f.threshold, f.numPerm, f.idf
	o.Normalize = dedup.Options{Shingles: f.shingles, MinWordLen: f.minWordLen}
	o.SimShingles = f.simShingles
	switch f.spaces {
	case "keep":
	case "remove":
		o.Normalize.Spaces, o.Normalize.CharGram = dedup.RemoveSpaces, f.charGram
	default:
		return o, fmt.Errorf("--spaces %q: want keep or remove", f.spaces)
	}
	switch f.numbers {
	case "keep":
	case "drop":
		o.Normalize.Numbers = dedup.DropNumbers
	case "mask":
		o.Normalize.Numbers = dedup.MaskNumbers
	default:
		return o, fmt.Errorf("--numbers %q: want keep, drop or mask", f.numbers)
	}
	o.Index, o.DropDuplicates = f.index, f.dropDuplicates
	if o.MaxMemory, err = parseMemory(f.maxMemory); err != nil {
		return o, fmt.Errorf("--max-memory: %v", err)
	}
	if f.workers < 0 {
		return o, fmt.Errorf("--workers %d: want 0 (one per core) or more", f.workers)
	}
	o.Workers, o.TempDir = f.workers, f.tmp
	if f.index != "" {
		// --threshold is the clusters' here: alone it asks nothing of
		// the index (with --method minhash it is the new index's too).
		changed := func(name string) bool { return name != "threshold" && f.changed != nil && f.changed(name) }
		if o.IndexWant, err = storeWant(changed, f.method, f.k, f.threshold); err != nil {
			return o, err
		}
	}
	return o, o.Validate()
}

// addDedupFlags adds the near-duplicate flags, with the library's
// defaults, to dedup (all of them) or run --dedup (the main ones).
func addDedupFlags(fl *pflag.FlagSet, f *dedupFlags, all bool) {
	d := pipeline.DefaultDedupOptions()
	fl.StringVar(&f.method, "method", d.Method.String(), "candidate search: simhash, minhash, or one of the signatures of Ilyinsky et al.: md5, tfidf, longsent, heavysent, lexrand")
	fl.Float64Var(&f.threshold, "threshold", d.Threshold, "verified similarity that makes a duplicate")
	fl.IntVar(&f.k, "k", d.K, "SimHash Hamming distance for candidates (0-12)")
	fl.StringVar(&f.index, "index", "", "a winnow index folder: clusters that duplicate a page it holds point at that page; then every record is added")
	f.measure, f.numPerm, f.shingles, f.simShingles = d.Measure.String(), d.NumPerm, d.Normalize.Shingles, d.SimShingles
	f.numbers, f.spaces, f.charGram = "keep", "keep", 5
	fl.StringVar(&f.maxMemory, "max-memory", "1GB", "memory bound of near-duplicate detection (e.g. 512MB, 2GB): peak RSS stays within it, or the command says which limit it cannot meet")
	fl.StringVar(&f.tmp, "tmp", "", "folder for near-duplicate detection's temporary files (default: the system's, "+os.TempDir()+")")
	if !all {
		return
	}
	fl.StringVar(&f.measure, "measure", d.Measure.String(), "verification: jaccard, containment or cosine")
	fl.IntVar(&f.numPerm, "num-perm", d.NumPerm, "MinHash signature length")
	fl.IntSliceVar(&f.shingles, "shingles", d.Normalize.Shingles, "word shingle sizes for verification (e.g. 3,5)")
	fl.IntSliceVar(&f.simShingles, "simhash-shingles", d.SimShingles, "word shingle sizes for the SimHash fingerprint")
	fl.StringVar(&f.numbers, "numbers", "keep", "numbers: keep, drop or mask")
	fl.StringVar(&f.spaces, "spaces", "keep", "keep: shingle words; remove: join the words and shingle characters (survives letter-spaced and glued text)")
	fl.IntVar(&f.charGram, "char-gram", 5, "character n-gram size with --spaces remove")
	fl.IntVar(&f.minWordLen, "min-word-len", 0, "drop words shorter than this")
	fl.BoolVar(&f.dropDuplicates, "drop-duplicates", false, "write only canonical records")
	fl.BoolVar(&f.idf, "idf", false, "weight SimHash features by TF*IDF over the input collection")
	fl.StringVar(&f.report, "report", "", "write an HTML report of the clusters to this file")
	fl.StringVar(&f.redirects, "redirects", "", "write a redirect map (duplicate URL <TAB> canonical URL) to this file")
}

func runDedup(in string, f dedupFlags, stderr io.Writer) error {
	if f.out == "" {
		return usagef("dedup: --out is required")
	}
	opts, err := f.options()
	if err != nil {
		return usagef("%v", err)
	}
	if opts.MaxMemory, err = memoryLimit(opts.MaxMemory); err != nil {
		return err
	}
	// The redirect map is written as the records are, unless both go to
	// standard output: then after the records, from the clusters.
	after := f.redirects == "-" && f.out == "-"
	opts.KeepClusters = f.report != "" || after
	var sum pipeline.DedupSummary
	var cl *pipeline.Clusters
	dedupTo := func(r io.Reader) error {
		return withOutput(f.out, os.Stdout, func(w io.Writer) (err error) {
			sum, cl, err = pipeline.Dedup(r, in, w, opts)
			return err
		})
	}
	err = withInput(in, func(r io.Reader) error {
		if f.redirects == "" || after {
			return dedupTo(r)
		}
		return withOutput(f.redirects, os.Stdout, func(w io.Writer) error {
			opts.Redirects = w
			return dedupTo(r)
		})
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, sum.Describe())
	if after {
		if err := withOutput(f.redirects, os.Stdout, cl.WriteRedirects); err != nil {
			return err
		}
	}
	if f.report != "" {
		return withOutput(f.report, os.Stdout, func(w io.Writer) error { return pipeline.WriteDedupReport(w, cl, opts) })
	}
	return nil
}

// memoryLimit turns --max-memory, a bound on the process's peak RSS,
// into the bound of what near-duplicate detection may allocate: what the
// process holds already (the binary's pages, its packages' tables, about
// 30 MB) and a margin for the runtime's own structures come off. It sets
// the collector's soft limit to that, unless GOMEMLIMIT is set, so that
// the collector works harder near the bound instead of letting the heap
// double. A bound that leaves less than 8 MB is an error.
func memoryLimit(max int64) (int64, error) {
	if max == 0 {
		max = pipeline.DefaultDedupMemory
	}
	held := residentBytes()
	margin := min(max/16, 32<<20)
	left := max - held - margin
	if left < 8<<20 {
		return 0, fmt.Errorf("--max-memory %d MB: the process already holds %d MB; near-duplicate detection needs at least 8 MB more", max>>20, held>>20)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(left)
	}
	return left, nil
}

// residentBytes is the process's resident memory (Linux /proc; 0 where
// it cannot be read).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// parseMemory is parseBytes for --max-memory: at least 32MB.
func parseMemory(s string) (int64, error) {
	n, err := parseBytes(s)
	if err == nil && n != 0 && n < 32<<20 {
		return 0, fmt.Errorf("%q: near-duplicate detection needs at least 32MB", s)
	}
	return n, err
}

// parseBytes reads a size: a number of bytes with an optional unit, KB,
// MB, GB or TB (powers of 1024; KiB, MiB, ... and k, M, G are read the
// same). "" and "0" mean the default.
func parseBytes(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	for i, u := range []string{"K", "M", "G", "T"} {
		if strings.HasSuffix(t, u) {
			mult, t = int64(1)<<(10*(i+1)), strings.TrimSuffix(t, u)
			break
		}
	}
	if t == "" && s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 || v*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%q: want a size such as 512MB or 2GB", s)
	}
	return int64(v * float64(mult)), nil
}

// storeWant is the index settings asked for on the command line: nil
// (an existing index keeps its own, a new one takes the defaults) unless
// --method, --k or --threshold was given. --threshold sets a new MinHash
// index's banding threshold, and a SimHash index's verification.
func storeWant(changed func(string) bool, method string, k int, threshold float64) (*dedup.StoreOptions, error) {
	if changed == nil || !changed("method") && !changed("k") && !changed("threshold") {
		return nil, nil
	}
	m, err := dedup.ParseMethod(method)
	if err != nil {
		return nil, err
	}
	if changed("k") && m != dedup.MethodSimHash {
		return nil, fmt.Errorf("--k is a setting of --method simhash (the method is %v)", m)
	}
	w := &dedup.StoreOptions{Method: m}
	switch m {
	case dedup.MethodSimHash:
		if k < 0 || k > dedup.MaxK {
			return nil, fmt.Errorf("--k %d: want 0 to %d", k, dedup.MaxK)
		}
		w.K = k
		if changed("threshold") {
			if threshold <= 0 || threshold > 1 {
				return nil, fmt.Errorf("--threshold %v: want more than 0 and at most 1", threshold)
			}
			w.Threshold = threshold
		}
	case dedup.MethodMinHash:
		if threshold <= 0 || threshold > 1 {
			return nil, fmt.Errorf("--threshold %v: want more than 0 and at most 1", threshold)
		}
		w.Threshold = threshold
	}
	return w, nil
}
