package dedup

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnow-go/winnow/internal/textseg"
)

// Sentences splits a page's text into sentences for the sentence
// signatures of seed 000 (Long Sent, Heavy Sent). Lines are hard breaks:
// winnow's text puts each block (and each table row or list item) on lines
// of its own, and a heading or a cell often ends without a full stop.
// Within a line a sentence ends at ".", "!", "?" or "…" (with any closing
// quotes and brackets) followed by a space and a capital, a digit or an
// opening quote, and at "。", "！", "？" whatever follows. A full stop after
// an initial ("J. R. R. Tolkien", "А. С. Пушкин") or a known abbreviation
// ("Mr.", "e.g.", "т. е.", "ул.", "млн.") does not end a sentence.
func Sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		start := 0
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			end := i + size
			switch r {
			case '。', '！', '？':
				end = skipClosers(line, end)
				out = appendSentence(out, line[start:end])
				start, i = end, end
				continue
			case '.', '!', '?', '…':
				end = skipTerminators(line, end)
				end = skipClosers(line, end)
				if r == '.' && notSentenceEnd(line[start:i]) {
					i = end
					continue
				}
				if opensSentence(line[end:]) {
					out = appendSentence(out, line[start:end])
					start = end
				}
				i = end
				continue
			}
			i = end
		}
		out = appendSentence(out, line[start:])
	}
	return out
}

func appendSentence(out []string, s string) []string {
	if s = strings.TrimSpace(s); s != "" {
		out = append(out, s)
	}
	return out
}

// skipTerminators moves past a run of terminal punctuation ("?!", "...").
func skipTerminators(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != '.' && r != '!' && r != '?' && r != '…' {
			break
		}
		i += size
	}
	return i
}

// skipClosers moves past closing quotes and brackets after a terminator.
func skipClosers(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(`"')]»”’」』）`, r) {
			break
		}
		i += size
	}
	return i
}

// opensSentence reports whether what follows a terminator starts a new
// sentence: white space, then a capital letter, a digit, an opening quote
// or bracket, or a dash of dialogue; or the end of the line.
func opensSentence(rest string) bool {
	t := strings.TrimLeft(rest, " \t\u00a0")
	if t == "" {
		return true
	}
	if len(t) == len(rest) {
		return false // "3.14", "e.g", "www.example.com"
	}
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune(`"'(«“‘—–-`, r) || textseg.IsCJK(r)
}

// notSentenceEnd reports whether the full stop after this text belongs to
// an initial or an abbreviation.
func notSentenceEnd(before string) bool {
	w := before
	if i := strings.LastIndexAny(w, " \t\u00a0(\"«"); i >= 0 {
		w = w[i+1:]
	}
	if w == "" {
		return false
	}
	if n := utf8.RuneCountInString(w); n == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r) // an initial, or "т." of "т. е."
	}
	w = strings.ToLower(w)
	if strings.Contains(w, ".") {
		return true // "e.g", "i.e", "U.S", "т.е"
	}
	return abbreviations[w]
}

// abbreviations are words that a full stop follows without ending the
// sentence, in English and Russian.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true, "sr": true,
	"vs": true, "etc": true, "inc": true, "ltd": true, "co": true, "corp": true, "no": true, "fig": true,
	"vol": true, "pp": true, "gen": true, "gov": true, "sen": true, "rep": true, "rev": true, "capt": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true,
	"sept": true, "oct": true, "nov": true, "dec": true, "approx": true, "dept": true, "est": true,
	"др": true, "пр": true, "им": true, "ул": true, "стр": true, "рис": true, "см": true, "ср": true,
	"тыс": true, "млн": true, "млрд": true, "руб": true, "коп": true, "проф": true, "акад": true,
	"доц": true, "св": true, "ок": true, "гг": true, "вв": true, "обл": true, "пер": true, "наб": true,
	"просп": true, "пл": true, "корп": true, "кв": true, "тел": true, "изд": true, "ред": true,
	"англ": true, "лат": true, "греч": true, "франц": true, "нем": true, "мин": true, "сек": true,
}
