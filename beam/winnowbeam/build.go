package winnowbeam

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // the local filesystem: inputs and output
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*fileRef)(nil)).Elem())
	registerCoders()
	register.DoFn4x0[context.Context, fileRef, func(string, []byte), func(int, int)](&scanFn{})
	register.Combiner3[siteAcc, []byte, sitePlan](&siteCombine{})
	register.DoFn4x0[context.Context, string, sitePlan, func(int, []byte)](&requestFn{})
	register.DoFn6x1[context.Context, int, func(*string) bool, func(*[]byte) bool, func(string, []byte), func(int, int), error](&sampleFn{})
	register.Function2x2(typicalFn)
	register.DoFn5x1[context.Context, string, func(*sitePlan) bool, func(*[]byte) bool, func(int, []byte), error](&learnFn{})
	register.DoFn8x1[context.Context, int, func(*string) bool, func(*[]byte) bool, func(*int, *int) bool, func(*int, *int) bool, func(int, []byte), func(int64, []byte), error](&recordFn{})
	register.DoFn4x1[context.Context, int64, func(*[]byte) bool, func(int, int), error](&edgesFn{})
	register.Function2x0(countRoundsFn)
	register.Function3x2(largerFirstFn)
	register.Function3x0(starFn)
	register.Function4x0(bothWaysFn)
	register.Function4x0(largeStarFn)
	register.Function5x0(smallStarFn)
	register.Function5x0(labelFn)
	register.Function5x0(residualLinksFn)
	register.Function4x1(joinLabelsFn)
	register.DoFn5x0[context.Context, int, int, func(*int, *int) bool, func(int, int)](&relabelFn{})
	register.DoFn5x0[context.Context, int, func(*[]byte) bool, func(*int) bool, func(int, []byte)](&assignFn{})
	register.DoFn4x1[context.Context, int, func(*int) bool, func(*[]byte) bool, error](&writeFn{})
	register.Function1x2(fileKV)
	register.Function1x2(shardKV)
	register.Function1x2(noSites)

	register.Emitter2[string, []byte]()
	register.Emitter2[int, int]()
	register.Emitter2[int, []byte]()
	register.Emitter2[int64, []byte]()
	register.Iter1[string]()
	register.Iter1[[]byte]()
	register.Iter1[int]()
	register.Iter1[sitePlan]()
	register.Iter2[int, int]()
}

func fileKV(f fileRef) (int, string) { return f.Index, f.Path }
func shardKV(i int) (int, int)       { return i, i }
func noSites(i int) (int, []byte)    { return i, nil }

// Build adds a job to the scope: the WARC files at paths (in manifest
// order, as winnow run would take them on its command line) become the
// shards records-*.jsonl[.gz] in the folder output (any filesystem
// Beam's Go SDK has), whose records are those of winnow run (--dedup
// when set.Dedup is set) on the same files. See the package comment for
// the stages.
func Build(s beam.Scope, paths []string, output string, set Settings) error {
	if err := set.Validate(); err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("winnowbeam: no input files")
	}
	s = s.Scope("winnow")
	refs := make([]fileRef, len(paths))
	for i, p := range paths {
		refs[i] = fileRef{Index: i, Path: p}
	}
	// One file per element, spread over the workers.
	files := beam.Reshuffle(s, beam.CreateList(s, refs))
	fileByIndex := beam.ParDo(s, fileKV, files)

	pages, counts := beam.ParDo2(s.Scope("scan"), &scanFn{Conf: newConf(set)}, files)
	var sites, typical beam.PCollection
	if set.SinglePage {
		none := beam.CreateList(s, []int{})
		sites = beam.ParDo(s, noSites, none)   // no templates
		typical = beam.ParDo(s, shardKV, none) // no typical rule lengths
	} else {
		ts := s.Scope("templates")
		opts, _ := set.options() // Validate compiled them
		plans := beam.CombinePerKey(ts, &siteCombine{Cap: opts.SitePageCap()}, pages)
		reqs := beam.ParDo(ts, &requestFn{}, plans)
		samples, words := beam.ParDo2(ts, &sampleFn{Conf: newConf(set)}, beam.CoGroupByKey(ts, fileByIndex, reqs))
		typical = beam.ParDo(ts, typicalFn, beam.GroupByKey(ts, words))
		sites = beam.ParDo(ts, &learnFn{Conf: newConf(set)}, beam.CoGroupByKey(ts, plans, samples))
	}
	rs := s.Scope("records")
	recs, keys := beam.ParDo2(rs, &recordFn{Conf: newConf(set)}, beam.CoGroupByKey(rs, fileByIndex, sites),
		beam.SideInput{Input: counts}, beam.SideInput{Input: typical})
	shards := set.shards()
	if set.Dedup != nil {
		ds := s.Scope("dedup")
		links := beam.ParDo(ds, &edgesFn{Conf: newConf(set)}, beam.GroupByKey(ds, keys))
		comps := components(ds, links, set.componentRounds(len(paths)))
		recs = beam.ParDo(ds, &assignFn{Shards: shards}, beam.CoGroupByKey(ds, recs, comps))
	}
	all := make([]int, shards)
	for i := range all {
		all[i] = i
	}
	ws := s.Scope("write")
	shardList := beam.ParDo(ws, shardKV, beam.CreateList(ws, all))
	beam.ParDo0(ws, &writeFn{Conf: newConf(set), Output: output}, beam.CoGroupByKey(ws, shardList, recs))
	return nil
}
