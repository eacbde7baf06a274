package dedupgen

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/textseg"
)

// Source is one human gold text of the shared extraction sets.
type Source struct {
	Set, ID, Text string
}

// LoadSources reads the human gold texts of every extraction set under
// dataDir/extract, in a fixed order: the gold/*.txt files of daniel-ru,
// daniel-zh, cleaneval-zh and wcxb-dev-even, the Scrapinghub article
// bodies and, for the trafilatura set, which has no whole gold texts,
// each page's "with" snippets (one a line).
func LoadSources(dataDir string) ([]Source, error) {
	var out []Source
	for _, set := range []string{"daniel-ru", "daniel-zh", "cleaneval-zh", "wcxb-dev-even"} {
		src, err := goldFiles(dataDir, set)
		if err != nil {
			return nil, err
		}
		out = append(out, src...)
	}
	sh, err := scrapinghub(dataDir)
	if err != nil {
		return nil, err
	}
	tr, err := trafilaturaSnippets(dataDir)
	if err != nil {
		return nil, err
	}
	return append(append(out, sh...), tr...), nil
}

func goldFiles(dataDir, set string) ([]Source, error) {
	files, err := filepath.Glob(filepath.Join(dataDir, "extract", set, "gold", "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("dedupgen: no gold texts in %s", filepath.Join(dataDir, "extract", set, "gold"))
	}
	slices.Sort(files)
	out := make([]Source, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, Source{Set: set, ID: strings.TrimSuffix(filepath.Base(f), ".txt"), Text: string(b)})
	}
	return out, nil
}

func scrapinghub(dataDir string) ([]Source, error) {
	var gt map[string]struct {
		ArticleBody string `json:"articleBody"`
	}
	if err := readJSON(filepath.Join(dataDir, "extract", "scrapinghub", "ground-truth.json"), &gt); err != nil {
		return nil, err
	}
	out := make([]Source, 0, len(gt))
	for _, id := range sortedKeys(gt) {
		out = append(out, Source{Set: "scrapinghub", ID: id, Text: gt[id].ArticleBody})
	}
	return out, nil
}

func trafilaturaSnippets(dataDir string) ([]Source, error) {
	var ev map[string]struct {
		With []string `json:"with"`
	}
	if err := readJSON(filepath.Join(dataDir, "extract", "trafilatura", "evaldata.json"), &ev); err != nil {
		return nil, err
	}
	out := make([]Source, 0, len(ev))
	for _, url := range sortedKeys(ev) {
		out = append(out, Source{Set: "trafilatura", ID: url, Text: strings.Join(ev[url].With, "\n")})
	}
	return out, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Sentence-pool limits. A sentence must say something: at least
// minTokens tokens, or minCJKRunes CJK characters in Chinese, Japanese or
// Korean, and at most maxSentenceBytes (longer "sentences" are tables or
// code that the splitter could not cut). A language needs
// MinPoolSentences distinct sentences to get documents: in a smaller pool
// unrelated documents would share too many sentences.
const (
	minTokens        = 4
	minCJKRunes      = 8
	maxSentenceBytes = 1000
	MinPoolSentences = 1000
)

// Pool holds the distinct sentences of the sources, by language. It is the
// generator's only large memory.
type Pool struct {
	langs    []*langPool    // in order of descending pool size
	cumSents []int          // cumulative pool sizes, to draw a language
	Dropped  map[string]int // sources of the languages left out, by language code
}

// langPool is one language's sentences, in source order, with the
// sentence counts of its source texts (the lengths documents copy).
type langPool struct {
	code    string
	cjk     bool
	sents   []string
	ntok    []uint16 // tokens of each sentence
	docLens []int
}

// NewPool splits the sources into sentences with dedup.Sentences, guesses
// each source's language, and keeps each distinct sentence (by its
// tokens) once, in the pool of its source's language. Languages with fewer
// than MinPoolSentences sentences are left out; Dropped counts their
// sources.
func NewPool(sources []Source) (*Pool, error) {
	byLang := map[string]*langPool{}
	seen := map[string]bool{}
	for _, src := range sources {
		text := strings.ToValidUTF8(src.Text, "\uFFFD")
		code := GuessLanguage(text)
		lp := byLang[code]
		if lp == nil {
			lp = &langPool{code: code, cjk: code == "zh" || code == "ja" || code == "ko"}
			byLang[code] = lp
		}
		n := 0
		for _, s := range dedup.Sentences(text) {
			if !keepSentence(s, lp.cjk) {
				continue
			}
			n++
			key := strings.Join(Tokens(s), " ")
			if !seen[key] {
				seen[key] = true
				lp.sents = append(lp.sents, s)
				lp.ntok = append(lp.ntok, uint16(min(len(Tokens(s)), 1<<16-1)))
			}
		}
		if n > 0 {
			lp.docLens = append(lp.docLens, n)
		}
	}
	return assemble(byLang)
}

// assemble orders the language pools and drops the small ones.
func assemble(byLang map[string]*langPool) (*Pool, error) {
	p := &Pool{Dropped: map[string]int{}}
	for _, code := range sortedKeys(byLang) {
		lp := byLang[code]
		if len(lp.sents) < MinPoolSentences {
			p.Dropped[code] = len(lp.docLens)
			continue
		}
		p.langs = append(p.langs, lp)
	}
	if len(p.langs) == 0 {
		return nil, fmt.Errorf("dedupgen: no language has %d sentences", MinPoolSentences)
	}
	slices.SortStableFunc(p.langs, func(a, b *langPool) int { return cmp.Compare(len(b.sents), len(a.sents)) })
	total := 0
	for _, lp := range p.langs {
		total += len(lp.sents)
		p.cumSents = append(p.cumSents, total)
	}
	return p, nil
}

func keepSentence(s string, cjk bool) bool {
	if len(s) > maxSentenceBytes || !startsSentence(s) {
		return false
	}
	if !cjk {
		return len(Tokens(s)) >= minTokens
	}
	n := 0
	for _, r := range s {
		if textseg.IsCJK(r) {
			n++
		}
	}
	return n >= minCJKRunes
}

// startsSentence reports whether s begins as a sentence does: with a
// letter, a digit, an opening quote or bracket, or a list mark, not with
// the comma or full stop of a fragment (", i.e., no limit.").
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(`"'(«“„‘「『（《【-–—•*`, r)
}

// LoadPool reads the sources under dataDir and builds their pool.
func LoadPool(dataDir string) (*Pool, error) {
	src, err := LoadSources(dataDir)
	if err != nil {
		return nil, err
	}
	return NewPool(src)
}

// LangStat describes one language of a pool.
type LangStat struct {
	Code      string
	Sources   int
	Sentences int
}

// Languages returns the pool's languages, the largest pool first.
func (p *Pool) Languages() []LangStat {
	out := make([]LangStat, len(p.langs))
	for i, lp := range p.langs {
		out[i] = LangStat{Code: lp.code, Sources: len(lp.docLens), Sentences: len(lp.sents)}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
