// Command peermeta runs the metadata peers (go-trafilatura, go-htmldate
// extensive and fast) on the shared metadata sets and writes
// <set>.<tool>.jsonl, one {"id","title","authors","published"} line per
// page in the set's order (that of its meta.jsonl or meta.tsv, or of the
// ids of its evaldata.json), into the main module's evaluate/testdata/peers.
//
//	cd peers && go run ./cmd/peermeta [-data DIR] [-out DIR] [-set S] [-tool T] [-workers N]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/winnow-go/winnow/peers"
)

func main() {
	if code, ran := peers.InUTC(); ran {
		os.Exit(code)
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("peermeta", flag.ContinueOnError)
	data := fl.String("data", "", "shared data folder (default: $WINNOW_DATA, else ../shared/data beside the repository)")
	out := fl.String("out", "", "output folder (default: the main module's "+peers.OutSubdir+")")
	set := fl.String("set", "", "run only this set (wcxb-dev-even, htmldate, cleaneval-zh, trafilatura)")
	tool := fl.String("tool", "", "run only this tool (go-trafilatura, go-htmldate-extensive, go-htmldate-fast)")
	workers := fl.Int("workers", 1, "pages run at once")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var err error
	if *data == "" {
		if *data, err = peers.DataDir(); err != nil {
			return err
		}
	}
	if *out == "" {
		if *out, err = peers.OutDir(); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	found := false
	for _, s := range peers.Sets {
		if *set != "" && s.Name != *set {
			continue
		}
		pages, err := peers.ReadPages(*data, s)
		if err != nil {
			return err
		}
		for _, t := range peers.Tools {
			if *tool != "" && t.Name != *tool {
				continue
			}
			found = true
			start := time.Now()
			recs, panics := peers.Run(t, pages, *workers)
			el := time.Since(start)
			path := filepath.Join(*out, peers.FileName(s.Name, t.Name))
			if err := os.WriteFile(path, peers.Encode(recs), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%s %s: %d pages in %v (%.1f ms/page, %d workers), %d panics -> %s\n",
				s.Name, t.Name, len(pages), el.Round(time.Millisecond),
				float64(el.Microseconds())/1000/float64(len(pages)), *workers, panics, path)
		}
	}
	if !found {
		return fmt.Errorf("peermeta: no set %q with tool %q", *set, *tool)
	}
	return nil
}
