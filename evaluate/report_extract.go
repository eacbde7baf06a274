package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"
)

// Peers are the tools whose stored outputs (reference/<set>.<tool>.jsonl)
// an ExtractReport sets beside winnow's on every set.
var Peers = []string{"go-trafilatura", "go-readability"}

// SetPeers returns the peers stored for set: Peers, with
// go-trafilatura-fallback (go-trafilatura with its fallback extractors)
// after go-trafilatura on wcxb-dev-even.
func SetPeers(set string) []string {
	if set == "wcxb-dev-even" {
		return []string{"go-trafilatura", "go-trafilatura-fallback", "go-readability"}
	}
	return Peers
}

// ExtractReport is winnow eval extract: winnow's figures on one
// extraction dataset beside those of each of Peers.
type ExtractReport struct {
	Dataset *Dataset
	Result  *Result          // winnow's figures
	Errors  map[string]error // the pages the extractor failed on, by ID
	Elapsed time.Duration    // the time the extraction took
	Peers   []PeerResult     // in the order of SetPeers
}

// PeerResult is one peer's figures on the dataset of an ExtractReport.
type PeerResult struct {
	Tool   string
	Result *Result // nil when the peer's outputs could not be read (Err)
	Err    error
	// Diff is the paired bootstrap interval (1000 rounds, seed 1) of
	// winnow's F1 minus the peer's.
	Diff Interval
}

// CompareExtract runs fn over ds with workers goroutines (0: GOMAXPROCS),
// scores the texts and the stored outputs of each of SetPeers in dataDir
// with ds's metric, and pairs the two on the same pages.
//
//	ds, _ := evaluate.LoadExtract(dir, "scrapinghub")
//	rep := evaluate.CompareExtract(dir, ds, evaluate.WinnowExtractor(ctx, pipeline.Stages{}), 0)
//	rep.WriteText(os.Stdout)
func CompareExtract(dataDir string, ds *Dataset, fn Extractor, workers int) *ExtractReport {
	start := time.Now()
	res, _, errs := RunExtract(ds, fn, workers)
	rep := &ExtractReport{Dataset: ds, Result: res, Errors: errs, Elapsed: time.Since(start)}
	for _, tool := range SetPeers(ds.Name) {
		p := PeerResult{Tool: tool}
		if p.Result, p.Err = ReferenceResult(dataDir, ds, tool); p.Err == nil {
			p.Diff = PairedBootstrap(ds.Metric, res.PerPage, p.Result.PerPage, 1000, 1)
		}
		rep.Peers = append(rep.Peers, p)
	}
	return rep
}

// WriteText writes the report as a table: winnow's line (with the time
// and the number of failed pages), each failed page, and a line per peer
// with the interval of the difference.
func (r *ExtractReport) WriteText(w io.Writer) error {
	res := r.Result
	width := 16 // the name column: the longest peer name
	for _, p := range r.Peers {
		width = max(width, len(p.Tool))
	}
	fmt.Fprintf(w, "%-*s pages %-4d P %.4f  R %.4f  F1 %.4f", width, "winnow", res.Pages, res.Precision, res.Recall, res.F1)
	if res.Accuracy != nil {
		fmt.Fprintf(w, "  acc %.4f", *res.Accuracy)
	}
	fmt.Fprintf(w, "  (%.1fs, %d errors)\n", r.Elapsed.Seconds(), len(r.Errors))
	ids := make([]string, 0, len(r.Errors))
	for id := range r.Errors {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(w, "  error %s: %v\n", id, r.Errors[id])
	}
	if err := res.writeLangs(w, r.Dataset.Name); err != nil {
		return err
	}
	for _, p := range r.Peers {
		if p.Err != nil {
			fmt.Fprintf(w, "%-*s (no reference outputs: %v)\n", width, p.Tool, p.Err)
			continue
		}
		_, err := fmt.Fprintf(w, "%-*s pages %-4d P %.4f  R %.4f  F1 %.4f   winnow-peer %+.4f [95%% %+.4f, %+.4f]\n",
			width, p.Tool, p.Result.Pages, p.Result.Precision, p.Result.Recall, p.Result.F1, p.Diff.Diff, p.Diff.Low, p.Diff.High)
		if err != nil {
			return err
		}
	}
	if res.Types != nil {
		return r.writeTypes(w, width)
	}
	return nil
}

// writeTypes writes the F1 of each page type for winnow and each peer,
// then the snippet rates of each (the WCXB sets).
func (r *ExtractReport) writeTypes(w io.Writer, width int) error {
	var peers []PeerResult
	for _, p := range r.Peers {
		if p.Err == nil {
			peers = append(peers, p)
		}
	}
	fmt.Fprintf(w, "\nF1 by page type:\n%-16s %5s %8s", "type", "pages", "winnow")
	for _, p := range peers {
		fmt.Fprintf(w, " %*s", max(8, len(p.Tool)), p.Tool)
	}
	fmt.Fprintln(w)
	row := func(name string, pages int, mine float64, peer func(*Result) float64) {
		fmt.Fprintf(w, "%-16s %5d %8.4f", name, pages, mine)
		for _, p := range peers {
			fmt.Fprintf(w, " %*.4f", max(8, len(p.Tool)), peer(p.Result))
		}
		fmt.Fprintln(w)
	}
	for _, t := range r.Result.Types {
		row(t.Type, t.Pages, t.F1, func(pr *Result) float64 { return pr.ByType[t.Type] })
	}
	row("all", r.Result.Pages, r.Result.F1, func(pr *Result) float64 { return pr.F1 })
	if c := r.Result.PageTypes; c != nil {
		fmt.Fprintf(w, "\npage type accuracy %.4f (%d pages); gold rows, guessed columns:\n", *r.Result.PageTypeAccuracy, r.Result.Pages)
		if err := c.WriteText(w); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nsnippets found (mean share per page; with: higher is better, without: lower):\n")
	rates := func(name string, res *Result) error {
		_, err := fmt.Fprintf(w, "%-*s with %.4f  without %.4f\n", width, name, *res.WithRate, *res.WithoutRate)
		return err
	}
	if err := rates("winnow", r.Result); err != nil {
		return err
	}
	for _, p := range peers {
		if err := rates(p.Tool, p.Result); err != nil {
			return err
		}
	}
	return nil
}

// WriteLosses lists the pages where the peer tool beats winnow, worst
// first, at most top of them. It writes nothing when the peer's outputs
// could not be read.
func (r *ExtractReport) WriteLosses(w io.Writer, tool string, top int) error {
	for _, p := range r.Peers {
		if p.Tool != tool || p.Err != nil {
			continue
		}
		losses := Losses(r.Dataset, r.Result, p.Result)
		fmt.Fprintf(w, "\n%d pages where %s beats winnow (worst first):\n", len(losses), tool)
		for i, l := range losses {
			if i == top {
				fmt.Fprintf(w, "  ... %d more\n", len(losses)-top)
				break
			}
			if _, err := fmt.Fprintf(w, "  %-70s winnow %.3f  %s %.3f  %s\n", l.ID, l.Winnow, tool, l.Other, l.URL); err != nil {
				return err
			}
		}
	}
	return nil
}

// WritePageScores writes winnow's score of every page as a JSON line
// {"id","precision","recall","f1"}.
func (r *ExtractReport) WritePageScores(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, p := range r.Result.PerPage {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return nil
}
