package winnowbeam

import (
	"cmp"
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
//
// Three things keep the shuffle near a few links a linked record,
// whatever the rounds:
//
//   - The candidate keys link a record to the least record of each key
//     it shares (up to one link a MinHash band, 18 with the defaults,
//     mostly to the same record). Before the rounds each record's links
//     go to the record alone (not both ways) and become one star around
//     the least of them: the duplicates stop there.
//   - The small-star operation reads only a record's smaller neighbours
//     (the least of them is the least of its neighbourhood), so the
//     links into it go to their larger record only.
//   - A component that is already a star is named and leaves the
//     rounds (counter components.final). The large-star operation sees
//     a record whose only neighbour is smaller (a leaf), and tells that
//     neighbour and the record; and a record whose neighbours are all
//     larger (a centre), and tells it how many. The small-star operation
//     that follows names a centre's star final when all its neighbours
//     told it that they are its leaves: the component is then that star,
//     which both operations leave as it is (the paper's fixed point), so
//     dropping it changes no record's component. A leaf of a centre gets
//     exactly one link from the large-star operation, to the centre, and
//     would send back only that link: the centre sends it instead (when
//     the star is not final), since the centre alone knows whether it is.

// recordsPerFile guesses a WARC file's records when the rounds are
// chosen, before any file is read: a Common Crawl WARC file holds about
// 35,000 records (three per page).
const recordsPerFile = 35000

// componentRounds is the number of large-star/small-star rounds for a
// job over files WARC files: log2 of the records expected, the
// O(log n) rounds the paper observes (section 6), at least 2. A round
// after every component has converged shuffles nothing.
func componentRounds(files int) int {
	return max(2, bits.Len(uint(files*recordsPerFile)))
}

var (
	componentRoundsCounter = beam.NewCounter("winnow", "components.rounds")
	residualCounter        = beam.NewCounter("winnow", "components.residual")
	finalCounter           = beam.NewCounter("winnow", "components.final")
)

// components takes the links (KV<int,int>: two records, either way)
// and gives each linked record its component (KV<int,int>: the record
// and the least record of its component).
func components(s beam.Scope, links beam.PCollection, rounds int) beam.PCollection {
	s = s.Scope("components")
	beam.ParDo0(s, countRoundsFn, beam.Create(s, rounds))
	links = beam.ParDo(s, starFn, beam.GroupByKey(s, beam.ParDo(s, largerFirstFn, links)))
	var named []beam.PCollection
	for range rounds {
		told := beam.ParDo(s, largeStarFn, beam.GroupByKey(s, beam.ParDo(s, bothWaysFn, links)))
		var final beam.PCollection
		links, final = beam.ParDo2(s, smallStarFn, beam.GroupByKey(s, told))
		named = append(named, final)
	}
	labels, told := beam.ParDo2(s, labelFn, beam.GroupByKey(s, beam.ParDo(s, bothWaysFn, links)))
	residual := beam.ParDo(s, residualLinksFn, beam.CoGroupByKey(s, labels, told))
	joined := beam.ParDo(s, joinLabelsFn, beam.GroupByKey(s, residual))
	named = append(named, beam.ParDo(s, &relabelFn{}, labels, beam.SideInput{Input: joined}))
	return beam.Flatten(s, named...)
}

func countRoundsFn(ctx context.Context, n int) { componentRoundsCounter.Inc(ctx, int64(n)) }

// largerFirstFn sends a link to its larger record only.
func largerFirstFn(ctx context.Context, a, b int) (int, int) {
	shuffled(ctx, stageDedup, 16)
	return max(a, b), min(a, b)
}

// starFn is the small-star operation on links sent to their larger
// record only, which is all that operation reads of a record's
// neighbourhood: the links a record got from its candidate keys become
// one star around the least of them.
func starFn(u int, nbrs func(*int) bool, emit func(int, int)) {
	h := gather(u, nbrs)
	h.smallStar(u, emit)
}

// bothWaysFn sends a link to both its records.
func bothWaysFn(ctx context.Context, a, b int, emit func(int, int)) {
	shuffled(ctx, stageDedup, 32)
	emit(a, b)
	emit(b, a)
}

// What the large-star operation tells the small-star operation about
// the graph it read, beside the links (a record's neighbours are never
// negative: these values are).
const (
	tellLeaf   = iota // to v: u is your leaf (u's only neighbour is v, smaller)
	tellParent        // to u: your only neighbour, v, is smaller
	tellCentre        // to u: your n neighbours are all larger
	tellKinds
)

// tell encodes a message of kind about record (or number) x.
func tell(kind, x int) int { return -1 - (tellKinds*x + kind) }

// hood is a record's neighbourhood in one operation: its distinct
// neighbours, in order; the least of them and the record; and what the
// large-star operation told it.
type hood struct {
	nbrs   []int
	least  int
	leaves []int // records whose only neighbour this record was
	parent int   // the only neighbour, when smaller; -1 if not
	centre bool  // every neighbour was larger
	degree int   // how many, when centre
}

func gather(u int, vals func(*int) bool) hood {
	h := hood{parent: -1}
	var v int
	for vals(&v) {
		if v >= 0 {
			h.nbrs = append(h.nbrs, v)
			continue
		}
		switch w := -1 - v; w % tellKinds {
		case tellLeaf:
			h.leaves = append(h.leaves, w/tellKinds)
		case tellParent:
			h.parent = w / tellKinds
		case tellCentre:
			h.centre, h.degree = true, w/tellKinds
		}
	}
	slices.Sort(h.nbrs)
	h.nbrs = slices.Compact(h.nbrs)
	slices.Sort(h.leaves)
	h.leaves = slices.Compact(h.leaves)
	h.least = u
	if len(h.nbrs) > 0 {
		h.least = min(u, h.nbrs[0])
	}
	return h
}

// smallStar links u and each smaller neighbour of u to the least of
// them.
func (h hood) smallStar(u int, emit func(int, int)) {
	for _, v := range h.nbrs {
		if v < u && v != h.least {
			emit(v, h.least)
		}
	}
	if u != h.least {
		emit(u, h.least)
	}
}

// largeStarFn links each larger neighbour of u to the least of u's
// neighbourhood (u included), and tells u's only neighbour when it is
// smaller (u is its leaf), or u when its neighbours are all larger (u
// may centre a star). The links go to their larger record only: the
// small-star operation reads no more.
func largeStarFn(ctx context.Context, u int, nbrs func(*int) bool, emit func(int, int)) {
	h := gather(u, nbrs)
	send := func(to, v int) {
		shuffled(ctx, stageDedup, 16)
		emit(to, v)
	}
	for _, v := range h.nbrs {
		if v > u {
			send(v, h.least)
		}
	}
	switch {
	case len(h.nbrs) == 1 && h.nbrs[0] < u:
		send(h.nbrs[0], tell(tellLeaf, u))
		send(u, tell(tellParent, h.nbrs[0]))
	case h.least == u:
		send(u, tell(tellCentre, len(h.nbrs)))
	}
}

// smallStarFn is the small-star operation at u (h.smallStar), except
// that it names a star final when u centres it and every neighbour
// of u is u's leaf, and sends the links of the leaves of a centre for
// them.
func smallStarFn(ctx context.Context, u int, vals func(*int) bool, emit func(int, int), emitFinal func(int, int)) {
	h := gather(u, vals)
	if len(h.nbrs) == 1 && h.nbrs[0] == h.parent {
		// u's only neighbour was its parent, and the parent centres a
		// star (it linked u to itself): the parent speaks for u.
		return
	}
	if h.centre && len(h.leaves) == h.degree {
		finalCounter.Inc(ctx, int64(1+len(h.leaves)))
		shuffled(ctx, stageDedup, 16*(1+len(h.leaves)))
		emitFinal(u, u)
		for _, v := range h.leaves {
			emitFinal(v, u)
		}
		return
	}
	h.smallStar(u, emit)
	if h.centre {
		for _, v := range h.leaves {
			emit(v, u) // what the leaf, whose only neighbour is u, would send
		}
	}
}

// labelFn names each record by the least of its neighbourhood (its
// component, once the component is a star) and tells its neighbours.
func labelFn(ctx context.Context, u int, nbrs func(*int) bool, emitLabel func(int, int), emitTold func(int, int)) {
	h := gather(u, nbrs)
	shuffled(ctx, stageDedup, 16*(1+len(h.nbrs)))
	emitLabel(u, h.least)
	for _, v := range h.nbrs {
		emitTold(v, h.least)
	}
}

// residualLinksFn sends the names of a record and of a neighbour that
// differ (a component that is not yet a star) to the one worker that
// joins them, each name told once; joinLabelsFn counts the distinct
// links (both ends send one).
func residualLinksFn(ctx context.Context, u int, labels func(*int) bool, told func(*int) bool, emit func(int, []byte)) {
	var own, t int
	labels(&own)
	var others []int // the names told that differ from own, once each
	for told(&t) {
		if t != own {
			others = append(others, t)
		}
	}
	slices.Sort(others)
	for _, t := range slices.Compact(others) {
		e := encodeKeyed(min(own, t), 0, false)
		e = append(e, encodeKeyed(max(own, t), 0, false)...)
		shuffled(ctx, stageDedup, len(e)+8)
		emit(0, e)
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
	// Both ends of a link send it: the counter counts each link once.
	slices.SortFunc(ends, func(x, y [2]int) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	ends = slices.Compact(ends)
	residualCounter.Inc(ctx, int64(len(ends)))
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
