// Command genwarc writes a WARC for memory and speed measurements of
// winnow run. By default its pages are synthetic: built from the
// daniel-ru gold texts of ../shared/data, spread over a few site
// templates. With -from it writes real pages instead: every page of the
// given inputs (folders, WARC or JSONL files), each as a response record,
// under the URL that -urls gives its file name, if any.
//
//	go run ./internal/tools/genwarc -pages 500000 > big.warc
//	go run ./internal/tools/genwarc -from ../shared/data/extract/wcxb-dev-even/html \
//	    -urls ../shared/data/extract/wcxb-dev-even/meta.jsonl > wcxb.warc
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/winnow-go/winnow/internal/jsonl"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/internal/synth"
	"github.com/winnow-go/winnow/pipeline"
)

func main() {
	pages := flag.Int("pages", 1000, "number of synthetic pages")
	from := flag.String("from", "", "write the pages of these inputs (comma-separated) instead of synthetic ones")
	urls := flag.String("urls", "", `with -from: a JSONL file of {"id","url"}: the page whose file name (less its extensions) is id gets url`)
	flag.Parse()
	var err error
	if *from != "" {
		err = real(os.Stdout, strings.Split(*from, ","), *urls)
	} else {
		err = synthetic(os.Stdout, *pages)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genwarc:", err)
		os.Exit(1)
	}
}

func synthetic(w io.Writer, pages int) error {
	data, err := shareddata.Dir()
	if err != nil {
		return err
	}
	texts, err := synth.GoldTexts(data)
	if err != nil {
		return err
	}
	return synth.WriteWARC(w, texts, pages)
}

func real(w io.Writer, inputs []string, urlFile string) error {
	byID := map[string]string{}
	if urlFile != "" {
		rows, err := jsonl.ReadFile[struct{ ID, URL string }](urlFile)
		if err != nil {
			return err
		}
		for _, m := range rows {
			byID[m.ID] = m.URL
		}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	err := pipeline.ReadInputs(inputs, func(in pipeline.Input) error {
		if in.Status != "" {
			return nil
		}
		id, _, _ := strings.Cut(path.Base(in.Source), ".")
		if u, ok := byID[id]; ok {
			in.URL = u
		}
		return synth.WriteRecord(bw, in.URL, in.ContentType, in.Body)
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
