package extract

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/winnow-go/winnow/internal/textseg"
)

// Mojibake is text that was decoded in the wrong charset and saved again
// as UTF-8: "donâ€™t" for "don’t" (UTF-8 read as windows-1252), or a
// GBK page read as windows-1252 ("Ž¬³€±»ÓÎ"). It comes to winnow as
// well-formed UTF-8, so the decoder takes it at its word; a crawler that
// stored a page through a misconfigured proxy, a CMS that double-encoded
// its database, a dataset built with the wrong codec all produce it. A
// corpus built from it is wrong in every accented letter and every
// typographic quote, and a language identifier reads a Chinese page so
// mangled as Turkish.
//
// repairMojibake undoes it in two ways, both exact inverses (a character
// is restored only when the bytes its characters stand for spell a
// well-formed UTF-8 sequence or decode cleanly in the page's declared
// charset, so no text is guessed):
//
//   - The whole page. When every non-ASCII character of the page is one
//     that windows-1252 (or Latin-1, for the five bytes windows-1252
//     leaves undefined) or ISO-8859-15 gives to a byte, the page may be
//     those bytes read wrongly. Those bytes are then read as UTF-8 when they all are
//     well-formed UTF-8, or in the multi-byte charset (GB18030, Big5,
//     Shift_JIS, EUC-JP, EUC-KR) the page declares when they decode
//     cleanly in it and come out mostly in ideographs, kana or Hangul. A
//     page really written in Latin-1 letters does not pass: its "é"
//     before a space or a letter is no UTF-8 sequence. Over the 3,299
//     pages of ../shared/data, the 1,504 that are UTF-8 with only such
//     characters keep their text, and the 13 that pass are mojibake
//     from end to end (TestMojibakeSharedData).
//   - Single sequences in a page that is otherwise right. Only the
//     openings that real text does not write before a symbol or a
//     letter of the Latin-1 upper half are taken: "Â" and "Ã" (the UTF-8
//     lead bytes C2 and C3: Latin-1's symbols and letters) and "â"
//     followed by two such characters (E2: punctuation, currency,
//     arrows). "é" + no-break space + "»", a French word before a
//     closing guillemet, is well-formed UTF-8 too (U+983B) and is left
//     alone, as are "ß" + soft hyphen and "É" + "®", which the pages of
//     ../shared/data hold as text. So are the Central European letters
//     ("Å‚" for "ł"): "Å" and "Ä" open real words ("på Å") and, in a
//     page of mojibake, pairs that are no mojibake ("ÐÂÎÅ±" from GBK).
//
// Both repeat up to three times, for text encoded wrongly twice or more
// ("Ã¢â‚¬â„¢" for "’"). Such text holds the other openings too, so a
// sequence right after a restored one may open with any lead ("Å“" of
// "Ã¢â‚¬Å“", a misread "œ", for "“").
//
// A character restored as UTF-8 is never ASCII, so no markup is made or
// broken; a page read again in its declared charset is read as that
// charset reads its bytes (an ASCII letter may end a GBK character). It
// returns the text and how many characters were restored, with what the
// text had been taken for. declared gives the charsets the page
// declares (asked only when the whole page is a misreading that is not
// UTF-8).
func repairMojibake(text []byte, declared func() []string) ([]byte, int, string) {
	restored, how := 0, ""
	for range maxLayers {
		if out, n, h, ok := wholeMojibake(text, declared); ok {
			text, restored, how = out, restored+n, h
			continue
		}
		break
	}
	for range maxLayers {
		out, n := sequenceMojibake(text)
		if n == 0 {
			break
		}
		text, restored = out, restored+n
		if how == "" {
			how = "UTF-8 sequences read as windows-1252"
		}
	}
	return text, restored, how
}

// maxLayers is how many times repairMojibake undoes a misreading.
const maxLayers = 3

// misreading is a single-byte charset that a page was wrongly read in:
// each character it gives stands for one byte.
type misreading struct {
	name  string
	above map[rune]byte // its characters above U+00FF, by byte
	lacks map[rune]bool // the Latin-1 characters it does not have
	// differs says that the characters above U+00FF of this reading
	// differ from those of the readings tried after it: a page without
	// one is not tried in it.
	differs bool
}

// newMisreading builds a misreading from a charmap. The bytes a charset
// leaves undefined stand for themselves as the C1 controls of Latin-1:
// that is how the pages of ../shared/data hold them ("â€\u009d" for
// "”", whose last byte windows-1252 does not define).
func newMisreading(name string, cm *charmap.Charmap) *misreading {
	m := &misreading{name: name, above: map[rune]byte{}, lacks: map[rune]bool{}}
	for b := 0x80; b <= 0xFF; b++ {
		r := cm.DecodeByte(byte(b))
		switch {
		case r == utf8.RuneError:
		case r > 0xFF:
			m.above[r] = byte(b)
			if b >= 0xA0 {
				m.lacks[rune(b)] = true
			}
		}
	}
	return m
}

var (
	// latin9 (ISO-8859-15) is Latin-1 with eight letters and signs
	// changed (€ Š š Ž ž Œ œ Ÿ at 0xA4-0xBE). A GBK page read in it
	// holds "Ž¬³€" for 船长 (B4 AC B3 A4), where windows-1252 would show
	// "´¬³¤". It is tried first on a page that holds one of those eight:
	// windows-1252 has them too, at 0x80-0x9F, and so reads such a page
	// as other bytes, often still well-formed GBK.
	latin9 = func() *misreading {
		m := newMisreading("ISO-8859-15", charmap.ISO8859_15)
		m.differs = true
		return m
	}()
	cp1252 = newMisreading("windows-1252", charmap.Windows1252)
	// misreadings are tried in this order.
	misreadings = []*misreading{latin9, cp1252}
)

// byteOf is the byte that r stands for in a page read as m.
func (m *misreading) byteOf(r rune) (byte, bool) {
	if r <= 0xFF {
		return byte(r), !m.lacks[r]
	}
	b, ok := m.above[r]
	return b, ok
}

// wholeMojibake reads text again when it is a misreading from end to end
// (see repairMojibake): ok with the text and its count of non-ASCII
// characters, what it was in and what it was read as.
func wholeMojibake(text []byte, declared func() []string) (out []byte, restored int, how string, ok bool) {
	var multi []string // the declared multi-byte charsets, asked once
	asked := false
	for _, m := range misreadings {
		if out, restored, from, ok := m.whole(text, func() []string {
			if !asked {
				asked = true
				for _, label := range declared() {
					if _, name := lookup(label); multiByteCharset[name] {
						multi = append(multi, label)
					}
				}
			}
			return multi
		}); ok {
			return out, restored, from + " read as " + m.name, true
		}
	}
	return nil, 0, "", false
}

// whole is wholeMojibake for one misreading; multi gives the page's
// declared multi-byte charsets.
func (m *misreading) whole(text []byte, multi func() []string) (out []byte, restored int, from string, ok bool) {
	// A first pass without copying: most pages stop at their first
	// character beyond the charset, or at the first byte that cannot
	// continue a UTF-8 sequence ("’" alone is 0x92) when they declare no
	// multi-byte charset.
	var v utf8Check
	nonASCII, differs := false, !m.differs
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			v.feed(text[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		b, mapped := m.byteOf(r)
		if !mapped || r == utf8.RuneError {
			return nil, 0, "", false
		}
		if !differs && r > 0xFF {
			differs = true
		}
		nonASCII = true
		if v.feed(b); v.bad && len(multi()) == 0 {
			return nil, 0, "", false
		}
		i += n
	}
	if !nonASCII || !differs {
		return nil, 0, "", false
	}
	raw := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			raw = append(raw, text[i])
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		b, _ := m.byteOf(r)
		raw = append(raw, b)
		i += n
	}
	if v.ok() {
		return raw, utf8.RuneCount(raw) - asciiCount(raw), "UTF-8", true
	}
	for _, label := range multi() {
		enc, name := lookup(label)
		d, err := decodeWith(raw, enc, name, "")
		if err != nil || badShare(d.Text) > 0.01 {
			continue
		}
		all, cjk := 0, 0
		for _, r := range string(d.Text) {
			if r >= utf8.RuneSelf {
				all++
				if textseg.IsCJK(r) || isKanaOrHangul(r) {
					cjk++
				}
			}
		}
		if all >= minCJKRestored && 2*cjk >= all {
			return d.dropInvalid().Text, all, name, true
		}
	}
	return nil, 0, "", false
}

// minCJKRestored is the fewest characters a page read again in its
// declared multi-byte charset must come out with: a few bytes decode as
// some ideograph by chance.
const minCJKRestored = 20

// multiByteCharset names the declared charsets in which wholeMojibake
// reads a page again. Single-byte ones are left out: a Latin page
// declared windows-1251 by mistake would come out in clean Cyrillic.
var multiByteCharset = map[string]bool{
	"gb18030": true, "big5": true, "shift_jis": true, "euc-jp": true, "euc-kr": true,
}

// isKanaOrHangul says whether r is a Japanese kana or a Hangul syllable
// or letter.
func isKanaOrHangul(r rune) bool {
	return r >= 0x3040 && r <= 0x30FF || r >= 0xAC00 && r <= 0xD7A3 || r >= 0x1100 && r <= 0x11FF || r >= 0x3130 && r <= 0x318F
}

func asciiCount(b []byte) int {
	n := 0
	for _, c := range b {
		if c < utf8.RuneSelf {
			n++
		}
	}
	return n
}

// utf8Check validates a stream of bytes as UTF-8, one byte at a time: ok
// when every sequence was well formed and complete and there was at
// least one multi-byte sequence.
type utf8Check struct {
	buf  [4]byte
	n    int // bytes of the current sequence held
	need int // bytes the current sequence has
	bad  bool
	seen bool
}

func (c *utf8Check) feed(b byte) {
	if c.bad {
		return
	}
	if c.n == 0 {
		switch {
		case b < utf8.RuneSelf:
			return
		case b >= 0xC2 && b <= 0xDF:
			c.need = 2
		case b >= 0xE0 && b <= 0xEF:
			c.need = 3
		case b >= 0xF0 && b <= 0xF4:
			c.need = 4
		default:
			c.bad = true
			return
		}
	}
	c.buf[c.n] = b
	c.n++
	if c.n < c.need {
		if !utf8.FullRune(c.buf[:c.n]) {
			return
		}
		// A full rune before its length: an invalid continuation.
		c.bad = true
		return
	}
	if r, size := utf8.DecodeRune(c.buf[:c.n]); r == utf8.RuneError || size != c.n {
		c.bad = true
		return
	}
	c.n, c.seen = 0, true
}

func (c *utf8Check) ok() bool { return !c.bad && c.n == 0 && c.seen }

// sequenceMojibake restores the single misread sequences of an otherwise
// right text (see repairMojibake) and counts them.
func sequenceMojibake(text []byte) ([]byte, int) {
	// Every opening is a character U+00C2-U+00F4: 0xC3 then a second
	// byte in UTF-8.
	if bytes.IndexByte(text, 0xC3) < 0 {
		return text, 0
	}
	var out []byte
	restored, done := 0, 0
	for i := 0; i+1 < len(text); {
		j := bytes.IndexByte(text[i:], 0xC3)
		if j < 0 || i+j+1 >= len(text) {
			break
		}
		i += j
		// Right after a restored sequence any lead is taken: text
		// misread twice has its "Å“" (the second half of "œ") beside an
		// "â‚¬".
		seq, n := misreadAt(text[i:], restored > 0 && i == done)
		if n == 0 {
			i += 2
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(out, text[done:i]...)
		out = append(out, seq...)
		restored++
		i += n
		done = i
	}
	if restored == 0 {
		return text, 0
	}
	return append(out, text[done:]...), restored
}

// misreadAt reads the misread sequence that opens t, which starts with
// 0xC3: the UTF-8 bytes it stands for and its length in t, 0 when there
// is none. Only "Â", "Ã" and "â" open one, and a C1 control, which is no
// text ("Â" + U+0085), is none, unless anyLead: the layers of text
// misread twice hold the controls that windows-1252 leaves undefined
// ("â€\u009d" for "”").
func misreadAt(t []byte, anyLead bool) ([]byte, int) {
	lead := t[1] + 0x40 // the byte U+00C0-U+00FF stands for
	switch {
	case lead == 0xC2 || lead == 0xC3 || lead == 0xE2:
	case anyLead && lead >= 0xC2 && lead <= 0xF4:
	default:
		return nil, 0
	}
	size := 2
	if lead >= 0xF0 {
		size = 4
	} else if lead >= 0xE0 {
		size = 3
	}
	seq, n := make([]byte, 1, 4), 2
	seq[0] = lead
	for len(seq) < size {
		if n >= len(t) {
			return nil, 0
		}
		r, w := utf8.DecodeRune(t[n:])
		b, mapped := cp1252.byteOf(r)
		if !mapped || b < 0x80 || b > 0xBF || r == utf8.RuneError {
			return nil, 0
		}
		seq = append(seq, b)
		n += w
	}
	if r, w := utf8.DecodeRune(seq); w != size || r == utf8.RuneError || isC1(r) && !anyLead {
		return nil, 0
	}
	return seq, n
}

// isC1 says whether r is one of the C1 control characters.
func isC1(r rune) bool { return r >= 0x80 && r < 0xA0 }

// mojibakeWarning is the page's warning for restored characters.
func mojibakeWarning(restored int, how string) string {
	noun := "characters"
	if restored == 1 {
		noun = "character"
	}
	return fmt.Sprintf("mojibake: %d %s restored (%s)", restored, noun, how)
}
