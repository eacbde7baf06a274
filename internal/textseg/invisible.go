package textseg

// The invisible characters are format characters that only steer line
// breaking and that text for reading, indexing and search does without:
// the soft hyphen (U+00AD: "Deutsch&shy;land" is one word, but a
// tokenizer splits it in two), the zero-width space (U+200B), the word
// joiner (U+2060) and the zero-width no-break space, or byte-order mark
// (U+FEFF). The zero-width joiner and non-joiner (U+200D, U+200C) are not
// among them: they shape Persian and Indic words and emoji sequences.

// InvisibleAt is the length in bytes of the invisible character that
// starts at s[i], 0 when none does.
func InvisibleAt(s string, i int) int {
	switch s[i] {
	case 0xC2: // U+00AD
		if i+1 < len(s) && s[i+1] == 0xAD {
			return 2
		}
	case 0xE2: // U+200B, U+2060
		if i+2 < len(s) && (s[i+1] == 0x80 && s[i+2] == 0x8B || s[i+1] == 0x81 && s[i+2] == 0xA0) {
			return 3
		}
	case 0xEF: // U+FEFF
		if i+2 < len(s) && s[i+1] == 0xBB && s[i+2] == 0xBF {
			return 3
		}
	}
	return 0
}

// AppendVisible appends s to dst without its invisible characters.
func AppendVisible(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		if n := InvisibleAt(s, i); n > 0 {
			dst = append(dst, s[start:i]...)
			i += n
			start = i
			continue
		}
		i++
	}
	return append(dst, s[start:]...)
}

// DropInvisible is s without its invisible characters (s itself when it
// has none).
func DropInvisible(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xC2 && InvisibleAt(s, i) > 0 {
			return string(AppendVisible(make([]byte, 0, len(s)), s))
		}
	}
	return s
}
