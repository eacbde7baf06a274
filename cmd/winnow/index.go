package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/pipeline"
)

type indexFlags struct {
	dir, out, method string
	k                int
	threshold        float64
}

func newIndexCmd() *cobra.Command {
	var f indexFlags
	cmd := &cobra.Command{
		Use:   "index add|query|delete|stats --index DIR",
		Short: "A persistent near-duplicate index: add, query, delete, stats",
		Long: `A persistent, incremental near-duplicate index on disk (pebble). Its
lookup structures are sorted keys, so a query reads a few short key ranges:
SimHash (the default; Manku's permuted tables, --k bits, over the text's
words and word pairs), MinHash (LSH bands chosen from --threshold over
3-word shingles, with one byte per position kept to estimate the Jaccard
similarity), or one of seed 000's signatures (md5, tfidf, longsent,
heavysent, lexrand; a shared signature makes a duplicate). TF*IDF, Heavy
Sent and Lex Rand keep their collection statistics and the texts in the
index; the statistics are rebuilt, and the collection re-signed, when a
quarter of the collection has changed since they were frozen.

Records are JSONL with "url" and "text" (winnow run's records). Each batch
of added records is synced before the next is read: after a crash, every
record reported as added is in the index. A URL added again replaces its
earlier entry. An index keeps the --method, --k and --threshold it was
created with; giving others later is an error.`,
		Example: `  winnow index add pages.jsonl --index idx/
  winnow index add pages.jsonl --index mh/ --method minhash --threshold 0.8
  winnow index query new.jsonl --index idx/ --out -
  winnow index delete https://example.com/old --index idx/
  winnow index stats --index idx/`,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.dir, "index", "", "index folder (required)")
	pf.StringVar(&f.method, "method", "simhash", "a new index's method: simhash, minhash, md5, tfidf, longsent, heavysent or lexrand")
	pf.IntVar(&f.k, "k", 3, "a new SimHash index's Hamming distance of a near-duplicate (0-8)")
	pf.Float64Var(&f.threshold, "threshold", 0.8, "a new MinHash index's estimated Jaccard similarity of a near-duplicate")
	// withStore opens the index, runs fn on it and closes it.
	withStore := func(cmd *cobra.Command, fn func(*dedup.Store) error) error {
		if f.dir == "" {
			return usagef("index: --index DIR is required")
		}
		changed := cmd.Flags().Changed
		if changed("threshold") && f.method != "minhash" {
			return usagef("index: --threshold is the setting of --method minhash")
		}
		want, err := storeWant(changed, f.method, f.k, f.threshold)
		if err != nil {
			return usagef("%v", err)
		}
		st, err := dedup.OpenStore(f.dir, want)
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
			return withStore(cmd, func(st *dedup.Store) error { return indexAdd(st, args[0], cmd.ErrOrStderr()) })
		},
	}
	query := &cobra.Command{
		Use:   "query IN.jsonl",
		Short: "For each record, the near-duplicates the index holds",
		Long: `Writes one JSON line per input record: its url and "duplicates": the held
documents it matches, each with its url and similarity (1 - distance/64 and
the Hamming distance for SimHash; the estimated Jaccard similarity for
MinHash; the share of signatures in common otherwise). A record that cannot
be read, or has no words, gives a line with "error".`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, func(st *dedup.Store) error {
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
			return withStore(cmd, func(st *dedup.Store) error {
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
		Short: "Documents, bytes on disk, method and layout, as JSON",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, func(st *dedup.Store) error {
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
	w, closeFn, err := pipeline.CreateOutput(path, stdout)
	if err != nil {
		return err
	}
	if err := fn(w); err != nil {
		closeFn()
		return err
	}
	return closeFn()
}

// indexRecord is one input line: its URL and text, or why it could not be
// read.
type indexRecord struct {
	line      int
	url, text string
	err       string
}

// scanIndexInput calls fn for every non-empty line of a JSONL file ("-" is
// stdin).
func scanIndexInput(path string, fn func(indexRecord) error) error {
	return scanJSONLines(path, func(line int, b []byte) error {
		var rec struct {
			URL  string `json:"url"`
			Text string `json:"text"`
		}
		ir := indexRecord{line: line}
		switch err := json.Unmarshal(b, &rec); {
		case err != nil:
			ir.err = err.Error()
		case rec.URL == "":
			ir.err = "no url"
		default:
			ir.url, ir.text = rec.URL, rec.Text
		}
		return fn(ir)
	})
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

func indexAdd(st *dedup.Store, path string, stderr io.Writer) error {
	var batch []dedup.Entry
	added, skipped, unsigned := 0, 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		docs, err := st.AddBatch(batch)
		if err != nil {
			return err
		}
		added += len(docs)
		urls := map[string]bool{}
		for _, e := range batch {
			urls[e.URL] = true
		}
		unsigned += len(urls) - len(docs)
		batch = batch[:0]
		return nil
	}
	err := scanIndexInput(path, func(r indexRecord) error {
		if r.err != "" {
			skipped++
			fmt.Fprintf(stderr, "%s:%d: skipped: %s\n", path, r.line, r.err)
			return nil
		}
		batch = append(batch, dedup.Entry{URL: r.url, Text: r.text})
		if len(batch) == pipeline.IndexAddBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	fmt.Fprintf(stderr, "%d records added, %d unreadable, %d with nothing to sign (%v)\n", added, skipped, unsigned, st.Options())
	return err
}

type indexMatch struct {
	URL        string  `json:"url"`
	Distance   *int    `json:"distance,omitempty"`
	Similarity float64 `json:"similarity"`
}

func indexQuery(st *dedup.Store, path string, w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return scanIndexInput(path, func(r indexRecord) error {
		type out struct {
			URL        string       `json:"url,omitempty"`
			Line       int          `json:"line"`
			Duplicates []indexMatch `json:"duplicates"`
			Error      string       `json:"error,omitempty"`
		}
		o := out{URL: r.url, Line: r.line, Duplicates: []indexMatch{}, Error: r.err}
		if o.Error == "" {
			err := st.Query(dedup.Entry{URL: r.url, Text: r.text}, func(m dedup.Match) {
				im := indexMatch{URL: m.URL, Similarity: m.Similarity}
				if m.Distance >= 0 {
					im.Distance = &m.Distance
				}
				o.Duplicates = append(o.Duplicates, im)
			})
			switch {
			case errors.Is(err, dedup.ErrNoSignature):
				o.Error = "no words to sign"
			case err != nil:
				return err
			}
		}
		return enc.Encode(o)
	})
}
