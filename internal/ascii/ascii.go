// Package ascii holds byte-level helpers for markup, whose tag and
// attribute names are ASCII whatever the page's charset.
package ascii

import (
	"bytes"
	"strings"
)

// IndexFold is bytes.Index for an ASCII lower-case needle, ignoring ASCII
// case in s. It jumps between occurrences of the needle's first byte,
// found for each case with bytes.IndexByte and kept until passed, so a
// needle that a page lacks costs one fast scan per case.
func IndexFold(s []byte, lowerNeedle string) int {
	n := len(lowerNeedle)
	if n == 0 {
		return 0
	}
	if n > len(s) {
		return -1
	}
	starts := s[:len(s)-n+1] // where a match can begin
	lo, up := lowerNeedle[0], lowerNeedle[0]
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	nextLo, nextUp := -1, -1 // the next start at or after i of each case; len(starts) for none
	for i := 0; i < len(starts); i++ {
		if nextLo < i {
			nextLo = indexFrom(starts, i, lo)
		}
		if nextUp < i {
			nextUp = nextLo
			if up != lo {
				nextUp = indexFrom(starts, i, up)
			}
		}
		if i = min(nextLo, nextUp); i == len(starts) {
			return -1
		}
		if equalFold(s[i:i+n], lowerNeedle) {
			return i
		}
	}
	return -1
}

// ContainsFold reports whether s holds the ASCII lower-case needle,
// ignoring ASCII case in s, without copying s: for short values, such as
// a class attribute's, where IndexFold's jumps do not pay.
func ContainsFold(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	if n == 0 {
		return true
	}
	first := lowerNeedle[0]
	for i := 0; i+n <= len(s); i++ {
		if lowerByte(s[i]) == first && equalFold(s[i+1:i+n], lowerNeedle[1:]) {
			return true
		}
	}
	return false
}

// lowerByte is c lower-cased in ASCII.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// indexFrom is the index of c in s at or after i, or len(s).
func indexFrom(s []byte, i int, c byte) int {
	if j := bytes.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
}

// equalFold reports whether b, lower-cased in ASCII, equals lower.
func equalFold[S string | []byte](b S, lower string) bool {
	for k := 0; k < len(lower); k++ {
		if lowerByte(b[k]) != lower[k] {
			return false
		}
	}
	return true
}

// StyleHides reports whether an inline style attribute's value hides its
// element: display:none or visibility:hidden, with any spaces and the
// property in any case (the value in lower case, as pages write it: a
// style without "none" or "hidden" is ruled out before any copy).
func StyleHides(style string) bool {
	if !strings.Contains(style, "none") && !strings.Contains(style, "hidden") {
		return false
	}
	s := strings.ReplaceAll(strings.ToLower(style), " ", "")
	return strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden")
}
