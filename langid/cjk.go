package langid

import (
	"unicode"
	"unicode/utf8"
)

// Shares of the scripts that decide text written in ideographs, kana and
// Hangul. Japanese prose is about half kana (hiragana alone is 30-40% of
// Japanese newspaper text by Chikamatsu et al.'s counts, 2000), and even a
// kanji-heavy Japanese headline has its particles; Chinese text has kana
// only in names and borrowed brand words (の in a shop's name). A text is
// Japanese from japaneseKana on, which no Chinese page of daniel-zh or
// cleaneval-zh reaches and every Japanese text above a dozen characters
// does.
const (
	// cjkMajority: the share of word tokens (an ideograph, a kana or a
	// Hangul syllable counts as one, as does a run of other letters)
	// that must be CJK for the script rule to decide.
	cjkMajority = 0.5
	// japaneseKana: the share of kana among the ideographs and kana.
	japaneseKana = 0.05
	// scriptSample is how many bytes of the text are read for the
	// shares: 680 ideographs or more, and a bound on the cost for a
	// long text.
	scriptSample = 2 << 10
)

// firstCJK is the first code point of unicode.Han, Hiragana, Katakana
// and Hangul (U+1100, a Hangul Jamo): a rune below it is none of them.
const firstCJK = 0x1100

// byScript decides text that is mostly ideographs, kana or Hangul: ok is
// false for other text. Korean is the text whose Hangul outnumbers its
// ideographs and kana; Japanese the rest with kana at japaneseKana or
// more; Chinese the rest. The confidence is the share of the text's
// tokens written in the winning language's scripts.
func (id *Identifier) byScript(text string) (lang string, confidence float64, ok bool) {
	if !mayHaveCJK(text[:min(len(text), scriptSample)]) {
		return "", 0, false
	}
	var han, kana, hangul, other int
	inWord := false
	for i, r := range text {
		if i >= scriptSample {
			break
		}
		if r < firstCJK { // no CJK: ASCII letters by their bits, others by one table
			letter := r < utf8.RuneSelf && 'a' <= r|0x20 && r|0x20 <= 'z' || r >= utf8.RuneSelf && unicode.IsLetter(r)
			if letter && !inWord {
				other++
			}
			inWord = letter
			continue
		}
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana) && r != 'ー' && r != '・':
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.IsLetter(r):
			if !inWord {
				other++
			}
			inWord = true
			continue
		}
		inWord = false
	}
	cjk := han + kana + hangul
	total := cjk + other
	if cjk == 0 || float64(cjk) < cjkMajority*float64(total) {
		return "", 0, false
	}
	share := func(n int) float64 { return float64(n) / float64(total) }
	switch {
	case hangul > han+kana && id.cjk["ko"]:
		return "ko", share(hangul + han), true
	case float64(kana) >= japaneseKana*float64(han+kana) && id.cjk["ja"]:
		return "ja", share(han + kana), true
	case id.cjk["zh"]:
		return "zh", share(han), true
	}
	return "", 0, false
}

// mayHaveCJK says whether a rune of s may be an ideograph, a kana or a
// Hangul letter: all of unicode.Han, Hiragana, Katakana and Hangul lie
// in U+1100-U+11FF (Hangul Jamo) and from U+2E80 on, so a text without
// such a rune (most Latin and Cyrillic texts: their typographic quotes
// and dashes are U+2000-U+206F) has none. Only a byte that leads a rune
// from U+1000 on is decoded.
func mayHaveCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0xe1 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(s[i:])
		if r >= 0x2e80 || 0x1100 <= r && r <= 0x11ff {
			return true
		}
	}
	return false
}
