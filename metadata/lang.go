package metadata

import (
	"unicode"

	"github.com/winnow-go/winnow/internal/textseg"
)

// How far an identified language is trusted over a declared one (see
// chooseLang). A page's <html lang> is often a template's default ("en"
// on a Russian page of an international CMS), so a sure identification
// overrides it; on a few words, or when the identifier hesitates
// (Danish against Norwegian, Malay against Indonesian, Croatian
// against Serbian), the page's own word is the better guess.
const (
	// minLangWords: texts with fewer words (an ideograph counts as one)
	// leave the language to the declaration.
	minLangWords = 20
	// minLangConfidence: identifications less sure than this leave the
	// language to the declaration.
	minLangConfidence = 0.7
)

// chooseLang picks the page's language from what the page declares and
// what identify (nil for none) says of its text. fromText reports that
// the language is the identified one; conf is identify's confidence then,
// and 0 when the language is the declared one the text did not confirm.
func chooseLang(declared, text string, identify func(text, declared string) (string, float64)) (lang string, conf float64, fromText bool) {
	if identify == nil || text == "" {
		return declared, 0, false
	}
	l, c := identify(text, canonicalLang(declared))
	switch {
	case l == "":
		return declared, 0, false
	case declared == "" || canonicalLang(declared) == l:
		return l, c, true
	case c >= minLangConfidence && countWords(text) >= minLangWords:
		return l, c, true
	}
	return declared, 0, false
}

// canonicalLang is the code an identifier names a declared language by:
// the current code for an older or wider one (iw for he, in for id, no
// for nb), else the code itself.
func canonicalLang(declared string) string {
	switch declared {
	case "iw":
		return "he"
	case "in":
		return "id"
	case "no":
		return "nb"
	}
	return declared
}

// countWords counts the runs of letters in s and each ideograph, kana
// and Hangul syllable on its own, up to minLangWords.
func countWords(s string) int {
	n, inWord := 0, false
	for _, r := range s {
		switch {
		case textseg.IsCJK(r):
			n++
			inWord = false
		case unicode.IsLetter(r):
			if !inWord {
				n++
			}
			inWord = true
		default:
			inWord = false
		}
		if n >= minLangWords {
			break
		}
	}
	return n
}
