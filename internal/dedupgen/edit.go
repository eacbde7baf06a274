package dedupgen

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnow-go/winnow/internal/textseg"
)

// Edit kinds, in the order they are made when a copy has several: the
// text's own edits, then a trailer, then a reprint's boilerplate around
// it all.
const (
	EditAdd     = "add"     // sentences added
	EditDrop    = "drop"    // sentences dropped
	EditReplace = "replace" // sentences replaced by others
	EditSwap    = "swap"    // pairs of sentences swapped
	EditWords   = "words"   // one to three words changed
	EditTrailer = "trailer" // one or two lines appended (copyright, share, source)
	EditReprint = "reprint" // another site's header and footer around the text
)

// EditKinds lists the edit kinds in the order they are made.
var EditKinds = []string{EditAdd, EditDrop, EditReplace, EditSwap, EditWords, EditTrailer, EditReprint}

// MinCopyJaccard is the least Jaccard of a copy with its original.
const MinCopyJaccard = 0.5

// primaryKinds are the main edit of a copy, with their weights (out of
// 100). Reprints come first, as the commonest near-duplicate of the web.
var primaryKinds = []struct {
	kind   string
	weight int
}{
	{EditReprint, 25}, {EditAdd, 15}, {EditDrop, 15}, {EditReplace, 15},
	{EditWords, 12}, {EditTrailer, 10}, {EditSwap, 8},
}

// scalable reports whether the size of an edit kind is searched for, to
// aim the copy's Jaccard at a target; the other kinds have a small random
// size.
func scalable(kind string) bool {
	switch kind {
	case EditAdd, EditDrop, EditReplace, EditReprint:
		return true
	}
	return false
}

// copyPlan is what a copy will be: its edit kinds, each with a random
// stream of its own so that a larger size only adds edits to a smaller
// one, and the Jaccard the main edit aims at.
type copyPlan struct {
	kinds  []string
	seeds  map[string]uint64
	target float64
	site   int // the copy's site (a reprint's host)
}

// makeCopy builds copy m of family j.
func (g *Generator) makeCopy(j, m int) (*draft, []string) {
	orig := g.base(tagBase, uint64(4*j))
	r := g.rng(tagCopy, uint64(4*j+m))
	plan := g.plan(r, orig)
	origHashes := shingleHashes(orig.render())
	jac := func(k int) (*draft, float64) {
		d := g.applyPlan(orig, plan, k)
		return d, hashJaccard(origHashes, shingleHashes(d.render()))
	}
	if !scalable(plan.kinds[0]) {
		d, jv := jac(0)
		if jv >= MinCopyJaccard && jv < 1 {
			return d, plan.sorted()
		}
		return g.fallback(orig, plan)
	}
	hi := g.maxSize(orig, plan)
	d, jv := jac(1)
	if jv < MinCopyJaccard || jv == 1 {
		return g.fallback(orig, plan)
	}
	// The largest size whose Jaccard still reaches the target: the
	// Jaccard falls (nearly always) as the size grows.
	lo := 1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if md, mj := jac(mid); mj >= plan.target {
			lo, d = mid, md
		} else {
			hi = mid - 1
		}
	}
	return d, plan.sorted()
}

// fallback makes the copy with one changed word when the planned edits
// take too much of a short text.
func (g *Generator) fallback(orig *draft, plan copyPlan) (*draft, []string) {
	plan.kinds = []string{EditWords}
	return g.applyPlanSized(orig, plan, 0, 1), []string{EditWords}
}

// plan draws a copy's edits: a main kind, with probability 0.35 a light
// second one (words, trailer or swap), and a target Jaccard uniform in
// [MinCopyJaccard, 1).
func (g *Generator) plan(r *rand.Rand, orig *draft) copyPlan {
	p := copyPlan{seeds: map[string]uint64{}}
	x := r.IntN(100)
	for _, pk := range primaryKinds {
		if x < pk.weight {
			p.kinds = append(p.kinds, pk.kind)
			break
		}
		x -= pk.weight
	}
	if r.Float64() < 0.35 {
		light := []string{EditWords, EditTrailer, EditSwap}
		if k := light[r.IntN(len(light))]; k != p.kinds[0] {
			p.kinds = append(p.kinds, k)
		}
	}
	p.target = MinCopyJaccard + (1-MinCopyJaccard)*r.Float64()
	for _, k := range EditKinds {
		p.seeds[k] = r.Uint64()
	}
	p.site = orig.site
	if slices.Contains(p.kinds, EditReprint) || r.IntN(2) == 0 {
		for p.site == orig.site {
			p.site = r.IntN(g.sites)
		}
	}
	return p
}

// sorted returns the plan's kinds in the order they are made.
func (p copyPlan) sorted() []string {
	var out []string
	for _, k := range EditKinds {
		if slices.Contains(p.kinds, k) {
			out = append(out, k)
		}
	}
	return out
}

// maxSize is the largest size of the plan's main edit.
func (g *Generator) maxSize(orig *draft, p copyPlan) int {
	n := orig.sentences()
	switch p.kinds[0] {
	case EditDrop:
		return max(1, n-3)
	case EditReprint:
		return 8
	}
	return n
}

// applyPlan makes the planned copy with size k for the main edit (k is
// ignored when the main edit is not scalable).
func (g *Generator) applyPlan(orig *draft, p copyPlan, k int) *draft {
	return g.applyPlanSized(orig, p, k, 0)
}

// applyPlanSized makes the planned copy: the main edit at size k (a
// light main edit draws its own size unless fixed > 0) and the second
// edit at its drawn size, in the order of EditKinds.
func (g *Generator) applyPlanSized(orig *draft, p copyPlan, k, fixed int) *draft {
	d := orig.clone()
	d.site = p.site
	for _, kind := range p.sorted() {
		r := rand.New(rand.NewPCG(p.seeds[kind], uint64(len(kind))))
		size := k
		if kind != p.kinds[0] || !scalable(kind) {
			size = lightSize(r, kind)
			if fixed > 0 && kind == p.kinds[0] {
				size = fixed
			}
		}
		g.edit(d, r, kind, size)
	}
	return d
}

// lightSize draws the size of a light edit: 1-3 words or swaps, 1-2
// trailer lines.
func lightSize(r *rand.Rand, kind string) int {
	if kind == EditTrailer {
		return 1 + r.IntN(2)
	}
	return 1 + r.IntN(3)
}

func (g *Generator) edit(d *draft, r *rand.Rand, kind string, k int) {
	lp := g.pool.langs[d.lang]
	for range k {
		switch kind {
		case EditAdd:
			d.insert(r, lp.sents[r.IntN(len(lp.sents))])
		case EditDrop:
			if d.sentences() > 3 {
				d.remove(r.IntN(d.sentences()))
			}
		case EditReplace:
			d.set(r.IntN(d.sentences()), lp.sents[r.IntN(len(lp.sents))])
		case EditWords:
			changeWord(d, r, lp)
		}
	}
	switch kind {
	case EditSwap:
		d.swap(r, k)
	case EditTrailer:
		st := g.site(d.lang, d.site)
		v := vocabFor(lp.code)
		for _, t := range pickWords(r, v.trailers, k) {
			t = strings.NewReplacer("{site}", st.name, "{host}", st.host, "{year}", strconv.Itoa(2005+r.IntN(20))).Replace(t)
			d.paras = append(d.paras, []string{t})
		}
	case EditReprint:
		wrap(d, g.site(d.lang, d.site), k)
	}
}

// wrap puts the first k lines of the site's boilerplate around the text,
// each block in its own order.
func wrap(d *draft, st site, k int) {
	lines := slices.Clone(st.lines[:min(k, len(st.lines))])
	slices.SortStableFunc(lines, func(a, b siteLine) int { return a.order - b.order })
	var head, foot [][]string
	for _, l := range lines {
		if l.header {
			head = append(head, []string{l.text})
		} else {
			foot = append(foot, []string{l.text})
		}
	}
	d.paras = append(append(head, d.paras...), foot...)
}

// sentences counts the draft's sentences.
func (d *draft) sentences() int {
	n := 0
	for _, p := range d.paras {
		n += len(p)
	}
	return n
}

// locate returns the paragraph and index of sentence i.
func (d *draft) locate(i int) (int, int) {
	for pi, p := range d.paras {
		if i < len(p) {
			return pi, i
		}
		i -= len(p)
	}
	panic("dedupgen: sentence index out of range")
}

func (d *draft) set(i int, s string) {
	pi, si := d.locate(i)
	d.paras[pi][si] = s
}

func (d *draft) remove(i int) {
	pi, si := d.locate(i)
	d.paras[pi] = slices.Delete(d.paras[pi], si, si+1)
	if len(d.paras[pi]) == 0 {
		d.paras = slices.Delete(d.paras, pi, pi+1)
	}
}

// insert puts s into a random paragraph after the headline, or (one time
// in three) as a paragraph of its own.
func (d *draft) insert(r *rand.Rand, s string) {
	pi := 1 + r.IntN(len(d.paras))
	if pi == len(d.paras) || r.IntN(3) == 0 {
		d.paras = slices.Insert(d.paras, pi, []string{s})
		return
	}
	p := d.paras[pi]
	d.paras[pi] = slices.Insert(p, r.IntN(len(p)+1), s)
}

// swap exchanges k pairs of sentences, no sentence twice, so one swap
// never undoes another.
func (d *draft) swap(r *rand.Rand, k int) {
	order := r.Perm(d.sentences())
	for i := 0; i < k && 2*i+1 < len(order); i++ {
		pi, si := d.locate(order[2*i])
		pj, sj := d.locate(order[2*i+1])
		d.paras[pi][si], d.paras[pj][sj] = d.paras[pj][sj], d.paras[pi][si]
	}
}

// changeWord replaces one word of a random sentence with a word of
// another sentence of the pool (in CJK text, one character with a
// character), keeping an initial capital.
func changeWord(d *draft, r *rand.Rand, lp *langPool) {
	for range 20 {
		pi, si := d.locate(r.IntN(d.sentences()))
		s := d.paras[pi][si]
		var spans [][2]int
		if d.cjk {
			spans = cjkSpans(s)
		} else {
			spans = wordSpans(s, 2)
		}
		if len(spans) == 0 {
			continue
		}
		sp := spans[r.IntN(len(spans))]
		old := s[sp[0]:sp[1]]
		nw := newWord(r, lp, d.cjk)
		if nw == "" || strings.EqualFold(nw, old) {
			continue
		}
		if first, _ := utf8.DecodeRuneInString(old); unicode.IsUpper(first) {
			nw = capitalise(nw)
		}
		d.paras[pi][si] = s[:sp[0]] + nw + s[sp[1]:]
		return
	}
}

// newWord draws a word (of at least 3 letters) or a CJK character from a
// random sentence of the pool.
func newWord(r *rand.Rand, lp *langPool, cjk bool) string {
	for range 20 {
		s := lp.sents[r.IntN(len(lp.sents))]
		var spans [][2]int
		if cjk {
			spans = cjkSpans(s)
		} else {
			spans = wordSpans(s, 3)
		}
		if len(spans) > 0 {
			sp := spans[r.IntN(len(spans))]
			return strings.ToLower(s[sp[0]:sp[1]])
		}
	}
	return ""
}

// cjkSpans returns the byte spans of the CJK characters of s.
func cjkSpans(s string) [][2]int {
	var out [][2]int
	for i, r := range s {
		if textseg.IsCJK(r) {
			out = append(out, [2]int{i, i + utf8.RuneLen(r)})
		}
	}
	return out
}
