// Package textseg holds the one table of characters written without spaces
// between words (CJK ideographs, kana, Hangul) and the word splitter that
// extract, evaluate and dedup share: runs of Unicode word characters
// (Python's `\w+`: letters, numbers, the underscore), with each CJK
// character a word of its own.
//
// The splitter is hand-written rather than taken from a UAX #29 word
// segmenter (such as github.com/clipperhouse/uax29): UAX #29 keeps
// "can't" and "3.14" whole and joins runs of Katakana into one word,
// while the benchmarks' metrics split at every non-word character and
// count each kana alone. Their figures must be reproduced exactly.
package textseg

import (
	"unicode"
	"unicode/utf8"
)

// IsCJK reports whether r belongs to a script written without spaces
// between words, so that each such character counts as one word:
//
//	U+3040-U+30FF    Hiragana, Katakana
//	U+3400-U+4DBF    CJK Unified Ideographs Extension A
//	U+4E00-U+9FFF    CJK Unified Ideographs
//	U+F900-U+FAFF    CJK Compatibility Ideographs
//	U+AC00-U+D7AF    Hangul Syllables
//	U+20000-U+2FA1F  the supplementary ideographic plane (extensions B-F
//	                 and the compatibility supplement)
//
// The DAnIEL and CleanEval-zh metric, as the shared data's README defines
// it, counts only the five ranges of the Basic Multilingual Plane: the
// evaluate package restricts this table to runes below U+10000 for it.
func IsCJK(r rune) bool {
	switch {
	case r >= 0x3040 && r <= 0x30FF,
		r >= 0x3400 && r <= 0x4DBF,
		r >= 0x4E00 && r <= 0x9FFF,
		r >= 0xF900 && r <= 0xFAFF,
		r >= 0xAC00 && r <= 0xD7AF,
		r >= 0x20000 && r <= 0x2FA1F:
		return true
	}
	return false
}

// IsWordRune reports whether r is part of a Unicode `\w` run as Python's
// re module defines it: a letter, a number or the underscore. (Go's
// regexp `\w` is ASCII only.)
func IsWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Words splits s into maximal runs of word runes (see [IsWordRune]); every
// rune for which alone reports true is a word of its own, even between
// word runes. A nil alone gives plain `\w+` runs. The words are substrings
// of s, in order.
func Words(s string, alone func(rune) bool) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case alone != nil && alone(r):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			_, n := utf8.DecodeRuneInString(s[i:])
			out = append(out, s[i:i+n])
		case IsWordRune(r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// smallList is the longest list Common matches pair by pair.
const smallList = 32

// Common is the size of the multiset intersection of two word lists: how
// many words of b can be matched, each to its own equal word of a.
func Common(a, b []string) int {
	if len(a) <= smallList && len(a)*len(b) <= smallList*smallList/2 {
		return commonPairs(a, b)
	}
	return commonMap(a, b)
}

// commonPairs is Common for short lists (titles, headings, names),
// matched pair by pair, which costs less than building a map.
func commonPairs(a, b []string) int {
	var used [smallList]bool
	n := 0
	for _, w := range b {
		for i, x := range a {
			if !used[i] && x == w {
				used[i] = true
				n++
				break
			}
		}
	}
	return n
}

// commonMap is Common for long lists, by a map of a's words.
func commonMap(a, b []string) int {
	left := make(map[string]int, len(a))
	for _, w := range a {
		left[w]++
	}
	n := 0
	for _, w := range b {
		if left[w] > 0 {
			left[w]--
			n++
		}
	}
	return n
}
