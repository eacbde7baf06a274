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
//
// With -files N -dir DIR the pages go to N files DIR/part-00000.warc ...
// instead, page i to file i mod N, so that every site's pages are spread
// over all the files (a crawl as winnow-beam meets it); DIR/manifest.txt
// lists the files in order.
//
//	go run ./internal/tools/genwarc -pages 100000 -files 50 -dir /tmp/gen
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
	files := flag.Int("files", 0, "write the pages to this many files in -dir, page i to file i mod N (0: one WARC on stdout)")
	dir := flag.String("dir", "", "with -files: the folder of the files and their manifest.txt")
	flag.Parse()
	write := func(w io.Writer) error {
		if *from != "" {
			return real(w, strings.Split(*from, ","), *urls)
		}
		return synthetic(w, *pages)
	}
	var err error
	if *files > 0 {
		err = spread(write, *files, *dir)
	} else {
		err = write(os.Stdout)
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

// spread writes the pages that write gives to n files in dir, round
// robin, and their manifest.
func spread(write func(io.Writer) error, n int, dir string) error {
	if dir == "" {
		return fmt.Errorf("-files needs -dir")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	all, err := os.CreateTemp(dir, "all-*.warc")
	if err != nil {
		return err
	}
	defer os.Remove(all.Name())
	defer all.Close()
	if err := write(all); err != nil {
		return err
	}
	outs := make([]*bufio.Writer, n)
	var manifest strings.Builder
	for i := range outs {
		name := path.Join(dir, fmt.Sprintf("part-%05d.warc", i))
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		defer f.Close()
		outs[i] = bufio.NewWriterSize(f, 1<<20)
		manifest.WriteString(name + "\n")
	}
	i := 0
	err = pipeline.ReadInputs([]string{all.Name()}, func(in pipeline.Input) error {
		if in.Status != "" {
			return nil
		}
		defer func() { i++ }()
		return synth.WriteRecord(outs[i%n], in.URL, in.ContentType, in.Body)
	})
	if err != nil {
		return err
	}
	for _, w := range outs {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return os.WriteFile(path.Join(dir, "manifest.txt"), []byte(manifest.String()), 0o644)
}
