package extract

import (
	"unicode/utf8"

	"github.com/winnow-go/winnow/internal/textseg"
)

// countWords counts \w+ runs in s, with every CJK character a word of its
// own, and also returns the number of CJK characters and of sentence
// punctuation marks (Latin and CJK full stops, commas and the like).
func countWords(s string) (words, cjk, punct int) {
	inWord := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
				if !inWord {
					words++
					inWord = true
				}
			default:
				inWord = false
				switch c {
				case '.', ',', ';', ':', '!', '?':
					punct++
				}
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case textseg.IsCJK(r):
			words++
			cjk++
			inWord = false
		case textseg.IsWordRune(r):
			if !inWord {
				words++
				inWord = true
			}
		default:
			inWord = false
			switch r {
			case '。', '，', '、', '；', '：', '！', '？', '…', '«', '»', '“', '”':
				punct++
			}
		}
	}
	return words, cjk, punct
}

// displayWidth is the width of s in columns, CJK characters counting two.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if textseg.IsCJK(r) || (r >= 0xFF00 && r <= 0xFFEF) || (r >= 0x3000 && r <= 0x303F) {
			w += 2
		} else {
			w++
		}
	}
	return w
}
