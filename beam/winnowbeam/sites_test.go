package winnowbeam

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/winnow-go/winnow/infholder"
)

// TestSiteFiles: the site combiner keeps, per file, the directories of
// the file's pages whatever the order it merges in, and each file is
// sent the groups of those directories and their templates only.
func TestSiteFiles(t *testing.T) {
	c := &siteCombine{Cap: 80}
	var refs [][]byte
	// Directory d of the site has pages in files d%3 and (d+1)%3 only,
	// enough of them to be a group of its own.
	for d := range 6 {
		for _, f := range []int{d % 3, (d + 1) % 3} {
			for i := range 10 {
				url := fmt.Sprintf("https://a.example/d%d/p%d-%d", d, f, i)
				refs = append(refs, encodePageRef(pageRef{At: place{f, 100*d + i}, URL: url}))
			}
		}
	}
	fold := func(order []int) sitePlan {
		halves := [2]siteAcc{c.CreateAccumulator(), c.CreateAccumulator()}
		for k, i := range order {
			halves[k%2] = c.AddInput(halves[k%2], refs[i])
		}
		return c.ExtractOutput(c.MergeAccumulators(halves[1], halves[0]))
	}
	order := make([]int, len(refs))
	for i := range order {
		order[i] = i
	}
	p := fold(order)
	slices.Reverse(order)
	if q := fold(order); fmt.Sprint(q) != fmt.Sprint(p) {
		t.Fatalf("the plan depends on the order of merging:\n%v\n%v", p, q)
	}
	want := map[int][]string{0: {"d0", "d2", "d3", "d5"}, 1: {"d0", "d1", "d3", "d4"}, 2: {"d1", "d2", "d4", "d5"}}
	if !maps.EqualFunc(p.Files, want, slices.Equal) {
		t.Fatalf("files %v, want %v", p.Files, want)
	}
	if groups := slices.Compact(slices.Sorted(maps.Values(p.Groups))); len(groups) != 6 {
		t.Fatalf("groups %v: want one a directory", p.Groups)
	}
	// One template a group, named after the group.
	tpls := map[string]*infholder.Template{}
	for _, g := range p.Groups {
		tpls[g] = &infholder.Template{Group: g}
	}
	for f, dirs := range want {
		st := p.forFile("a.example", f, tpls)
		if got := slices.Sorted(maps.Keys(st.Groups)); !slices.Equal(got, dirs) {
			t.Errorf("file %d is sent the groups of %v, want %v", f, got, dirs)
		}
		for g, tpl := range st.Templates {
			if !slices.ContainsFunc(dirs, func(d string) bool { return p.Groups[d] == g }) || tpl.Group != g {
				t.Errorf("file %d is sent the template of group %q, which none of its directories is in", f, g)
			}
		}
		for _, d := range dirs {
			if st.Templates[p.Groups[d]] == nil {
				t.Errorf("file %d is not sent the template of its directory %s (group %q)", f, d, p.Groups[d])
			}
		}
	}
}

// TestSiteSampleBound: whatever the order pages arrive and accumulators
// merge in, the combiner keeps a site's Cap first pages by place (the
// pages winnow run's pass 1 would sample, in its input order) and no
// more: the template stage's sample is bounded per site.
func TestSiteSampleBound(t *testing.T) {
	c := &siteCombine{Cap: 80}
	var all []place
	for f := range 5 {
		for r := range 40 {
			all = append(all, place{f, r})
		}
	}
	// Pages in a scrambled order over three accumulators.
	accs := []siteAcc{c.CreateAccumulator(), c.CreateAccumulator(), c.CreateAccumulator()}
	for i := range all {
		at := all[(i*77)%len(all)] // 77 is prime to 200: every page once
		url := fmt.Sprintf("https://a.example/f%d/r%d", at.File, at.Rec)
		accs[i%3] = c.AddInput(accs[i%3], encodePageRef(pageRef{At: at, URL: url}))
	}
	p := c.ExtractOutput(c.MergeAccumulators(c.MergeAccumulators(accs[2], accs[0]), accs[1]))
	if len(p.First) != c.Cap {
		t.Fatalf("the site's sample holds %d pages of %d, want the cap %d", len(p.First), len(all), c.Cap)
	}
	for i, r := range p.First {
		if r.At != all[i] {
			t.Fatalf("sampled page %d is at %v, want %v (the first %d pages by place)", i, r.At, all[i], c.Cap)
		}
	}
}
