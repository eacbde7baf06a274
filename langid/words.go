package langid

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// commonWords are the most frequent words of each language of
// DefaultLanguages written in Latin or Cyrillic letters: articles,
// prepositions, conjunctions, pronouns and the commonest verb forms,
// which make up a third or more of running text (Grefenstette, "Comparing
// two language identification schemes", JADT 1995: the short-word
// method). They name the language of most texts without lingua's n-gram
// models (see decide).
var commonWords = map[string]string{
	"en": "the of and to in is that for it with as was on are be this by at from have or an not you which but has were they their will can we its more been about would there also his he she her our your all one if what who when",
	"de": "der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei ich wir ihr",
	"fr": "de la le et les des en un du une que est pour qui dans a par plus pas au sur ne se ce il sont avec ou son aux été nous vous mais cette elle ses leur comme tout ont je",
	"es": "de la que el en y a los se del las un por con no una su para es al lo como más o pero sus le ha me si sin sobre este ya entre cuando todo esta ser son también fue había muy hasta desde está",
	"pt": "de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à seu sua ou ser quando muito há nos já está também pelo pela até isso ela entre era depois sem mesmo",
	"it": "di e il la che a in per un è del non una le si con i da della al sono lo gli più ha come ma dei anche nel delle alla questo se nella ci o essere stato suo cui dal sua tra ne ed molto hanno",
	"nl": "de van het een en in is dat op te zijn voor met die niet aan er om ook als dan bij of door maar worden wordt nog naar uit tot kan over wel was heeft deze hij ze zo al meer we je geen",
	"ca": "de la i a el que en les per del un una és amb els no al es va com més o però seu han ha dels aquest també",
	"pl": "w i na z się do nie że to jest o jak a po od co za ale jego przez dla są tak już czy tym oraz może jej było być ich tego które który która także mnie go ze we tylko gdy",
	"cs": "a se v na je že s o z do to i k ve by jsou jako pro za jak ale po od jeho tak které který která také už nebo jen při být bylo byl má mezi podle",
	"sk": "a sa v na je že s o z do to i k vo by sú ako pre za ale po od jeho tak ktoré ktorý ktorá aj už alebo len pri byť bolo bol má medzi podľa sme",
	"sv": "och i att det som en på är av för med till den har de inte om ett var jag men så han kan vi från sig vid eller när ska nu också efter",
	"da": "og i at det er en til på som de med han af for ikke der var jeg men et har om vi fra kan sig den også efter eller når skal nu",
	"nb": "og i det er som en på til av for med at ikke har de den var jeg om et men så han kan vi fra seg eller når skal nå også etter",
	"ro": "de și în a la cu pe care nu o din se mai un să este ce că au fost sau pentru ca sunt prin dar ei el lui după acest",
	"hu": "a az és hogy nem is egy van meg el már de csak ki mint be volt még ez azt ha vagy amely után pedig kell lesz",
	"fi": "ja on ei se että oli hän kun mutta niin ovat myös tai kuin ole sen joka jo mitä vain voi hänen olla",
	"et": "ja on ei et see kui oli mis ka aga ta nii oma kes seda siis ning tema või pole",
	"lv": "un ir ar par no ka uz kas tā to bet arī vai kā lai tas pie tiek gan",
	"lt": "ir yra kad su į iš o tai bet jo kaip buvo už dar ar nuo tik apie per",
	"tr": "ve bir bu da de için ile olarak olan çok daha gibi en ne ama sonra kadar her o var değil ise ya mi",
	"id": "yang dan di ini itu dengan untuk dari dalam tidak akan pada juga ke ada adalah oleh kami saya bisa karena telah sudah atau",
	"ms": "yang dan di ini itu dengan untuk dari dalam tidak akan pada juga ke ada adalah oleh kami saya boleh kerana telah sudah atau",
	"vi": "và của là có các trong được cho không một những với người đã này để khi đến từ theo như về thì cũng",
	"hr": "i je u se na da za su od s a o ne to kao iz što koji ali bi bio će sa ili po",
	"sl": "in je v se na da za so z pa o ne to ki iz kot bi tudi po pri sem lahko ali",
	"sr": "i je u se na da za su od sa a o ne to kao iz što koji ali bi bio će ili po и је у се на да за су од са а о не то као из што који али би био ће или по",
	"ru": "и в не на что с по это как а к но из о у за то же для от так он его был все она бы или только уже мы при было они ее до если еще также может",
	"uk": "і в на не що з та до у це як за від про по а й для але його є був він вона ми вони також які якщо ще",
	"bg": "и на в да се е за с от не че са по като това но а ще към или той тя ние те си при още",
}

// wordLists is commonWords indexed for decide: each word maps to the set
// of languages (bits, in the order of langs) that have it.
type wordLists struct {
	langs   []string          // bit i is langs[i]
	words   map[string]uint64 // word -> languages
	longest int               // bytes of the longest word
}

func newWordLists(codes map[string]bool) *wordLists {
	wl := &wordLists{words: map[string]uint64{}}
	for _, c := range DefaultLanguages { // a fixed order, so the bits are the same every run
		ws, ok := commonWords[c]
		if !ok || !codes[c] {
			continue
		}
		bit := uint64(1) << len(wl.langs)
		wl.langs = append(wl.langs, c)
		for _, w := range strings.Fields(ws) {
			wl.words[w] |= bit
			wl.longest = max(wl.longest, len(w))
		}
	}
	return wl
}

// Bounds of the common-word decisions, set on the 3,299 pages of the
// shared sets (scrapinghub, trafilatura, wcxb-dev-even, daniel-ru,
// daniel-zh, cleaneval-zh, htmldate; 2,942 of them not written in
// ideographs, kana or Hangul): with these bounds and the narrowed lingua
// the pages' languages differ from those of lingua alone on 11 pages,
// all but one a page lingua misread (German articles named Swedish or
// English by a piece of names or code, an English forum thread named
// German, a Serbo-Croatian page named English); the one left is an
// Albanian page, outside the set, that keeps its declared English where
// lingua said Estonian. The close-language rules of decide
// (confirmConfidence, sureConfidence) and its overruling of a
// declaration by guessMargin changed one language more on those pages:
// a Romanian news page that declares English is ro now, not en.
const (
	// commonRead is how many words of the text are read.
	commonRead = 200
	// commonMinWords: a shorter text is left to lingua.
	commonMinWords = 20
	// commonShare is the share of the words read that must be the
	// language's common words.
	commonShare = 0.2
	// confirmMargin: a declared language's common words must outnumber
	// those of every other language by this factor.
	confirmMargin = 1.5
	// guessMargin: so must an undeclared language's, by this one.
	guessMargin = 2
)

// wordCounts are, for each listed language (by its bit), the common
// words among the first n words of a text (n at most commonRead).
type wordCounts struct {
	counts [64]int
	n      int
}

// count counts the common words of each listed language in text.
func (wl *wordLists) count(text string) wordCounts {
	var c wordCounts
	var buf [64]byte
	for w := range wordsOf(text) {
		if c.n == commonRead {
			break
		}
		c.n++
		if len(w) > len(buf) {
			continue
		}
		lw, ascii := lowerASCII(buf[:0], w)
		if !ascii {
			lw = lowerInto(buf[:0], w)
		}
		if len(lw) > wl.longest {
			continue // no list has a word this long
		}
		set := wl.words[string(lw)]
		for set != 0 {
			i := bits.TrailingZeros64(set)
			c.counts[i]++
			set &^= 1 << i
		}
	}
	return c
}

// decide names the language of text by its common words. A declared
// language is confirmed when its words are commonShare of those read and
// outnumber every other language's by confirmMargin, or half of
// commonShare and by guessMargin (a table of results, a calendar: few
// sentences, but what words there are confirm the declaration), or half
// of commonShare and the words make it confirmConfidence sure
// (wordCounts.confidence): a close language shares most of its words
// (Indonesian and Malay, Russian and Bulgarian), and the words only one
// of the two lists has tell them apart. Otherwise, declared or not, the
// text is the language whose words are commonShare of those read and
// outnumber every other's by guessMargin (a German article on a site
// that declares English on every page), or, on a page that declares
// none, are commonShare of them and make it sureConfidence sure. A
// declared language without a list, which the text may be written in,
// and a text the words leave undecided go to lingua, whose confidence
// decides whether the text overrides the declaration (chooseLang in
// package metadata).
func (wl *wordLists) decide(w wordCounts, declared string) (lang string, confidence float64, ok bool) {
	counts, n := w.counts, w.n
	if n < commonMinWords {
		return "", 0, false
	}
	best := 0
	for i := range wl.langs {
		if counts[i] > counts[best] {
			best = i
		}
	}
	// win: language i has share of the words read, and margin times
	// any other language's or, when it has the most, a confidence of at
	// least sure (marginOnly: never).
	win := func(i int, share, margin, sure float64) (float64, bool) {
		runner := 0
		for j := range wl.langs {
			if j != i {
				runner = max(runner, counts[j])
			}
		}
		d := float64(counts[i])
		if d == 0 || d < share*float64(n) {
			return 0, false
		}
		conf := w.confidence(i, len(wl.langs))
		return conf, d >= margin*float64(runner) || i == best && conf >= sure
	}
	if declared != "" {
		i := slices.Index(wl.langs, declared)
		if i < 0 {
			return "", 0, false
		}
		if conf, ok := win(i, commonShare, confirmMargin, marginOnly); ok {
			return declared, conf, true
		}
		if conf, ok := win(i, commonShare/2, guessMargin, confirmConfidence); ok {
			return declared, conf, true
		}
	}
	sure := sureConfidence
	if declared != "" {
		sure = marginOnly // a lead alone overrules no declaration: a German article that quotes an English speech
	}
	if conf, ok := win(best, commonShare, guessMargin, sure); ok {
		return wl.langs[best], conf, true
	}
	return "", 0, false
}

// The word confidences (wordCounts.confidence) at which the common words
// decide between close languages (see decide): confirmConfidence, a lead
// of about five words that one list has and the other lacks, confirms a
// declared language; sureConfidence, about seven, names the language of
// a page that declares none.
const (
	confirmConfidence = 0.95
	sureConfidence    = 0.99
	// marginOnly is above every confidence: only the margin decides.
	marginOnly = 2
)

// confidence is how sure the common words make language i of the first
// langs: the odds between two languages double with each word of the
// text that is in one's list and not in the other's, which is the
// difference of their counts (the words both lists have count for
// both), so that the confidence is 1 / (1 + the sum, over the other
// languages whose words the text has and one whose words it has none
// of, of 2^(their count - i's count)), rounded to four decimals. The
// ratio of the counts reported before (i's count over its own plus the
// runner-up's) put English articles at 0.6-0.9: "in", "is", "a" are
// Dutch, Italian and Latin-script words too. On the 1,727 pages of the
// shared sets that the words decide, lingua names the same language on
// 1,715, with a confidence of at least 0.99 on 1,675 of them; the ratio
// was below 0.9 on 1,667 of the 1,727, this confidence is on one
// (0.68). Over all 3,299 pages it changes no language, only
// confidences (2,587 records), and leaves three below 0.9 that the words
// decide (0.56, 0.68, 0.71: short texts whose few common words several
// languages share).
func (w wordCounts) confidence(i, langs int) float64 {
	d := w.counts[i]
	sum := math.Exp2(-float64(d)) // a language none of whose words the text has
	for j := range langs {
		if j != i && w.counts[j] > 0 {
			sum += math.Exp2(float64(w.counts[j] - d))
		}
	}
	return roundConf(1 / (1 + sum))
}

// wordsOf yields the runs of letters (and marks) of s.
func wordsOf(s string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i, size := 0, 1; i < len(s); i += size {
			var letter bool
			if b := s[i]; b < utf8.RuneSelf { // ASCII letters by their bits
				letter, size = 'a' <= b|0x20 && b|0x20 <= 'z', 1
			} else {
				var r rune
				r, size = utf8.DecodeRuneInString(s[i:])
				letter = unicode.IsLetter(r) || r >= firstMark && unicode.Is(unicode.Mn, r)
			}
			switch {
			case letter && start < 0:
				start = i
			case !letter && start >= 0:
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// firstMark is the first code point of unicode.Mn (U+0300, the
// combining grave accent): a rune below it is no mark.
const firstMark = 0x300

// lowerASCII appends w lower-cased to buf when w, a run of letters, is
// all ASCII (ascii); it stops at the first other byte and reports false
// then. The words of most texts are ASCII, and lowerInto decodes runes.
func lowerASCII(buf []byte, w string) (lw []byte, ascii bool) {
	for i := 0; i < len(w); i++ {
		b := w[i]
		if b >= utf8.RuneSelf {
			return buf, false
		}
		buf = append(buf, b|0x20) // a letter: its small form
	}
	return buf, true
}

// lowerInto appends w lower-cased to buf.
func lowerInto(buf []byte, w string) []byte {
	for _, r := range w {
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			buf = append(buf, byte(r))
			continue
		}
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
	}
	return buf
}

// candidates are the languages the common words leave in the running on
// a text they do not decide (see decide): the languages of the set whose
// count is at least 1/guessMargin of the best one's, which must be half
// of commonShare of the words read, and the declared language; nil when
// there is no such evidence. Of more than maxNarrow such languages (a
// Portuguese calendar's "de", "a", "o" are Spanish, Catalan and Italian
// words too) the declared one and those with the most words stay, unless
// the page declares a language without a list, which the text may be
// written in (nil then). lingua then chooses among them alone: between
// the declared language and the one the words favour ("en" declared on a
// German article), or between close languages (Indonesian and Malay,
// Russian and Bulgarian). On the 3,299 pages of the shared sets keeping
// the first maxNarrow instead of none changes no language and five
// confidences (0.9536 -> 1, 0.9905 -> 1), and lingua's time on the
// scrapinghub pages goes from 6.5 to 5.3 ms (a Portuguese calendar's
// 1.75 ms to 0.12).
func (wl *wordLists) candidates(w wordCounts, declared string) []string {
	counts, n := w.counts, w.n
	best := 0
	for i := range wl.langs {
		best = max(best, counts[i])
	}
	if n < commonMinWords || float64(best) < commonShare/2*float64(n) {
		return nil
	}
	var out []int
	for i, l := range wl.langs {
		if l == declared || float64(counts[i])*guessMargin >= float64(best) {
			out = append(out, i)
		}
	}
	if len(out) > maxNarrow {
		if declared != "" && !slices.Contains(wl.langs, declared) {
			return nil // a language without a list may be the text's: no narrowing leaves it out
		}
		// Romance languages share "de", "a", "que": keep the declared
		// language and those whose words are the most.
		rank := func(i int) int {
			if wl.langs[i] == declared {
				return math.MaxInt
			}
			return counts[i]
		}
		slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(rank(b), rank(a)) })
		out = out[:maxNarrow]
		slices.Sort(out)
	}
	codes := make([]string, len(out))
	for i, j := range out {
		codes[i] = wl.langs[j]
	}
	return codes
}
