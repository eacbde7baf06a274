package extract

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/winnow-go/winnow/internal/ascii"
	"github.com/winnow-go/winnow/internal/textseg"
)

// ErrUnknownCharset is returned by Decode when the caller forces a charset
// that has no decoder.
var ErrUnknownCharset = errors.New("extract: unknown charset")

// Source of the charset that Decode used, reported in Decoded.Via.
const (
	ViaBOM       = "bom"
	ViaHeader    = "http-header"
	ViaUTF8      = "utf-8-valid" // valid UTF-8, or nearly (see mostlyUTF8)
	ViaMeta      = "meta"
	ViaDetection = "detection"
	ViaForced    = "forced"
	ViaASCII     = "ascii"
)

// Decoded is the result of Decode.
type Decoded struct {
	Text    []byte // the page as UTF-8
	Charset string // canonical name of the charset used, e.g. "windows-1251"
	Via     string // which step chose it (one of the Via* constants)
	// Invalid counts the bytes of the ill-formed UTF-8 sequences repaired
	// when Charset is "utf-8" (each sequence became U+FFFD, or was dropped
	// inside markup; see repairUTF8); zero for the other charsets.
	Invalid int
}

// Decode converts raw page bytes to UTF-8. It tries, in order: a byte-order
// mark; the charset of the HTTP Content-Type (contentType, may be empty);
// the whole body when it reads as UTF-8 (see mostlyUTF8) and is not pure
// ASCII; a <meta> charset anywhere in the head; statistical detection
// (gogs/chardet, re-checked below). A declared charset whose decoding is
// clearly wrong (a declared UTF-8 whose non-ASCII bytes are mostly
// ill-formed, see declaredUTF8) goes to detection. A page read as UTF-8
// repairs its few ill-formed sequences (U+FFFD in text, dropped inside
// markup; see repairUTF8) and counts their bytes in Decoded.Invalid. GB2312 and GBK are decoded as
// GB18030, their superset, because pages labelled GB2312 routinely use
// GBK characters.
func Decode(b []byte, contentType string) (Decoded, error) {
	d, err := decode(b, contentType)
	return d.dropInvalid(), err
}

// dropInvalid removes U+FFFD from text decoded from a legacy charset: byte
// sequences that form no character there (typically a double-byte
// character cut in half by a "..." truncation) carry no text. Valid UTF-8
// input is returned unchanged.
func (d Decoded) dropInvalid() Decoded {
	if d.Charset != "utf-8" && bytes.Contains(d.Text, []byte("\uFFFD")) {
		d.Text = bytes.ReplaceAll(d.Text, []byte("\uFFFD"), nil)
	}
	return d
}

func decode(b []byte, contentType string) (Decoded, error) {
	if enc, name := bomEncoding(b); enc != nil {
		return decodeWith(b, enc, name, ViaBOM)
	}
	header := headerCharset(contentType)
	meta := metaCharset(b)
	s := countUTF8(b)
	if d, ok := tryDeclared(b, s, header, ViaHeader, isLegacy(meta)); ok {
		return d, nil
	}
	if s.Multi == 0 && s.Bad == 0 {
		return Decoded{Text: b, Charset: "utf-8", Via: ViaASCII}, nil
	}
	if mostlyUTF8(s) {
		return asUTF8(b, s, ViaUTF8), nil
	}
	if d, ok := tryDeclared(b, s, meta, ViaMeta, isLegacy(header)); ok {
		return d, nil
	}
	return detect(b)
}

// headerCharset is the charset parameter of an HTTP Content-Type, "" when
// it has none.
func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		return params["charset"]
	}
	return ""
}

// mostlyUTF8 tells whether bytes that declare nothing (or declare a legacy
// charset) are UTF-8: they hold well-formed multi-byte sequences and at
// most one ill-formed sequence for every three well-formed ones. Pages in
// a legacy charset fall far from that line. Over real GB2312/GBK and
// EUC-JP pages of ../shared/data and its UTF-8 pages transcoded to
// windows-1251, KOI8-R, ISO-8859-5, CP866, GBK, Big5, EUC-JP, Shift_JIS
// and EUC-KR, the share of ill-formed sequences among the non-ASCII ones
// is at least 0.75 (EUC-JP 0.752, GBK 0.769, CP866 0.818, Big5 0.828,
// Shift_JIS 0.844, windows-1251 0.984), three times the 0.25 allowed
// here; Western single-byte pages (windows-1250, windows-1252) have no
// well-formed sequence unless they already held mojibake, whose bytes
// are partly UTF-8 indeed. TestUTF8Thresholds keeps these figures.
func mostlyUTF8(s utf8Stats) bool {
	return s.Multi > 0 && 3*s.Bad <= s.Multi
}

// declaredUTF8 tells whether bytes declared UTF-8 are: no more ill-formed
// sequences than well-formed ones (a share of at most 0.5, below the 0.75
// of every legacy page measured for mostlyUTF8), or, when no other
// declaration names a legacy charset, fewer than 16 ill-formed sequences
// in all. So few leave no evidence against the declaration beyond those
// bytes, and reading them as U+FFFD loses no more text than reading them
// in a guessed charset would; 8% of the windows-1250 and 16% of the
// windows-1252 pages of TestUTF8Thresholds have that few, and labelled
// UTF-8 they lose those letters. A page whose header and meta disagree
// (a server's default "charset=UTF-8" over an ISO-8859-1 page) needs the
// share.
func declaredUTF8(s utf8Stats, contradicted bool) bool {
	return s.Bad <= s.Multi || !contradicted && s.Bad < 16
}

// asUTF8 returns b read as UTF-8, its ill-formed sequences replaced.
func asUTF8(b []byte, s utf8Stats, via string) Decoded {
	return Decoded{Text: repairUTF8(b, s), Charset: "utf-8", Via: via, Invalid: s.BadBytes}
}

// isLegacy tells whether a charset label names a known charset other than
// UTF-8.
func isLegacy(label string) bool {
	enc, name := lookup(label)
	return enc != nil && name != "utf-8"
}

// DecodeAs decodes b with the named charset, for callers that know better
// than the page. An unknown name is ErrUnknownCharset.
func DecodeAs(b []byte, name string) (Decoded, error) {
	enc, canon := lookup(name)
	if enc == nil {
		return Decoded{}, fmt.Errorf("%w %q", ErrUnknownCharset, name)
	}
	d, err := decodeWith(b, enc, canon, ViaForced)
	return d.dropInvalid(), err
}

// tryDeclared decodes b, whose UTF-8 reading s describes, with a declared
// charset label. It refuses (ok false) an unknown label, a UTF-8 label on
// bytes that are not UTF-8 (declaredUTF8; contradicted when the other
// declaration names a legacy charset), and a single-byte or multi-byte
// label whose decoding produces many invalid sequences, so that detection
// gets its turn.
func tryDeclared(b []byte, s utf8Stats, label, via string, contradicted bool) (Decoded, bool) {
	if label == "" {
		return Decoded{}, false
	}
	enc, name := lookup(label)
	if enc == nil {
		return Decoded{}, false
	}
	if name == "utf-8" {
		if !declaredUTF8(s, contradicted) {
			return Decoded{}, false
		}
		return asUTF8(b, s, via), true
	}
	if mostlyUTF8(s) {
		// A page that is UTF-8 but declares a legacy charset was almost
		// always re-encoded without fixing its declaration.
		return Decoded{}, false
	}
	d, err := decodeWith(b, enc, name, via)
	if err != nil || badShare(d.Text) > 0.01 {
		return Decoded{}, false
	}
	return d, true
}

// lookup maps a charset label to an encoding and a canonical name, with
// GB2312 and GBK widened to GB18030.
func lookup(label string) (encoding.Encoding, string) {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	switch label {
	case "gb2312", "gbk", "gb_2312-80", "x-gbk", "cp936", "gb18030", "gb-18030", "euc-cn":
		return simplifiedchinese.GB18030, "gb18030"
	case "utf8", "utf-8":
		return unicode.UTF8, "utf-8"
	}
	enc, name := charset.Lookup(label)
	if enc == nil {
		return nil, ""
	}
	if name == "gbk" {
		return simplifiedchinese.GB18030, "gb18030"
	}
	return enc, name
}

func bomEncoding(b []byte) (encoding.Encoding, string) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return unicode.UTF8BOM, "utf-8"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "utf-16le"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "utf-16be"
	}
	return nil, ""
}

func decodeWith(b []byte, enc encoding.Encoding, name, via string) (Decoded, error) {
	if name == "utf-8" {
		b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		return asUTF8(b, countUTF8(b), via), nil
	}
	out, _, err := transform.Bytes(enc.NewDecoder(), b)
	if err != nil {
		return Decoded{}, fmt.Errorf("extract: decode as %s: %w", name, err)
	}
	return Decoded{Text: out, Charset: name, Via: via}, nil
}

// badShare is the share of U+FFFD among the non-ASCII runes of s.
func badShare(s []byte) float64 {
	var bad, nonASCII int
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		s = s[n:]
		if r >= 0x80 {
			nonASCII++
			if r == utf8.RuneError {
				bad++
			}
		}
	}
	if nonASCII == 0 {
		return 0
	}
	return float64(bad) / float64(nonASCII)
}

// metaCharset finds a charset declaration in a <meta> tag anywhere before
// </head> (or in the whole page when there is no </head>): both
// <meta charset=X> and <meta http-equiv=Content-Type content="...; charset=X">.
func metaCharset(b []byte) string {
	head := b
	if i := ascii.IndexFold(b, "</head"); i >= 0 {
		head = b[:i]
	}
	for off := 0; ; {
		i := ascii.IndexFold(head[off:], "<meta")
		if i < 0 {
			return ""
		}
		start := off + i
		end := bytes.IndexByte(head[start:], '>')
		if end < 0 {
			return ""
		}
		tag := bytes.ToLower(head[start : start+end])
		off = start + end
		j := bytes.Index(tag, []byte("charset"))
		if j < 0 {
			continue
		}
		v := tag[j+len("charset"):]
		v = bytes.TrimLeft(v, " \t\r\n")
		if len(v) == 0 || v[0] != '=' {
			continue
		}
		v = bytes.TrimLeft(v[1:], " \t\r\n\"'")
		k := bytes.IndexAny(v, " \t\r\n\"';/>")
		if k >= 0 {
			v = v[:k]
		}
		if len(v) > 0 {
			return string(v)
		}
	}
}

// detect guesses the charset with gogs/chardet and re-ranks its candidates
// by decoding each and checking the result, since chardet's confidence
// alone confuses the Cyrillic single-byte charsets and the CJK multi-byte
// ones on short or tag-heavy pages.
func detect(b []byte) (Decoded, error) {
	results, err := chardet.NewHtmlDetector().DetectAll(b)
	if err != nil || len(results) == 0 {
		// Nothing recognisable: Windows-1252 decodes every byte.
		return decodeWith(b, charsetWindows1252(), "windows-1252", ViaDetection)
	}
	// chardet returns candidates in an order that varies between runs when
	// confidences tie; sort them so that the output is deterministic.
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].Confidence != results[j].Confidence {
			return results[i].Confidence > results[j].Confidence
		}
		return results[i].Charset < results[j].Charset
	})
	var best Decoded
	bestScore := -1.0
	for _, r := range results {
		enc, name := lookup(r.Charset)
		if enc == nil || name == "utf-8" {
			continue
		}
		d, err := decodeWith(b, enc, name, ViaDetection)
		if err != nil {
			continue
		}
		s := float64(r.Confidence)/100 + plausibility(d.Text)
		if s > bestScore {
			best, bestScore = d, s
		}
	}
	if bestScore < 0 {
		return decodeWith(b, charsetWindows1252(), "windows-1252", ViaDetection)
	}
	return best, nil
}

func charsetWindows1252() encoding.Encoding {
	enc, _ := charset.Lookup("windows-1252")
	return enc
}

// plausibility scores decoded text: invalid sequences and private-use or
// control characters count against it, and for Cyrillic the share of
// lower-case letters counts for it (a KOI8-R page read as Windows-1251, or
// the reverse, comes out mostly in capitals). The result is in [-1, 1].
func plausibility(s []byte) float64 {
	var bad, nonASCII, cyr, cyrLower, cjk int
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		s = s[n:]
		if r < 0x80 {
			continue
		}
		nonASCII++
		switch {
		case r == utf8.RuneError, r >= 0xE000 && r <= 0xF8FF, r >= 0x80 && r < 0xA0:
			bad++
		case r >= 0x0400 && r <= 0x04FF:
			cyr++
			if r >= 0x0430 {
				cyrLower++
			}
		case textseg.IsCJK(r):
			cjk++
		}
	}
	if nonASCII == 0 {
		return 0
	}
	score := -2 * float64(bad) / float64(nonASCII)
	if cyr > nonASCII/2 {
		score += float64(cyrLower)/float64(cyr) - 0.5
	}
	return max(-1, min(1, score))
}
