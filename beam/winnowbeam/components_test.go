package winnowbeam

import (
	"cmp"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
)

// pathNodes is the length of the test's path graph.
const pathNodes = 1000

// pathLink is link i of a path through every node, in an order far
// from the nodes' (7919 is prime to pathNodes), so that stars form
// slowly; node 0 lies mid-path.
func pathLink(i int) (int, int) {
	return (i * 7919) % pathNodes, ((i + 1) * 7919) % pathNodes
}

// inComponentZero fails unless a node's component is 0, the least node.
func inComponentZero(u, c int) error {
	if c != 0 {
		return fmt.Errorf("node %d in component %d, want 0", u, c)
	}
	return nil
}

func init() {
	register.Function1x2(pathLink)
	register.Function2x1(inComponentZero)
}

// numbers are 0..n-1: the numbers of a test's links.
func numbers(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}

// TestComponentsPath: a path of 1,000 nodes is one component whatever
// the rounds; one round leaves links to join on one worker (the
// residual), the default rounds none: the path becomes a star, which a
// later round names final.
func TestComponentsPath(t *testing.T) {
	ids := numbers(pathNodes - 1)
	for _, rounds := range []int{1, 3, componentRounds(1)} {
		t.Run(strconv.Itoa(rounds), func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			comps := components(s, beam.ParDo(s, pathLink, beam.CreateList(s, ids)), rounds)
			beam.ParDo0(s, inComponentZero, comps)
			passert.Count(s, comps, "nodes", pathNodes)
			counters := runCounters(t, p)
			residual, final := counters["components.residual"], counters["components.final"]
			t.Logf("%d rounds: %d residual links, %d nodes named by a final star", rounds, residual, final)
			if rounds == 1 && (residual == 0 || final != 0) {
				t.Error("one round left no residual or found a final star: the test does not exercise the residual")
			}
			if rounds == componentRounds(1) && (residual != 0 || final != pathNodes) {
				t.Errorf("%d rounds left %d residual links and named %d nodes by a final star, on a path of %d nodes (want 0 and all)",
					rounds, residual, final, pathNodes)
			}
		})
	}
}

// randomLinks are the links of TestComponentsRandom: short links along
// a line of nodes (paths and trees, in no order) and stars around
// centres larger and smaller than their leaves, drawn from a fixed seed.
func randomLinks() [][2]int {
	r := rand.New(rand.NewPCG(17, 2014))
	var links [][2]int
	for range 1500 {
		a := r.IntN(randomNodes)
		links = append(links, [2]int{a, (a + 1 + r.IntN(12)) % randomNodes})
	}
	for range 60 {
		c := r.IntN(randomNodes)
		for range 1 + r.IntN(8) {
			links = append(links, [2]int{r.IntN(randomNodes), c})
		}
	}
	return links
}

const randomNodes = 4000

// randomLink is link i of randomLinks.
func randomLink(i int) (int, int) {
	l := randomLinks()[i]
	return l[0], l[1]
}

// checkComponentFn fails unless a node's component is the least node
// of its component by union-find over randomLinks.
type checkComponentFn struct {
	want []int
}

func (f *checkComponentFn) Setup() {
	u := newUnionFind(randomNodes)
	for _, l := range randomLinks() {
		u.union(l[0], l[1])
	}
	f.want = make([]int, randomNodes)
	for i := range f.want {
		f.want[i] = u.find(i)
	}
}

func (f *checkComponentFn) ProcessElement(u, c int) error {
	if c != f.want[u] {
		return fmt.Errorf("node %d in component %d, want %d", u, c, f.want[u])
	}
	return nil
}

func init() {
	register.Function1x2(randomLink)
	register.DoFn2x1[int, int, error](&checkComponentFn{})
}

// TestComponentsRandom: paths, trees and stars of every shape get the
// components union-find gives them, with the rounds cut short (a
// residual) and with the default rounds (final stars), each linked node
// once.
func TestComponentsRandom(t *testing.T) {
	links := randomLinks()
	nodes := map[int]bool{}
	for _, l := range links {
		nodes[l[0]], nodes[l[1]] = true, true
	}
	ids := numbers(len(links))
	for _, rounds := range []int{1, 2, componentRounds(1)} {
		t.Run(strconv.Itoa(rounds), func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			comps := components(s, beam.ParDo(s, randomLink, beam.CreateList(s, ids)), rounds)
			beam.ParDo0(s, &checkComponentFn{}, comps)
			passert.Count(s, beam.DropValue(s, comps), "nodes", len(nodes))
			passert.Count(s, filter.Distinct(s, beam.DropValue(s, comps)), "distinct nodes", len(nodes))
			counters := runCounters(t, p)
			t.Logf("%d rounds over %d nodes: %d residual links, %d nodes named by a final star",
				rounds, len(nodes), counters["components.residual"], counters["components.final"])
			if rounds == componentRounds(1) && counters["components.final"] == 0 {
				t.Error("no final star: the test does not exercise them")
			}
		})
	}
}

// TestLinkNear: the records under one SimHash key form the components
// of their pairs within K bits, each rooted at its least record, and
// copies of one fingerprint (a crawl's error page) are linked without
// being compared: 20,000 copies cost no comparison, not 200 million.
func TestLinkNear(t *testing.T) {
	const copies = 20000
	var all []keyed
	for i := range copies {
		all = append(all, keyed{ID: 10 + i, FP: 0xdead})
	}
	// Two records within a bit of the copies' fingerprint and of each
	// other, one far from every other.
	all = append(all, keyed{ID: 3, FP: 0xdeac}, keyed{ID: 5, FP: 0xdeaf}, keyed{ID: 7, FP: 0xffff0000})
	slices.SortFunc(all, func(a, b keyed) int { return cmp.Compare(a.ID, b.ID) })
	compared := 0
	near := func(a, b uint64) bool {
		compared++
		return bits.OnesCount64(a^b) <= 1
	}
	u := linkNear(all, near)
	for i, r := range all {
		root := all[u.find(i)].ID
		want := 3
		if r.ID == 7 {
			want = 7
		}
		if root != want {
			t.Fatalf("record %d (%x) in the component of %d, want %d", r.ID, r.FP, root, want)
		}
	}
	// Four distinct fingerprints: at most six comparisons.
	if compared > 6 {
		t.Errorf("%d comparisons of fingerprints for 4 distinct ones", compared)
	}
}
