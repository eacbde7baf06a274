package pipeline

import (
	"bytes"
	"context"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/metadata"
	"github.com/winnow-go/winnow/xpathrules"
)

// BenchmarkStagesScrapinghub measures, over the 181 Scrapinghub pages and
// in the same run: bare html.Parse; extract.Extract, the work of
// extract's BenchmarkScrapinghub, without and with the metadata stage's
// collector following its walk (Extract+collector, as Stages.Parse runs
// it); the whole Stages.Page, with and without language identification;
// and the rest of the metadata stage (readMetadata on pages the other
// stages have labelled, whose collector has followed the walk), with and
// without it. One op is the whole set; the identifier's models are
// loaded before the timer starts. Metadata reads the same labelled pages
// back to back, with its tables and lingua's models in the cache: for
// the stage's share as the pipeline runs it see BenchmarkMetadataShare.
func BenchmarkStagesScrapinghub(b *testing.B) {
	pages, total, err := shareddata.Pages(shareddata.Require(b), "scrapinghub")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run := func(name string, fn func(p []byte)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range pages {
					fn(p)
				}
			}
			b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
	run("html.Parse", func(p []byte) {
		if _, err := html.Parse(bytes.NewReader(p)); err != nil {
			b.Fatal(err)
		}
	})
	run("Extract", func(p []byte) {
		if _, err := extract.Extract(p, extract.Options{}); err != nil {
			b.Fatal(err)
		}
	})
	run("Extract+collector", func(p []byte) {
		if _, err := extract.Extract(p, extract.Options{Visitor: metadata.NewCollector()}); err != nil {
			b.Fatal(err)
		}
	})
	for _, st := range []struct {
		name string
		s    Stages
	}{{"no-lang-id", Stages{NoLangID: true}}, {"lang-id", Stages{}}} {
		labelled := make([]*extract.Page, len(pages))
		for i, p := range pages { // labels the pages and loads the models
			pg, _, err := st.s.Page(ctx, Input{Body: p}, nil, "")
			if err != nil {
				b.Fatal(err)
			}
			if pg.Visited() == nil {
				b.Fatalf("page %d: no collector followed the walk", i)
			}
			labelled[i] = pg
		}
		run("Page/"+st.name, func(p []byte) {
			if _, _, err := st.s.Page(ctx, Input{Body: p}, nil, ""); err != nil {
				b.Fatal(err)
			}
		})
		b.Run("Metadata/"+st.name, func(b *testing.B) {
			b.ReportAllocs()
			identified := 0
			for b.Loop() {
				identified = 0
				for _, pg := range labelled {
					pg.Warnings = pg.Warnings[:0]
					st.s.readMetadata(pg, xpathrules.Outcome{})
					if pg.Meta.Sources["lang"] == "text" {
						identified++
					}
				}
			}
			if st.s.NoLangID == (identified > 0) {
				b.Fatalf("%d pages of %d identified", identified, len(labelled))
			}
			b.ReportMetric(float64(len(labelled)*b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// BenchmarkMetadataShare measures the metadata stage's share of
// extraction's time on the 181 Scrapinghub pages as Stages.Page runs it,
// by pairs taken page by page, so that the load of a shared machine
// weighs on both sides alike: extract.Extract alone, and with the
// stage's collector following its walk (the order of the two alternates
// from one op to the next); then, on the page the second extraction
// gave, labelled as Label labels it, the rest of the stage
// (readMetadata, with language identification). It reports the times
// per set in ms and share-% = (with collector - alone + readMetadata) /
// alone. One op is the whole set.
func BenchmarkMetadataShare(b *testing.B) {
	pages := warmScrapinghub(b)
	ctx := context.Background()
	var s Stages
	var alone, with, read time.Duration
	extractOne := func(p []byte, v extract.Visitor) (*extract.Page, time.Duration) {
		start := time.Now()
		pg, err := extract.Extract(p, extract.Options{Visitor: v})
		if err != nil {
			b.Fatal(err)
		}
		return pg, time.Since(start)
	}
	op := 0
	for b.Loop() {
		for _, p := range pages {
			var pg *extract.Page
			var d time.Duration
			if op%2 == 0 {
				_, d = extractOne(p, nil)
				alone += d
				pg, d = extractOne(p, metadata.NewCollector())
				with += d
			} else {
				pg, d = extractOne(p, metadata.NewCollector())
				with += d
				_, d = extractOne(p, nil)
				alone += d
			}
			ro, err := s.labelBlocks(ctx, pg, nil, "")
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			s.readMetadata(pg, ro)
			read += time.Since(start)
		}
		op++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(op) / 1e6 }
	b.ReportMetric(ms(alone), "extract-ms")
	b.ReportMetric(ms(with-alone), "collector-ms")
	b.ReportMetric(ms(read), "read-ms")
	b.ReportMetric(100*float64(with-alone+read)/float64(alone), "share-%")
}

// BenchmarkLangIDShare measures language identification's part of the
// metadata stage as Stages.Page runs it, on the 181 Scrapinghub pages:
// each page is extracted with the stage's collector and labelled, then
// read by readMetadata with the identifier on even ops and without it
// (Stages{NoLangID: true}) on odd ones, each time after the page's own
// extraction, when lingua's models and the word tables are no longer in
// the cache. It reports both reads per set in ms, and their difference as
// langid-ms. One op is the whole set.
func BenchmarkLangIDShare(b *testing.B) {
	pages := warmScrapinghub(b)
	ctx := context.Background()
	with, without := Stages{}, Stages{NoLangID: true}
	var read [2]time.Duration
	var ops [2]int
	op := 0
	for b.Loop() {
		s := &with
		if op%2 == 1 {
			s = &without
		}
		for _, p := range pages {
			pg, err := extract.Extract(p, extract.Options{Visitor: metadata.NewCollector()})
			if err != nil {
				b.Fatal(err)
			}
			ro, err := s.labelBlocks(ctx, pg, nil, "")
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			s.readMetadata(pg, ro)
			read[op%2] += time.Since(start)
		}
		ops[op%2]++
		op++
	}
	ms := func(i int) float64 { return float64(read[i]) / float64(ops[i]) / 1e6 }
	b.ReportMetric(ms(0), "read-ms")
	if ops[1] > 0 { // -benchtime 1x reads with the identifier only
		b.ReportMetric(ms(1), "read-no-lang-id-ms")
		b.ReportMetric(ms(0)-ms(1), "langid-ms")
	}
}

// warmScrapinghub reads the 181 Scrapinghub pages and runs Stages.Page
// over them once, which loads the language identifier's models before a
// benchmark's timer starts.
func warmScrapinghub(b *testing.B) [][]byte {
	pages, _, err := shareddata.Pages(shareddata.Require(b), "scrapinghub")
	if err != nil {
		b.Fatal(err)
	}
	var s Stages
	for _, p := range pages {
		if _, _, err := s.Page(context.Background(), Input{Body: p}, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
	return pages
}
