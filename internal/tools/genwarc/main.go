// Command genwarc writes a synthetic WARC for memory and speed
// measurements of winnow run: pages built from the daniel-ru gold texts of
// ../shared/data, spread over a few site templates.
//
//	go run ./internal/tools/genwarc -pages 500000 > big.warc
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/internal/synth"
)

func main() {
	pages := flag.Int("pages", 1000, "number of pages")
	flag.Parse()
	if err := run(*pages); err != nil {
		fmt.Fprintln(os.Stderr, "genwarc:", err)
		os.Exit(1)
	}
}

func run(pages int) error {
	data, err := shareddata.Dir()
	if err != nil {
		return err
	}
	texts, err := synth.GoldTexts(data)
	if err != nil {
		return err
	}
	return synth.WriteWARC(os.Stdout, texts, pages)
}
