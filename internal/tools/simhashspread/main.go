// Command simhashspread compares every pair of SimHash fingerprints of a
// winnow dedup output of a generated collection (internal/tools/gendedup:
// DIR/gold.jsonl) and prints, for each Hamming distance k up to -max-k,
// the share of gold pairs at Jaccard >= 0.8 and >= 0.9 within k bits and
// the pairs within k bits that are not planted copies: how well the
// fingerprints' features separate near-duplicates from other texts
// before any table or verification. Every pair is compared, so it is for
// collections of up to about 100,000 documents.
//
//	winnow dedup /tmp/gen100k/docs.jsonl --method simhash --out /tmp/out.jsonl
//	go run ./internal/tools/simhashspread -dir /tmp/gen100k -marked /tmp/out.jsonl
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/internal/par"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "simhashspread:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("simhashspread", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "the generated collection (its gold.jsonl)")
	marked := fs.String("marked", "", "winnow dedup's output of DIR/docs.jsonl (its simhash fields)")
	maxK := fs.Int("max-k", 16, "largest distance reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *marked == "" {
		return errors.New("-dir and -marked are required")
	}
	fps, err := readFingerprints(*marked)
	if err != nil {
		return err
	}
	gold, err := jsonl.ReadFile[dedupgen.Pair](filepath.Join(*dir, "gold.jsonl"))
	if err != nil {
		return err
	}
	rows, err := spread(fps, gold, *maxK)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d fingerprints, %d gold pairs\nk\trecall>=0.8\trecall>=0.9\tother pairs within k\n", len(fps), len(gold))
	for k, r := range rows {
		fmt.Fprintf(stdout, "%d\t%.4f\t%.4f\t%d\n", k, r.recall8, r.recall9, r.others)
	}
	return nil
}

// row is what lies within one distance, cumulative.
type row struct {
	recall8, recall9 float64
	others           int
}

// readFingerprints reads the simhash field of every record, in order; a
// record without one is an error (a generated text is never empty).
func readFingerprints(path string) ([]uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var fps []uint64
	err = jsonl.Scan(f, path, func(line int, b []byte) error {
		var r struct {
			SimHash string `json:"simhash"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		v, err := strconv.ParseUint(r.SimHash, 16, 64)
		if err != nil {
			return fmt.Errorf("%s:%d: simhash %q: %w", path, line, r.SimHash, err)
		}
		fps = append(fps, v)
		return nil
	})
	return fps, err
}

// spread compares every pair of fps (on all cores) against the gold.
func spread(fps []uint64, gold []dedupgen.Pair, maxK int) ([]row, error) {
	isGold := map[[2]int32]bool{}
	hist8, hist9 := make([]int, maxK+1), make([]int, maxK+1)
	n8, n9 := 0, 0
	for _, p := range gold {
		a, b := int32(p.LineA-1), int32(p.LineB-1)
		if a < 0 || b < 0 || int(a) >= len(fps) || int(b) >= len(fps) {
			return nil, fmt.Errorf("gold pair of lines %d and %d: %d fingerprints", p.LineA, p.LineB, len(fps))
		}
		isGold[[2]int32{min(a, b), max(a, b)}] = true
		d := bits.OnesCount64(fps[a] ^ fps[b])
		if p.Jaccard >= 0.8 {
			n8++
			if d <= maxK {
				hist8[d]++
			}
		}
		if p.Jaccard >= 0.9 {
			n9++
			if d <= maxK {
				hist9[d]++
			}
		}
	}
	// Pairs of other documents within maxK, counted per row i.
	others := make([][]int, len(fps))
	par.Each(len(fps), runtime.GOMAXPROCS(0), func(i int) {
		var h []int
		for j := i + 1; j < len(fps); j++ {
			if d := bits.OnesCount64(fps[i] ^ fps[j]); d <= maxK && !isGold[[2]int32{int32(i), int32(j)}] {
				if h == nil {
					h = make([]int, maxK+1)
				}
				h[d]++
			}
		}
		others[i] = h
	})
	rows := make([]row, maxK+1)
	c8, c9, co := 0, 0, 0
	for k := range rows {
		c8, c9 = c8+hist8[k], c9+hist9[k]
		for _, h := range others {
			if h != nil {
				co += h[k]
			}
		}
		rows[k] = row{ratio(c8, n8), ratio(c9, n9), co}
	}
	return rows, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
