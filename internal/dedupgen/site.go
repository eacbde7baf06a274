package dedupgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnow-go/winnow/internal/textseg"
)

// site is one site's identity and boilerplate: the lines a reprint on it
// wraps around the text, in the order a reprint takes them (the first k
// lines of this order make the boilerplate of size k).
type site struct {
	name, host string
	lines      []siteLine
}

// siteLine is one boilerplate line and whether it goes above the text.
type siteLine struct {
	text   string
	header bool
	order  int // place among the lines of its block
}

func (g *Generator) host(lang, s int) string {
	return fmt.Sprintf("site%d.%s.example", s, g.pool.langs[lang].code)
}

// site builds site s of language lang from its own random stream: a name,
// a menu, a breadcrumb line and a footer of real sentences and the
// language's footer lines.
func (g *Generator) site(lang, s int) site {
	r := g.rng(tagSite, uint64(lang)<<32|uint64(s))
	lp := g.pool.langs[lang]
	v := vocabFor(lp.code)
	st := site{host: g.host(lang, s)}
	st.name = siteName(r, lp, v)
	fill := func(t string) string {
		return strings.NewReplacer("{site}", st.name, "{host}", st.host, "{year}", fmt.Sprint(2005+r.IntN(20))).Replace(t)
	}
	menu := pickWords(r, v.nav, 6+r.IntN(5))
	crumb := v.nav[0] + " › " + strings.Join(pickWords(r, v.nav[1:], 2), " › ")
	foot := pickWords(r, v.footer, 3)
	// The order in which reprints take the lines: menu and copyright
	// first, as nearly every site has them.
	st.lines = []siteLine{
		{text: strings.Join(menu, " | "), header: true, order: 1},
		{text: fill(foot[0]), order: 2},
		{text: st.name, header: true, order: 0},
		{text: lp.sents[r.IntN(len(lp.sents))], order: 0},
		{text: crumb, header: true, order: 2},
		{text: fill(foot[1]), order: 3},
		{text: lp.sents[r.IntN(len(lp.sents))], order: 1},
		{text: fill(foot[2]), order: 4},
	}
	return st
}

// siteName is a word of the pool, capitalised, and a usual ending ("Daily",
// "Вести", "日报"); in CJK text two characters and the ending, unspaced.
func siteName(r *rand.Rand, lp *langPool, v vocab) string {
	suffix := v.suffixes[r.IntN(len(v.suffixes))]
	for range 100 {
		s := lp.sents[r.IntN(len(lp.sents))]
		if lp.cjk {
			if c := cjkRunes(s); len(c) >= 2 {
				k := r.IntN(len(c) - 1)
				return string(c[k:k+2]) + suffix
			}
			continue
		}
		if w := wordSpans(s, 4); len(w) > 0 {
			sp := w[r.IntN(len(w))]
			return capitalise(strings.ToLower(s[sp[0]:sp[1]])) + " " + suffix
		}
	}
	return "Site " + suffix
}

// pickWords returns k distinct entries of words in random order.
func pickWords(r *rand.Rand, words []string, k int) []string {
	idx := r.Perm(len(words))[:min(k, len(words))]
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = words[j]
	}
	return out
}

// cjkRunes returns the CJK characters of s.
func cjkRunes(s string) []rune {
	var out []rune
	for _, r := range s {
		if textseg.IsCJK(r) {
			out = append(out, r)
		}
	}
	return out
}

// wordSpans returns the byte spans of the runs of at least minRunes
// letters in s.
func wordSpans(s string, minRunes int) [][2]int {
	var out [][2]int
	start, n := -1, 0
	for i, r := range s {
		if unicode.IsLetter(r) && !textseg.IsCJK(r) {
			if start < 0 {
				start, n = i, 0
			}
			n++
			continue
		}
		if start >= 0 && n >= minRunes {
			out = append(out, [2]int{start, i})
		}
		start = -1
	}
	if start >= 0 && n >= minRunes {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

func capitalise(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}
