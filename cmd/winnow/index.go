package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/dedup"
)

type indexFlags struct {
	dir, out string
	k        int
}

func newIndexCmd() *cobra.Command {
	var f indexFlags
	cmd := &cobra.Command{
		Use:   "index add|query|delete|stats --index DIR",
		Short: "A persistent near-duplicate index: add, query, delete, stats",
		Long: `A persistent, incremental SimHash index on disk (pebble): Manku's permuted
tables as sorted keys, so a query reads a few short key ranges. Records are
JSONL with "url" and "text" (winnow run's records). The fingerprint is the
SimHash of the text's words and word pairs, as winnow dedup computes it.
Each batch of added records is synced before the next is read: after a
crash, every record reported as added is in the index. A URL added again
replaces its earlier entry. The index keeps the --k it was created with.`,
		Example: `  winnow index add pages.jsonl --index idx/
  winnow index query new.jsonl --index idx/ --out -
  winnow index delete https://example.com/old --index idx/
  winnow index stats --index idx/`,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.dir, "index", "", "index folder (required)")
	pf.IntVar(&f.k, "k", 3, "SimHash Hamming distance of a near-duplicate (0-8), fixed when the index is created")
	// withStore opens the index, runs fn on it and closes it.
	withStore := func(fn func(*dedup.Store) error) error {
		if f.dir == "" {
			return usagef("index: --index DIR is required")
		}
		st, err := dedup.OpenStore(f.dir, f.k)
		if err != nil {
			return err
		}
		err = fn(st)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		return err
	}
	add := &cobra.Command{
		Use:   "add IN.jsonl",
		Short: "Add records (a URL already held is replaced)",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(func(st *dedup.Store) error { return indexAdd(st, args[0], cmd.ErrOrStderr()) })
		},
	}
	query := &cobra.Command{
		Use:   "query IN.jsonl",
		Short: "For each record, the near-duplicates the index holds",
		Long: `Writes one JSON line per input record: its url, its simhash and
"duplicates": the held documents within --k bits, each with its url, its
Hamming distance and the similarity 1 - distance/64. A record that cannot
be read gives a line with "error".`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(func(st *dedup.Store) error {
				return withOutput(f.out, cmd.OutOrStdout(), func(w io.Writer) error { return indexQuery(st, args[0], w) })
			})
		},
	}
	query.Flags().StringVar(&f.out, "out", "-", "output JSONL file, or - for standard output")
	del := &cobra.Command{
		Use:   "delete URL...",
		Short: "Remove documents by URL",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(func(st *dedup.Store) error {
				n := 0
				for _, u := range args {
					ok, err := st.Delete(u)
					if err != nil {
						return err
					}
					if ok {
						n++
					} else {
						fmt.Fprintf(cmd.ErrOrStderr(), "not in the index: %s\n", u)
					}
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "%d of %d deleted\n", n, len(args))
				return nil
			})
		},
	}
	stats := &cobra.Command{
		Use:   "stats",
		Short: "Documents, bytes on disk and the table layout, as JSON",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(func(st *dedup.Store) error {
				s, err := st.Stats()
				if err != nil {
					return err
				}
				b, err := json.Marshal(s)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), string(b))
				return nil
			})
		},
	}
	cmd.AddCommand(add, query, del, stats)
	return cmd
}

// withOutput runs fn on the named file ("-" is stdout), closing it after.
func withOutput(path string, stdout io.Writer, fn func(io.Writer) error) error {
	if path == "-" || path == "" {
		bw := bufio.NewWriter(stdout)
		if err := fn(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(fh)
	if err := fn(bw); err != nil {
		fh.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// indexRecord is one input line: its URL and fingerprint, or why it
// could not be read.
type indexRecord struct {
	line int
	url  string
	fp   uint64
	ok   bool // the text has a fingerprint
	err  string
}

// scanIndexInput calls fn for every non-empty line of a JSONL file ("-" is
// stdin) with the record's URL and SimHash.
func scanIndexInput(path string, fn func(indexRecord) error) error {
	simNorm, err := dedup.NewNormalizer(dedup.Options{Shingles: defaultSimShingles})
	if err != nil {
		return err
	}
	var r io.Reader = os.Stdin
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return err
		}
		defer fh.Close()
		r = fh
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var rec dedupRecord
		ir := indexRecord{line: line}
		switch err := json.Unmarshal(b, &rec); {
		case err != nil:
			ir.err = err.Error()
		case rec.URL == "":
			ir.err = "no url"
		default:
			ir.url = rec.URL
			ir.fp, ir.ok = simNorm.Fingerprint(rec.Text)
		}
		if err := fn(ir); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// indexAddBatch is how many records one synced batch holds.
const indexAddBatch = 1000

func indexAdd(st *dedup.Store, path string, stderr io.Writer) error {
	var batch []dedup.StoredDoc
	added, skipped := 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		docs, err := st.AddBatch(batch)
		if err != nil {
			return err
		}
		added += len(docs)
		batch = batch[:0]
		return nil
	}
	err := scanIndexInput(path, func(r indexRecord) error {
		switch {
		case r.err != "":
			skipped++
			fmt.Fprintf(stderr, "%s:%d: skipped: %s\n", path, r.line, r.err)
		case !r.ok:
			skipped++
			fmt.Fprintf(stderr, "%s:%d: skipped: no words to fingerprint\n", path, r.line)
		default:
			batch = append(batch, dedup.StoredDoc{URL: r.url, Fingerprint: r.fp})
			if len(batch) == indexAddBatch {
				return flush()
			}
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	fmt.Fprintf(stderr, "%d records added, %d skipped\n", added, skipped)
	return err
}

type indexMatch struct {
	URL        string  `json:"url"`
	Distance   int     `json:"distance"`
	Similarity float64 `json:"similarity"`
}

func indexQuery(st *dedup.Store, path string, w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return scanIndexInput(path, func(r indexRecord) error {
		type out struct {
			URL        string       `json:"url,omitempty"`
			Line       int          `json:"line"`
			SimHash    string       `json:"simhash,omitempty"`
			Duplicates []indexMatch `json:"duplicates"`
			Error      string       `json:"error,omitempty"`
		}
		o := out{URL: r.url, Line: r.line, Duplicates: []indexMatch{}, Error: r.err}
		if r.err == "" && !r.ok {
			o.Error = "no words to fingerprint"
		}
		if o.Error == "" {
			o.SimHash = dedup.FormatFingerprint(r.fp)
			err := st.Query(r.fp, func(d dedup.StoredDoc, dist int) {
				o.Duplicates = append(o.Duplicates, indexMatch{URL: d.URL, Distance: dist, Similarity: 1 - float64(dist)/64})
			})
			if err != nil {
				return err
			}
		}
		return enc.Encode(o)
	})
}
