package dedupgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// Options sets the size and shape of a collection. The zero value of a
// field means its default.
type Options struct {
	// Docs is the number of documents in the collection (required, > 0).
	Docs int
	// Seed selects the collection: the same pool, options and seed give
	// the same bytes.
	Seed uint64
	// CopyRate is the share of documents that are originals with planted
	// near-copies (1 to 3 each). The default is 0.02; a negative rate
	// plants none. It is at most 0.25.
	CopyRate float64
	// MinSentences and MaxSentences bound a base document's sentence
	// count before it is topped up to MinTokens tokens. The defaults
	// are 8 and 60.
	MinSentences, MaxSentences int
	// MinTokens is the fewest tokens of a base document outside CJK
	// text (where a token is a whole clause, so the sentence count alone
	// decides). Short documents of a small pool share sentences by chance
	// too often, and a word changed in them moves the Jaccard too far.
	// The default is 100.
	MinTokens int
}

// Defaults.
const (
	DefaultCopyRate     = 0.02
	DefaultMinSentences = 8
	DefaultMaxSentences = 60
	DefaultMinTokens    = 100
)

// EnsureDefaults fills in the zero fields.
func (o *Options) EnsureDefaults() {
	if o.CopyRate == 0 {
		o.CopyRate = DefaultCopyRate
	}
	if o.MinSentences == 0 {
		o.MinSentences = DefaultMinSentences
	}
	if o.MaxSentences == 0 {
		o.MaxSentences = DefaultMaxSentences
	}
	if o.MinTokens == 0 {
		o.MinTokens = DefaultMinTokens
	}
}

// Validate reports every broken constraint in one error.
func (o Options) Validate() error {
	var bad []string
	if o.Docs <= 0 {
		bad = append(bad, fmt.Sprintf("Docs %d is not positive", o.Docs))
	}
	if o.CopyRate > 0.25 {
		bad = append(bad, fmt.Sprintf("CopyRate %g is over 0.25", o.CopyRate))
	}
	if o.MinSentences < 3 || o.MaxSentences < o.MinSentences {
		bad = append(bad, fmt.Sprintf("sentences %d-%d: need 3 <= min <= max", o.MinSentences, o.MaxSentences))
	}
	if o.MinTokens < 0 {
		bad = append(bad, fmt.Sprintf("MinTokens %d is negative", o.MinTokens))
	}
	if len(bad) > 0 {
		return fmt.Errorf("dedupgen: %s", strings.Join(bad, "; "))
	}
	return nil
}

// Doc is one generated document.
type Doc struct {
	URL  string
	Text string
	Lang string
	// Family is the planted family the document belongs to, -1 if none.
	Family int
	// Member is 0 for a family's original and 1-3 for its copies.
	Member int
	// Edits names the edits that made a copy from its original, in the
	// order they were made (see the package documentation).
	Edits []string
}

// Generator builds the documents of one collection. Document i is a pure
// function of the pool, the options and i, so documents can be built in
// any order, on any number of goroutines, and none is kept.
type Generator struct {
	pool     *Pool
	opts     Options
	families int   // planted families, laid out at logical slots [0, 4*families)
	perm     perm  // position -> logical slot
	sites    int   // sites per language
	minSents []int // fewest sentences of a base document, by language
}

// Random streams: every random choice comes from a PCG stream named by
// one of these tags and an id.
const (
	tagBase = iota + 1
	tagCopy
	tagSite
	tagUnrelated
	tagFamily
	tagPerm
)

// New returns a generator of the collection the options describe.
func New(pool *Pool, opts Options) (*Generator, error) {
	opts.EnsureDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	g := &Generator{pool: pool, opts: opts, sites: max(16, opts.Docs/200)}
	if opts.CopyRate > 0 {
		g.families = int(opts.CopyRate * float64(opts.Docs))
	}
	g.perm = newPerm(opts.Docs, splitmix(opts.Seed^tagPerm<<56))
	total := pool.cumSents[len(pool.cumSents)-1]
	for _, lp := range pool.langs {
		share := float64(len(lp.sents)) / float64(total)
		g.minSents = append(g.minSents, minSentences(len(lp.sents), share, opts.MinSentences, opts.MaxSentences))
	}
	return g, nil
}

// Chance overlaps: a language's documents get at least the sentence count
// for which, in a collection of designDocs documents, fewer than
// maxChancePairs pairs of them are expected to share 60% of their
// sentences by chance (the share at which a Jaccard of 0.5 comes in
// reach, given maxShare). Small pools need longer documents.
const (
	designDocs     = 10_000_000
	maxChancePairs = 1e-3
)

// minSentences returns the least n >= lo (at most hi) for which the
// expected number of chance pairs stays under maxChancePairs: with pairs
// = (share*designDocs)^2/2 and a pair sharing s = ceil(0.6n) given
// sentences with probability about C(n,s) (n/pool)^s.
func minSentences(pool int, share float64, lo, hi int) int {
	pairs := math.Log(share*designDocs) * 2
	for n := lo; n < hi; n++ {
		s := int(math.Ceil(0.6 * float64(n)))
		lc, _ := math.Lgamma(float64(n + 1))
		ls, _ := math.Lgamma(float64(s + 1))
		lr, _ := math.Lgamma(float64(n - s + 1))
		if pairs-math.Ln2+lc-ls-lr+float64(s)*math.Log(float64(n)/float64(pool)) < math.Log(maxChancePairs) {
			return n
		}
	}
	return hi
}

// Options returns the generator's options, defaults filled in.
func (g *Generator) Options() Options { return g.opts }

// Families returns the number of planted families.
func (g *Generator) Families() int { return g.families }

func (g *Generator) rng(tag, id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(g.opts.Seed, splitmix(tag<<56^id)))
}

// copies returns how many copies family j has: 1, 2 or 3 (half, a third
// and a sixth of the families).
func (g *Generator) copies(j int) int {
	switch x := g.rng(tagFamily, uint64(j)).IntN(6); {
	case x < 3:
		return 1
	case x < 5:
		return 2
	}
	return 3
}

// slot returns what the document at logical slot l is: a member of a
// planted family (family, member) or a document of its own (-1, 0).
// Family j owns slots 4j..4j+3: its original at 4j and its copies after
// it; the slots it leaves free hold documents of their own.
func (g *Generator) slot(l int) (family, member int) {
	if l < 4*g.families {
		j, m := l/4, l%4
		if m <= g.copies(j) {
			return j, m
		}
	}
	return -1, 0
}

// Doc returns the document at position i (its line i+1 in the output).
func (g *Generator) Doc(i int) Doc {
	l := g.perm.apply(i)
	j, m := g.slot(l)
	if j < 0 || m == 0 {
		d := g.base(tagBase, uint64(l))
		return g.finish(d, i, "a", j, 0, nil)
	}
	d, edits := g.makeCopy(j, m)
	return g.finish(d, i, "a", j, m, edits)
}

// Unrelated returns the k-th document of the unrelated set: a base
// document from a random stream of its own, so it is a copy of nothing in
// any collection.
func (g *Generator) Unrelated(k int) Doc {
	d := g.base(tagUnrelated, uint64(k))
	return g.finish(d, k, "u", -1, 0, nil)
}

func (g *Generator) finish(d *draft, pos int, dir string, family, member int, edits []string) Doc {
	return Doc{
		URL:    fmt.Sprintf("https://%s/%s/%d", g.host(d.lang, d.site), dir, pos),
		Text:   d.render(),
		Lang:   g.pool.langs[d.lang].code,
		Family: family,
		Member: member,
		Edits:  edits,
	}
}

// position returns where the document of family j, member m is.
func (g *Generator) position(j, m int) int { return g.perm.invert(4*j + m) }

// draft is a document under construction: paragraphs of sentences.
type draft struct {
	lang  int // index in pool.langs
	site  int
	paras [][]string
	cjk   bool
}

// render joins sentences with a space (none in CJK text) and paragraphs
// with a blank line.
func (d *draft) render() string {
	sep := " "
	if d.cjk {
		sep = ""
	}
	n := 0
	for _, p := range d.paras {
		n += 2 + len(p)
		for _, s := range p {
			n += len(s)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i, p := range d.paras {
		if i > 0 {
			b.WriteString("\n\n")
		}
		for k, s := range p {
			if k > 0 {
				b.WriteString(sep)
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

func (d *draft) clone() *draft {
	c := *d
	c.paras = make([][]string, len(d.paras))
	for i, p := range d.paras {
		c.paras[i] = append([]string(nil), p...)
	}
	return &c
}

// maxShare bounds the weight of one sentence: a base document has at
// least maxShare times the tokens of its longest sentence. Two unrelated
// documents then need several shared sentences, not one long one, to come
// close.
const maxShare = 5

// base builds the base document of a stream: a language drawn in
// proportion to the pool sizes, a sentence count copied from one of that
// language's sources, random distinct sentences of its pool (more when
// the document has fewer than MinTokens tokens or one sentence outweighs
// the rest, see maxShare), grouped in paragraphs after a one-sentence
// headline.
func (g *Generator) base(tag, id uint64) *draft {
	r := g.rng(tag, id)
	p := g.pool
	li := sort.SearchInts(p.cumSents, r.IntN(p.cumSents[len(p.cumSents)-1])+1)
	lp := p.langs[li]
	n := g.sentenceCount(r, lp, g.minSents[li])
	minTokens := g.opts.MinTokens
	if lp.cjk {
		minTokens = 0 // a CJK token is a whole clause: the sentence count decides
	}
	picked := make(map[int32]bool, n)
	var sents []string
	tokens, longest := 0, 0
	// At most half the pool, whatever the options ask.
	for (len(sents) < n || tokens < minTokens || longest*maxShare > tokens) && len(sents) < len(lp.sents)/2 {
		k := int32(r.IntN(len(lp.sents)))
		if picked[k] {
			continue
		}
		picked[k] = true
		sents = append(sents, lp.sents[k])
		tokens += int(lp.ntok[k])
		longest = max(longest, int(lp.ntok[k]))
	}
	headlineFirst(sents)
	return &draft{lang: li, site: r.IntN(g.sites), paras: paragraphs(r, sents, lp.cjk), cjk: lp.cjk}
}

// sentenceCount copies the sentence count of a random source of the
// language into [lo, MaxSentences]; a longer source gives a count in the
// top quarter of the range, so long pages do not all have the same
// length.
func (g *Generator) sentenceCount(r *rand.Rand, lp *langPool, lo int) int {
	n := lp.docLens[r.IntN(len(lp.docLens))]
	hi := g.opts.MaxSentences
	switch {
	case n < lo:
		return lo
	case n > hi:
		return hi - r.IntN(hi/4+1)
	}
	return n
}

// headlineFirst moves the shortest of the first three sentences to the
// front, where it serves as the headline.
func headlineFirst(s []string) {
	best := 0
	for i := 1; i < min(3, len(s)); i++ {
		if len(s[i]) < len(s[best]) {
			best = i
		}
	}
	s[0], s[best] = s[best], s[0]
}

// paragraphs groups sentences: the headline alone, then paragraphs of 1
// to 5 sentences (1 to 4 in CJK text, whose sentences are longer).
func paragraphs(r *rand.Rand, sents []string, cjk bool) [][]string {
	longest := 5
	if cjk {
		longest = 4
	}
	out := [][]string{sents[:1:1]}
	for rest := sents[1:]; len(rest) > 0; {
		k := min(len(rest), 1+r.IntN(longest))
		out = append(out, rest[:k:k])
		rest = rest[k:]
	}
	return out
}
