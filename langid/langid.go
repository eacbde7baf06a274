package langid

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"unicode"

	"github.com/pemistahl/lingua-go"
)

// DefaultLanguages are the languages an Identifier tells apart unless
// Options name others: the 40 most common languages of Common Crawl's
// pages by its published language statistics (cld2 over the crawls of
// 2023-2024: English about 45%, then Russian, German, Japanese, Chinese,
// Spanish, French, ... down to Bengali at about 0.1%) that lingua
// supports. A language left out is named as its nearest neighbour in the
// set (Galician as Portuguese or Spanish, Bosnian as Croatian), usually
// with a low confidence.
var DefaultLanguages = []string{
	"en", "ru", "de", "ja", "zh", "es", "fr", "it", "pt", "nl",
	"pl", "cs", "vi", "id", "tr", "sv", "fa", "ko", "uk", "hu",
	"ro", "el", "da", "fi", "th", "sk", "ar", "bg", "nb", "he",
	"ca", "hr", "lt", "sl", "sr", "hi", "et", "lv", "ms", "bn",
}

// Options configure New. The zero value is ready.
type Options struct {
	// Languages are ISO 639-1 codes of the languages to tell apart, at
	// least two; nil means DefaultLanguages.
	Languages []string
	// MaxChunks is how many pieces of the text lingua reads; 0 means 3.
	MaxChunks int
	// ChunkRunes is the length of a piece in runes; 0 means 100. Longer
	// pieces cost more than their length: past about 100 trigrams lingua
	// computes its softmax with arbitrary-precision numbers.
	ChunkRunes int
	// Preload loads every language's models when the Identifier is built
	// instead of on first use (0.3 s and the whole 80 MB at once).
	Preload bool
}

// Errors returned by New.
var (
	ErrUnknownLanguage = errors.New("langid: language not supported")
	ErrTooFewLanguages = errors.New("langid: at least two languages are needed")
)

// Identifier names the language of a text. It is safe for concurrent
// use: lingua's detector holds no per-call state, and its models are
// read-only maps once loaded.
type Identifier struct {
	det        lingua.LanguageDetector
	codes      map[lingua.Language]string
	langs      map[string]lingua.Language // codes' inverse
	narrow     sync.Map                   // narrowed detectors by their candidates
	cjk        map[string]bool            // which of zh, ja, ko the set has
	words      *wordLists                 // the common words of the set's languages that have a list
	maxChunks  int
	chunkRunes int
}

// New builds an Identifier. Models load on first use unless o.Preload is
// set; a language code lingua does not know is an error.
func New(o Options) (*Identifier, error) {
	codes := o.Languages
	if codes == nil {
		codes = DefaultLanguages
	}
	id := &Identifier{codes: map[lingua.Language]string{}, cjk: map[string]bool{},
		maxChunks: o.MaxChunks, chunkRunes: o.ChunkRunes}
	if id.maxChunks <= 0 {
		id.maxChunks = 3
	}
	if id.chunkRunes <= 0 {
		id.chunkRunes = 100
	}
	var langs []lingua.Language
	var errs []error
	for _, c := range codes {
		c = strings.ToLower(c)
		l := lingua.GetLanguageFromIsoCode639_1(lingua.GetIsoCode639_1FromValue(c))
		if l == lingua.Unknown {
			errs = append(errs, fmt.Errorf("%w: %q", ErrUnknownLanguage, c))
			continue
		}
		if _, dup := id.codes[l]; !dup {
			langs = append(langs, l)
			id.codes[l] = c
		}
		if c == "zh" || c == "ja" || c == "ko" {
			id.cjk[c] = true
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(langs) < 2 {
		return nil, ErrTooFewLanguages
	}
	inSet := map[string]bool{}
	id.langs = map[string]lingua.Language{}
	for l, c := range id.codes {
		inSet[c] = true
		id.langs[c] = l
	}
	id.words = newWordLists(inSet)
	b := lingua.NewLanguageDetectorBuilder().FromLanguages(langs...).WithLowAccuracyMode()
	if o.Preload {
		b = b.WithPreloadedLanguageModels()
	}
	id.det = b.Build()
	return id, nil
}

var (
	defaultOnce sync.Once
	defaultID   *Identifier
)

// Default returns the Identifier of DefaultLanguages, built on the first
// call and shared by every caller after it; a program that never calls it
// loads no model.
func Default() *Identifier {
	defaultOnce.Do(func() {
		// Loading the models makes about three times their size in
		// garbage; under a batch run's relaxed collector (GOGC=400) that
		// garbage took the process's peak memory past 150 MB while the
		// models keep 44 MB. They are loaded at once, under the
		// default collector, and the garbage is collected before any
		// page is read.
		old := debug.SetGCPercent(100)
		defer func() {
			debug.SetGCPercent(old)
			runtime.GC()
		}()
		id, err := New(Options{Preload: true})
		if err != nil {
			panic(err) // DefaultLanguages are all lingua's
		}
		defaultID = id
	})
	return defaultID
}

// Identify returns the ISO 639-1 code of the language text is written
// in, with a confidence between 0 and 1, or "" and 0 when the text has no
// letters. For text written mostly in ideographs, kana or Hangul the
// answer comes from the share of each script (zh, ja, ko); for text
// whose first 200 words are mostly one language's commonest words, from
// those words (words.go); otherwise lingua scores up to MaxChunks pieces
// spread over the text, stopping once the mean confidence of the leader
// reaches 0.99, and the confidence is the mean of the pieces'
// confidences for the winner, rounded to four decimals.
func (id *Identifier) Identify(text string) (lang string, confidence float64) {
	return id.IdentifyDeclared(text, "")
}

// IdentifyDeclared is Identify for a text whose page declares a language
// (an ISO 639-1 code; "" for none): the common words decide only when
// they confirm the declaration, with a smaller lead over the other
// languages than an undeclared text needs, and lingua decides a text
// whose words do not.
func (id *Identifier) IdentifyDeclared(text, declared string) (lang string, confidence float64) {
	if l, conf, ok := id.byScript(text); ok {
		return l, conf
	}
	counts := id.words.count(text)
	if l, conf, ok := id.words.decide(counts, declared); ok {
		return l, conf
	}
	det := id.det
	if cands := id.words.candidates(counts, declared); len(cands) >= 2 {
		det = id.narrowed(cands)
	}
	return id.score(det, text)
}

// maxNarrow is the most candidates the common words may leave for a
// narrowed detector; more is no evidence.
const maxNarrow = 4

// narrowed is the detector of the candidate languages (codes of the
// set, in the order of DefaultLanguages), built on first use: lingua's
// models are shared between detectors, and scoring 2 to 4 languages
// instead of the script's 27 costs a tenth as much.
func (id *Identifier) narrowed(cands []string) lingua.LanguageDetector {
	key := strings.Join(cands, " ")
	if d, ok := id.narrow.Load(key); ok {
		return d.(lingua.LanguageDetector)
	}
	langs := make([]lingua.Language, len(cands))
	for i, c := range cands {
		langs[i] = id.langs[c]
	}
	d, _ := id.narrow.LoadOrStore(key, lingua.NewLanguageDetectorBuilder().FromLanguages(langs...).WithLowAccuracyMode().Build())
	return d.(lingua.LanguageDetector)
}

// score runs det over pieces of text (see Identify).
func (id *Identifier) score(det lingua.LanguageDetector, text string) (lang string, confidence float64) {
	sum := map[lingua.Language]float64{}
	n := 0
	best, top := lingua.Unknown, 0.0
	for _, piece := range chunks(text, id.chunkRunes, id.maxChunks) {
		vals := det.ComputeLanguageConfidenceValues(piece)
		if len(vals) == 0 || vals[0].Value() == 0 {
			continue // no letters lingua could score
		}
		n++
		for _, v := range vals {
			sum[v.Language()] += v.Value()
		}
		best, top = lingua.Unknown, 0.0
		for l, v := range sum {
			if v > top || v == top && id.codes[l] < id.codes[best] {
				best, top = l, v
			}
		}
		if top/float64(n) >= sureEnough {
			break
		}
	}
	if n == 0 {
		return "", 0
	}
	// lingua sums log probabilities in map order, so its confidences
	// differ from run to run in the last bits; four decimals keep a
	// record the same whatever the run.
	return id.codes[best], roundConf(min(1, top/float64(n)))
}

// roundConf rounds a confidence to four decimals.
func roundConf(c float64) float64 { return math.Round(c*1e4) / 1e4 }

// sureEnough is the mean confidence at which Identify stops reading
// pieces. Against lingua on the whole 4 kB with all 75 of its languages,
// on the 1,171 scrapinghub and trafilatura pages (mostly German, English,
// Spanish, French, Polish): three pieces always read agree on 1,166,
// stopping at 0.99 on 1,162 at a third of the time, one piece on 1,150.
const sureEnough = 0.99

// chunks cuts text into pieces of at most size runes, at a space when
// one stands in the piece's second half, and returns at most k of them,
// the centres of k equal spans of the text, the middle one first: the
// start of a page's text is its headline and byline, where names stand
// ("Son of former German President Richard von Weizsäcker ..." reads as
// German). A piece with fewer than size/4 letters (a list of numbers, a
// table of prices) is left out.
func chunks(text string, size, k int) []string {
	var all []string
	for text != "" {
		text = strings.TrimLeftFunc(text, unicode.IsSpace)
		cut, runes, lastSpace := len(text), 0, -1
		for i, r := range text {
			if runes == size {
				cut = i
				break
			}
			if unicode.IsSpace(r) && runes >= size/2 {
				lastSpace = i
			}
			runes++
		}
		if cut < len(text) && lastSpace > 0 {
			cut = lastSpace
		}
		if piece := text[:cut]; letters(piece) >= size/4 || len(all) == 0 && cut == len(text) {
			all = append(all, piece)
		}
		text = text[cut:]
	}
	k = min(k, len(all))
	out := make([]string, 0, k)
	for i := range k { // the middle piece, the later ones, the earlier ones
		j := (i + k/2) % k
		out = append(out, all[(2*j+1)*len(all)/(2*k)])
	}
	return out
}

// letters counts the letters of s.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}
