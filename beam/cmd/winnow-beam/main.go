// Command winnow-beam runs winnow run over a crawl on Apache Beam: the
// WARC files a manifest names become JSONL shards whose records are
// those of winnow run (--dedup) on the same files.
//
//	winnow-beam --inputs MANIFEST --output DIR [--dedup [--method minhash|simhash] [--k 3]]
//	    [--rules FILE|DIR] [--templates DIR] [--gzip] [--shards N]
//	    [--runner prism|flink|spark|dataflow|universal] [--endpoint HOST:PORT]
//	    [--environment_type DOCKER|LOOPBACK|PROCESS] [Beam's other flags]
//
// The runner flags are Beam's own (beam.Init reads them); without
// --runner the job runs in this process on Prism.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	// The filesystems that manifests, WARC paths, --templates and
	// --output may name: gs://, s3://, local files, memfs:// (in-process).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/winnow-go/winnow/beam/winnowbeam"
	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

var (
	inputs     = flag.String("inputs", "", "manifest: a file of WARC paths, one a line (the manifest and the paths local, gs://, s3://)")
	output     = flag.String("output", "", "folder receiving records-*.jsonl shards")
	dedupFlag  = flag.Bool("dedup", false, "mark near-duplicates as winnow run --dedup does")
	gzipFlag   = flag.Bool("gzip", false, "gzip the shards (records-*.jsonl.gz)")
	shards     = flag.Int("shards", winnowbeam.DefaultShards, "number of output shards")
	samples    = flag.Int("samples-per-group", pipeline.DefaultSamplesPerGroup, "pages per site group that templates are learned from")
	singlePage = flag.Bool("single-page", false, "no site templates: extract every page on its own")
	markdown   = flag.Bool("markdown", false, "add the markdown field")
	threshold  = flag.Float64("threshold", pipeline.DefaultDedupOptions().Threshold, "with --dedup: verified Jaccard similarity that makes a duplicate")
	rules      = flag.String("rules", "", "per-site XPath/CSS rules, as winnow run --rules: a YAML or FiveFilters file, or a folder of them (read here, sent to the workers)")
	templates  = flag.String("templates", "", "folder of saved site templates, as winnow run --templates (local to the workers, gs://, s3://): load them, relearn those that no longer fit, save new ones")
	render     = flag.Bool("render", false, "refused: the layout pass (winnow run --render) is local-only")
	method     = flag.String("method", pipeline.DefaultDedupOptions().Method.String(), "with --dedup: candidate search, minhash or simhash")
	k          = flag.Int("k", min(pipeline.DefaultDedupOptions().K, pipeline.MaxKeyedK), "with --dedup --method simhash: Hamming distance of candidates (0-8; the candidate keys of a distributed run support at most 8)")
	cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of this process to this file (with Prism, the job's workers run here too)")
)

func main() {
	flag.Parse()
	beam.Init() // a worker started by a runner stops here, serving its bundles
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "winnow-beam:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type usageError struct{ error }

// flagSet reports whether the command line set the flag.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func run(ctx context.Context) error {
	if *inputs == "" || *output == "" {
		return usageError{errors.New("--inputs MANIFEST and --output DIR are required")}
	}
	if *render {
		return usageError{errors.New("--render: the layout pass renders pages in a local headless Chromium and is local-only; run winnow run --render on one machine")}
	}
	set := winnowbeam.Settings{SamplesPerGroup: *samples, SinglePage: *singlePage, Markdown: *markdown,
		Shards: *shards, Gzip: *gzipFlag, TemplatesDir: *templates}
	if *rules != "" {
		files, err := xpathrules.ReadFiles(*rules)
		if err != nil {
			return usageError{fmt.Errorf("rules %s: %w", *rules, err)}
		}
		set.Rules = files
	}
	if *dedupFlag {
		d := pipeline.DefaultDedupOptions()
		var err error
		if d.Method, err = dedup.ParseMethod(*method); err != nil {
			return usageError{err}
		}
		if flagSet("k") && d.Method != dedup.MethodSimHash {
			return usageError{fmt.Errorf("--k is a setting of --method simhash (the method is %v)", d.Method)}
		}
		d.Threshold, d.K = *threshold, *k
		set.Dedup = &d
	} else if flagSet("method") || flagSet("k") {
		return usageError{errors.New("--method and --k are settings of --dedup")}
	}
	if err := set.Validate(); err != nil {
		return usageError{err}
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	paths, err := winnowbeam.ReadManifestFile(ctx, *inputs)
	if err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	if err := winnowbeam.Build(s, paths, *output, set); err != nil {
		return err
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	if res != nil {
		describe(res)
	}
	return nil
}

// describe prints the job's counters (records by status, bytes shuffled
// per stage) on stderr.
func describe(res beam.PipelineResult) {
	totals := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "winnow" {
			totals[c.Name()] += c.Result()
		}
	}
	names := make([]string, 0, len(totals))
	for n := range totals {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "%s: %d\n", n, totals[n])
	}
}
