// Package ascii holds byte-level helpers for markup, whose tag and
// attribute names are ASCII whatever the page's charset.
package ascii

import "bytes"

// IndexFold is bytes.Index for an ASCII lower-case needle, ignoring ASCII
// case in s. It jumps between occurrences of the needle's first byte (in
// either case), so a needle that a page lacks costs one fast scan.
func IndexFold(s []byte, lowerNeedle string) int {
	n := len(lowerNeedle)
	if n == 0 {
		return 0
	}
	first, upper := lowerNeedle[0], lowerNeedle[0]
	if 'a' <= first && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	starts := string([]byte{first, upper})
	for i := 0; i+n <= len(s); {
		j := bytes.IndexAny(s[i:len(s)-n+1], starts)
		if j < 0 {
			return -1
		}
		i += j
		if equalFold(s[i:i+n], lowerNeedle) {
			return i
		}
		i++
	}
	return -1
}

// equalFold reports whether b, lower-cased in ASCII, equals lower.
func equalFold(b []byte, lower string) bool {
	for k := 0; k < len(lower); k++ {
		c := b[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[k] {
			return false
		}
	}
	return true
}
