package winnowbeam

import (
	"context"
	"math/bits"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// The linked components of the candidate links are found by Beam
// transforms, spread over the workers like every other stage: the
// alternating large-star and small-star rounds of Kiveris et al.,
// "Connected Components in MapReduce and Beyond" (SoCC 2014), section
// 3 (two-phase algorithm), unrolled for a fixed number of rounds. Both
// operations keep the components and shrink each towards a star around
// its least record; once every component is such a star, each record's
// least neighbour (or itself) names its component. A graph that has not
// converged after the rounds leaves a few links between records given
// different names (the residual), whose names are joined on one worker
// (counters components.rounds and components.residual).

// recordsPerFile guesses a WARC file's records when the rounds are
// chosen, before any file is read: a Common Crawl WARC file holds about
// 35,000 records (three per page).
const recordsPerFile = 35000

// componentRounds is the number of large-star/small-star rounds for a
// job over files WARC files: log2 of the records expected, the
// O(log n) rounds the paper observes (section 6), at least 2.
func componentRounds(files int) int {
	return max(2, bits.Len(uint(files*recordsPerFile)))
}

var (
	componentRoundsCounter = beam.NewCounter("winnow", "components.rounds")
	residualCounter        = beam.NewCounter("winnow", "components.residual")
)

// components takes the links (KV<int,int>: two records, either way)
// and gives each linked record its component (KV<int,int>: the record
// and the least record of its component).
func components(s beam.Scope, links beam.PCollection, rounds int) beam.PCollection {
	s = s.Scope("components")
	beam.ParDo0(s, countRoundsFn, beam.Create(s, rounds))
	for range rounds {
		links = beam.ParDo(s, largeStarFn, beam.GroupByKey(s, beam.ParDo(s, bothWaysFn, links)))
		links = beam.ParDo(s, smallStarFn, beam.GroupByKey(s, beam.ParDo(s, bothWaysFn, links)))
	}
	labels, told := beam.ParDo2(s, labelFn, beam.GroupByKey(s, beam.ParDo(s, bothWaysFn, links)))
	residual := beam.ParDo(s, residualLinksFn, beam.CoGroupByKey(s, labels, told))
	joined := beam.ParDo(s, joinLabelsFn, beam.GroupByKey(s, residual))
	return beam.ParDo(s, &relabelFn{}, labels, beam.SideInput{Input: joined})
}

func countRoundsFn(ctx context.Context, n int) { componentRoundsCounter.Inc(ctx, int64(n)) }

// bothWaysFn sends a link to both its records.
func bothWaysFn(ctx context.Context, a, b int, emit func(int, int)) {
	shuffled(ctx, stageDedup, 32)
	emit(a, b)
	emit(b, a)
}

// neighbours collects a record's distinct neighbours, in order, and the
// least of them and the record.
func neighbours(u int, nbrs func(*int) bool) (all []int, least int) {
	var v int
	for nbrs(&v) {
		all = append(all, v)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	least = u
	if len(all) > 0 {
		least = min(u, all[0])
	}
	return all, least
}

// largeStarFn links each larger neighbour of u to the least of u's
// neighbourhood (u included).
func largeStarFn(u int, nbrs func(*int) bool, emit func(int, int)) {
	all, m := neighbours(u, nbrs)
	for _, v := range all {
		if v > u {
			emit(v, m)
		}
	}
}

// smallStarFn links u and each smaller neighbour of u to the least of
// them.
func smallStarFn(u int, nbrs func(*int) bool, emit func(int, int)) {
	all, m := neighbours(u, nbrs)
	for _, v := range all {
		if v < u && v != m {
			emit(v, m)
		}
	}
	if u != m {
		emit(u, m)
	}
}

// labelFn names each record by the least of its neighbourhood (its
// component, once the component is a star) and tells its neighbours.
func labelFn(ctx context.Context, u int, nbrs func(*int) bool, emitLabel func(int, int), emitTold func(int, int)) {
	all, m := neighbours(u, nbrs)
	shuffled(ctx, stageDedup, 16*(1+len(all)))
	emitLabel(u, m)
	for _, v := range all {
		emitTold(v, m)
	}
}

// residualLinksFn sends the names of a record and of a neighbour that
// differ (a component that is not yet a star) to the one worker that
// joins them.
func residualLinksFn(ctx context.Context, u int, labels func(*int) bool, told func(*int) bool, emit func(int, []byte)) {
	var own, t int
	labels(&own)
	for told(&t) {
		if t != own {
			residualCounter.Inc(ctx, 1)
			e := encodeKeyed(min(own, t), 0, false)
			e = append(e, encodeKeyed(max(own, t), 0, false)...)
			shuffled(ctx, stageDedup, len(e)+8)
			emit(0, e)
		}
	}
}

// joinLabelsFn joins the names linked by residual links (union-find on
// one worker) and gives each joined name the least name of its set.
func joinLabelsFn(ctx context.Context, _ int, pairs func(*[]byte) bool, emit func(int, int)) error {
	var ends [][2]int
	var names []int
	var b []byte
	for pairs(&b) {
		d := dec{b: b}
		a, c := d.int(), d.int()
		if d.err != nil {
			return d.err
		}
		ends = append(ends, [2]int{a, c})
		names = append(names, a, c)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	u := newUnionFind(len(names))
	at := func(x int) int { i, _ := slices.BinarySearch(names, x); return i }
	for _, e := range ends {
		u.union(at(e[0]), at(e[1]))
	}
	for i, name := range names {
		if r := names[u.find(i)]; r != name {
			shuffled(ctx, stageDedup, 16)
			emit(name, r)
		}
	}
	return nil
}

// relabelFn gives each record its component: its name, or the name
// that name was joined to.
type relabelFn struct {
	joined map[int]int // the side input, which never changes
}

func (f *relabelFn) ProcessElement(ctx context.Context, u, label int, joined func(*int, *int) bool, emit func(int, int)) {
	if f.joined == nil {
		f.joined = map[int]int{}
		var a, b int
		for joined(&a, &b) {
			f.joined[a] = b
		}
	}
	if r, ok := f.joined[label]; ok {
		label = r
	}
	shuffled(ctx, stageDedup, 16)
	emit(u, label)
}
