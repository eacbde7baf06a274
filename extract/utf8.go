package extract

import (
	"unicode/utf8"
)

// utf8Stats counts the byte sequences of a page read as UTF-8. An
// ill-formed sequence is a maximal subpart in the sense of the Unicode
// standard (section 3.9, "U+FFFD Substitution of Maximal Subparts"): a
// stray byte, or the longest start of a multi-byte sequence that stops
// short. Each one becomes a single U+FFFD.
type utf8Stats struct {
	Multi    int // well-formed sequences of 2 to 4 bytes
	Bad      int // ill-formed sequences
	BadBytes int // bytes in the ill-formed sequences
}

// countUTF8 reads b as UTF-8 and counts its sequences.
func countUTF8(b []byte) utf8Stats {
	var s utf8Stats
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			n = illFormedLen(b[i:])
			s.Bad++
			s.BadBytes += n
		} else {
			s.Multi++
		}
		i += n
	}
	return s
}

// repairUTF8 returns b with each ill-formed sequence replaced by U+FFFD,
// and b itself when it has none. A sequence inside markup (between a '<'
// and the '>' that closes it) is dropped instead: a U+FFFD there would
// make a tag text (<\uFFFDp> is no tag) or change a class name, where the
// byte, being no character, named nothing anyway. Either way the page
// warns of the bytes (Decoded.Invalid).
func repairUTF8(b []byte, s utf8Stats) []byte {
	if s.Bad == 0 {
		return b
	}
	out := make([]byte, 0, len(b)+2*s.Bad)
	inTag := false
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '<':
			inTag = true
		case c == '>':
			inTag = false
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				if !inTag {
					out = append(out, "\uFFFD"...)
				}
				i += illFormedLen(b[i:])
				continue
			}
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// illFormedLen is the length of the ill-formed sequence at the start of b,
// which utf8.DecodeRune rejected: the lead byte and the continuation bytes
// that could still have followed it in a well-formed sequence (1 to 3).
func illFormedLen(b []byte) int {
	size, lo, hi := leadRange(b[0])
	n := 1
	for n < size-1 && n < len(b) && b[n] >= lo && b[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}

// leadRange gives, for a lead byte, the length of the sequence it starts
// and the range its second byte must fall in (Unicode table 3-7). A byte
// that starts no sequence has size 1.
func leadRange(c byte) (size int, lo, hi byte) {
	switch {
	case c < 0xC2 || c > 0xF4:
		return 1, 0, 0
	case c < 0xE0:
		size = 2
	case c < 0xF0:
		size = 3
	default:
		size = 4
	}
	lo, hi = 0x80, 0xBF
	switch c {
	case 0xE0: // no overlong forms
		lo = 0xA0
	case 0xED: // no surrogates
		hi = 0x9F
	case 0xF0: // no overlong forms
		lo = 0x90
	case 0xF4: // nothing above U+10FFFF
		hi = 0x8F
	}
	return size, lo, hi
}
