package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/pipeline"
)

// indexCacheUsage is the help of winnow index --cache and winnow serve
// --index-cache, defaultIndexCache their default.
const indexCacheUsage = "the index's block cache (e.g. 128MB, 1GB): memory taken as its tables are read, for their bloom filters and index blocks first"

var defaultIndexCache = fmt.Sprintf("%dMB", dedup.DefaultCacheBytes>>20)

type indexFlags struct {
	dir, out, method, cache string
	k                       int
	threshold               float64
}

func newIndexCmd() *cobra.Command {
	var f indexFlags
	cmd := &cobra.Command{
		Use:   "index add|query|delete|stats --index DIR",
		Short: "A persistent near-duplicate index: add, query, delete, stats",
		Long: `A persistent, incremental near-duplicate index on disk (pebble). Its
lookup structures are sorted keys, so a query reads a few short key ranges:
MinHash (the default: LSH bands chosen from --threshold over 3-word
shingles, with one byte per position kept to estimate the Jaccard
similarity of the candidates), SimHash (Manku's permuted tables, --k bits,
over the text's words and word pairs, each candidate verified on the same
b-bit sketch: its estimated Jaccard must reach --threshold), or one of seed 000's signatures (md5, tfidf, longsent,
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
	pf.StringVar(&f.method, "method", dedup.DefaultStoreOptions().Method.String(), "a new index's method: simhash, minhash, md5, tfidf, longsent, heavysent or lexrand")
	pf.StringVar(&f.cache, "cache", defaultIndexCache, indexCacheUsage)
	pf.IntVar(&f.k, "k", 3, "a new SimHash index's Hamming distance of a near-duplicate (0-8)")
	pf.Float64Var(&f.threshold, "threshold", 0.8, "a new MinHash or SimHash index's estimated Jaccard similarity of a near-duplicate")
	cmd.AddCommand(f.addCmd(), f.queryCmd(), f.deleteCmd(), f.statsCmd())
	return cmd
}

func (f *indexFlags) addCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "add IN.jsonl",
		Short: "Add records (a URL already held is replaced)",
		Args:  exactArgs(1),
		RunE: f.withStore(func(cmd *cobra.Command, args []string, st *dedup.Store) error {
			return withInput(args[0], func(r io.Reader) error {
				sum, err := pipeline.IndexAdd(cmd.Context(), r, args[0], st, cmd.ErrOrStderr())
				fmt.Fprintln(cmd.ErrOrStderr(), sum)
				return err
			})
		}),
	}
}

func (f *indexFlags) queryCmd() *cobra.Command {
	query := &cobra.Command{
		Use:   "query IN.jsonl",
		Short: "For each record, the near-duplicates the index holds",
		Long: `Writes one JSON line per input record: its url and "duplicates": the held
documents it matches, each with its url and similarity (1 - distance/64 and
the Hamming distance for SimHash; the estimated Jaccard similarity for
MinHash; the share of signatures in common otherwise). A record that cannot
be read, or has no words, gives a line with "error". A summary on standard
error counts the records with duplicates and gives the lookup times (p50,
p99, max) and the held documents checked per lookup.`,
		Args: exactArgs(1),
		RunE: f.withStore(func(cmd *cobra.Command, args []string, st *dedup.Store) error {
			return withInput(args[0], func(r io.Reader) error {
				return withOutput(f.out, cmd.OutOrStdout(), func(w io.Writer) error {
					sum, err := pipeline.IndexQuery(cmd.Context(), r, args[0], st, w)
					if err == nil {
						fmt.Fprintln(cmd.ErrOrStderr(), sum)
					}
					return err
				})
			})
		}),
	}
	query.Flags().StringVar(&f.out, "out", "-", "output JSONL file, or - for standard output")
	return query
}

func (f *indexFlags) deleteCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "delete URL...",
		Short: "Remove documents by URL",
		Args:  cobra.MinimumNArgs(1),
		RunE: f.withStore(func(cmd *cobra.Command, args []string, st *dedup.Store) error {
			missing, err := pipeline.IndexDelete(st, args)
			for _, u := range missing {
				fmt.Fprintf(cmd.ErrOrStderr(), "not in the index: %s\n", u)
			}
			if err == nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "%d of %d deleted\n", len(args)-len(missing), len(args))
			}
			return err
		}),
	}
}

func (f *indexFlags) statsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Documents, bytes on disk, method and layout, as JSON",
		Args:  exactArgs(0),
		RunE: f.withStore(func(cmd *cobra.Command, args []string, st *dedup.Store) error {
			return pipeline.WriteIndexStats(cmd.OutOrStdout(), st)
		}),
	}
}

// withStore makes a command that opens the index, runs fn on it and
// closes it.
func (f *indexFlags) withStore(fn func(*cobra.Command, []string, *dedup.Store) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if f.dir == "" {
			return usagef("index: --index DIR is required")
		}
		changed := cmd.Flags().Changed
		if changed("threshold") && f.method != "minhash" && f.method != "simhash" {
			return usagef("index: --threshold is a setting of --method minhash and simhash")
		}
		want, err := storeWant(changed, f.method, f.k, f.threshold)
		if err != nil {
			return usagef("%v", err)
		}
		cache, err := parseBytes(f.cache)
		if err != nil {
			return usagef("index: --cache: %v", err)
		}
		oo := dedup.OpenOptions{CacheBytes: cache}
		open := func(dir string, want *dedup.StoreOptions) (*dedup.Store, error) {
			return dedup.OpenExistingStoreWith(dir, want, oo)
		}
		if cmd.Name() == "add" {
			// Only add makes an index, and says so.
			open = func(dir string, want *dedup.StoreOptions) (*dedup.Store, error) {
				st, err := dedup.OpenExistingStoreWith(dir, want, oo)
				if errors.Is(err, dedup.ErrNoStore) {
					if st, err = dedup.OpenStoreWith(dir, want, oo); err == nil {
						fmt.Fprintf(cmd.ErrOrStderr(), "index %s created (%v)\n", dir, st.Options())
					}
				}
				return st, err
			}
		}
		st, err := open(f.dir, want)
		if err != nil {
			return err
		}
		err = fn(cmd, args, st)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		return err
	}
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

// withInput runs fn on the named file ("-" is standard input), closing it
// after.
func withInput(path string, fn func(io.Reader) error) error {
	if path == "-" {
		return fn(os.Stdin)
	}
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	return fn(fh)
}
