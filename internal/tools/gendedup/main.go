// Command gendedup writes a large near-duplicate collection made of real
// sentences, with its gold pairs, for scale tests of winnow dedup (see
// package internal/dedupgen): OUT/docs.jsonl ({"url","text"} lines, as
// winnow dedup reads them), OUT/gold.jsonl (every planted pair with its
// exact Jaccard and containment) and, with -unrelated, OUT/unrelated.jsonl
// (documents that copy nothing in the collection, for the persistent
// index's false-positive test). A summary goes to stderr.
//
//	go run ./internal/tools/gendedup -n 1000000 -out /tmp/gen1m -unrelated 100000
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/shareddata"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gendedup:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gendedup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts dedupgen.Options
	fs.IntVar(&opts.Docs, "n", 10000, "documents in the collection")
	fs.Uint64Var(&opts.Seed, "seed", 1, "random seed: the same flags write the same bytes")
	fs.Float64Var(&opts.CopyRate, "rate", dedupgen.DefaultCopyRate, "share of documents that get 1-3 planted near-copies (negative: none)")
	fs.IntVar(&opts.MinSentences, "min-sentences", dedupgen.DefaultMinSentences, "fewest sentences of a base document")
	fs.IntVar(&opts.MaxSentences, "max-sentences", dedupgen.DefaultMaxSentences, "most sentences of a base document (before topping up to -min-tokens)")
	fs.IntVar(&opts.MinTokens, "min-tokens", dedupgen.DefaultMinTokens, "fewest tokens of a base document outside CJK text")
	unrelated := fs.Int("unrelated", 0, "also write this many unrelated documents to OUT/unrelated.jsonl")
	out := fs.String("out", "", "output folder (required)")
	data := fs.String("data", "", "shared data folder (default: $WINNOW_DATA or ../shared/data)")
	workers := fs.Int("workers", 0, "goroutines (default GOMAXPROCS); the output does not depend on it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("-out is required and there are no arguments")
	}
	if *data == "" {
		d, err := shareddata.Dir()
		if err != nil {
			return err
		}
		*data = d
	}
	start := time.Now()
	pool, err := dedupgen.LoadPool(*data)
	if err != nil {
		return err
	}
	g, err := dedupgen.New(pool, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pool: %v in %s\n", pool.Languages(), time.Since(start).Round(time.Millisecond))
	sum, err := g.WriteFiles(*out, *unrelated, *workers)
	if err != nil {
		return err
	}
	if _, err := sum.WriteTo(stderr); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "total %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
