package dedupgen

import (
	"unicode"
)

// stopwords are frequent function words of the Latin-script languages of
// the sources; the language of a text is the one whose words it uses
// most.
var stopwords = map[string][]string{
	"en": {"the", "and", "of", "to", "is", "in", "that", "for", "with", "are", "this", "was", "on", "you", "it", "be", "by", "from", "have", "not"},
	"de": {"der", "die", "und", "das", "ist", "nicht", "mit", "den", "sich", "des", "auf", "ein", "eine", "auch", "dem", "wir", "zu", "ich", "es", "von"},
	"fr": {"le", "la", "les", "et", "des", "est", "une", "un", "du", "pour", "que", "qui", "dans", "sur", "pas", "au", "avec", "ce", "il", "par"},
	"es": {"el", "la", "los", "las", "y", "que", "del", "por", "una", "con", "para", "es", "en", "se", "al", "lo", "como", "su", "más", "pero"},
	"it": {"il", "di", "che", "della", "per", "non", "una", "sono", "gli", "con", "del", "le", "nel", "alla", "anche", "è", "si", "dei", "da", "lo"},
	"pt": {"o", "os", "de", "que", "do", "da", "não", "uma", "para", "com", "em", "no", "na", "por", "mais", "dos", "das", "se", "ao", "é"},
	"nl": {"de", "het", "een", "en", "van", "is", "niet", "dat", "op", "te", "zijn", "met", "voor", "ook", "wordt", "aan", "er", "die", "bij", "naar"},
	"pl": {"i", "w", "nie", "się", "na", "jest", "że", "do", "to", "z", "jak", "ale", "po", "co", "tak", "dla", "od", "przez", "być", "są"},
}

// stopwordLang maps each stop word to the languages that use it.
var stopwordLang = func() map[string][]string {
	m := map[string][]string{}
	for _, code := range sortedKeys(stopwords) {
		for _, w := range stopwords[code] {
			m[w] = append(m[w], code)
		}
	}
	return m
}()

// GuessLanguage returns a language code for text: "zh", "ja" or "ko" when
// most letters are CJK ideographs, kana or Hangul, "ru" (or "uk") for
// Cyrillic, the code of the language whose stop words a Latin text uses
// most among en, de, fr, es, it, pt, nl and pl, and "und" otherwise.
func GuessLanguage(text string) string {
	var latin, cyr, han, kana, hangul, other, ukr int
	for _, r := range text {
		switch {
		case r >= 0x3040 && r <= 0x30FF:
			kana++
		case r >= 0xAC00 && r <= 0xD7AF:
			hangul++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
			if r == 'і' || r == 'ї' || r == 'є' || r == 'ґ' {
				ukr++
			}
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.IsLetter(r):
			other++
		}
	}
	// A CJK character carries about as much text as a short word.
	cjk := han + kana + hangul
	switch {
	case cjk*3 > latin+cyr+other:
		switch {
		case hangul > han+kana:
			return "ko"
		case kana*5 > cjk:
			return "ja"
		}
		return "zh"
	case cyr > latin+other:
		if ukr*50 > cyr {
			return "uk"
		}
		return "ru"
	case latin > other:
		return latinLanguage(text)
	}
	return "und"
}

// latinLanguage votes with stop words; fewer than 3 hits give "und".
func latinLanguage(text string) string {
	votes := map[string]int{}
	for _, t := range Tokens(text) {
		for _, code := range stopwordLang[t] {
			votes[code]++
		}
	}
	best, bestN := "und", 2
	for _, code := range sortedKeys(votes) {
		if votes[code] > bestN {
			best, bestN = code, votes[code]
		}
	}
	return best
}
