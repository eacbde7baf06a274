package winnowbeam

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
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

// TestComponentsPath: a path of 1,000 nodes is one component whatever
// the rounds; one round leaves links to join on one worker (the
// residual), the default rounds none: the path becomes a star, which a
// later round names final.
func TestComponentsPath(t *testing.T) {
	ids := make([]int, pathNodes-1)
	for i := range ids {
		ids[i] = i
	}
	for _, rounds := range []int{1, 3, componentRounds(1)} {
		t.Run(strconv.Itoa(rounds), func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			comps := components(s, beam.ParDo(s, pathLink, beam.CreateList(s, ids)), rounds)
			beam.ParDo0(s, inComponentZero, comps)
			passert.Count(s, comps, "nodes", pathNodes)
			res, err := ptest.RunWithMetrics(p)
			if err != nil {
				t.Fatal(err)
			}
			counters := map[string]int64{}
			for _, c := range res.Metrics().AllMetrics().Counters() {
				if c.Namespace() == "winnow" {
					counters[c.Name()] += c.Result()
				}
			}
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
