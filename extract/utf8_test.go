package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func TestRepairUTF8(t *testing.T) {
	tests := []struct {
		name, in, want string
		multi, bad     int
		badBytes       int
	}{
		{"valid", "héllo 中文 😀", "héllo 中文 😀", 4, 0, 0},
		{"stray latin-1", "caf\xe9 ok", "caf\uFFFD ok", 0, 1, 1},
		{"stray continuation", "a\x80b", "a\uFFFDb", 0, 1, 1},
		{"cut 3-byte", "a\xe4\xb8b", "a\uFFFDb", 0, 1, 2},
		{"cut 4-byte", "a\xf0\x9f\x98b", "a\uFFFDb", 0, 1, 3},
		{"cut at end", "中\xe6\x96", "中\uFFFD", 1, 1, 2},
		{"overlong", "\xc0\xaf", "\uFFFD\uFFFD", 0, 2, 2},
		{"surrogate", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD", 0, 3, 3},
		{"e0 needs a0", "\xe0\x80\x80", "\uFFFD\uFFFD\uFFFD", 0, 3, 3},
		{"above U+10FFFF", "\xf4\x90\x80\x80", strings.Repeat("\uFFFD", 4), 0, 4, 4},
		{"two cut sequences", "\xe4\xb8\xe4\xb8", "\uFFFD\uFFFD", 0, 2, 4},
	}
	// Inside markup the bytes go: a U+FFFD would make the tag text.
	markup := []struct {
		name, in, want string
	}{
		{"after <", "<\xe9p>caf\xe9</p>", "<p>caf\uFFFD</p>"},
		{"in a class", "<div class=\"art\xe4\xb8icle\">x</div>", `<div class="article">x</div>`},
		{"closing tag", "<p>x</\x80p>", "<p>x</p>"},
	}
	for _, tc := range markup {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(repairUTF8([]byte(tc.in), countUTF8([]byte(tc.in)))); got != tc.want {
				t.Errorf("repairUTF8 = %q, want %q", got, tc.want)
			}
		})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := countUTF8([]byte(tc.in))
			if s != (utf8Stats{tc.multi, tc.bad, tc.badBytes}) {
				t.Errorf("countUTF8 = %+v, want multi %d bad %d bytes %d", s, tc.multi, tc.bad, tc.badBytes)
			}
			if got := string(repairUTF8([]byte(tc.in), s)); got != tc.want {
				t.Errorf("repairUTF8 = %q, want %q", got, tc.want)
			}
			// x/text's decoder also substitutes maximal subparts.
			if ref, _ := unicode.UTF8.NewDecoder().String(tc.in); ref != tc.want {
				t.Errorf("x/text decodes %q, the case wants %q", ref, tc.want)
			}
		})
	}
}

// legacyPages returns pages in legacy charsets by group: the GB2312/GBK
// pages of cleaneval-zh and the EUC-JP pages of the ClueWeb09 WARC as
// fetched, and UTF-8 pages transcoded (see transcode).
func legacyPages(t *testing.T, data string) map[string][][]byte {
	groups := map[string][][]byte{}
	files, _ := filepath.Glob(filepath.Join(data, "extract", "cleaneval-zh", "html", "*.html.gz"))
	for _, f := range files {
		_, b := StripTextWrapper(readGz(t, f))
		if countUTF8(b).Bad > 0 {
			groups["gb (cleaneval-zh)"] = append(groups["gb (cleaneval-zh)"], b)
		}
	}
	_, groups["euc-jp (clueweb)"] = warcResponses(t, filepath.Join(data, "warc", "resiliparse", "clueweb-quirk.warc.gz"))
	for _, j := range []struct {
		set, name string
		enc       encoding.Encoding
	}{
		{"daniel-ru", "windows-1251", charmap.Windows1251},
		{"daniel-ru", "koi8-r", charmap.KOI8R},
		{"daniel-ru", "iso-8859-5", charmap.ISO8859_5},
		{"daniel-ru", "cp866", charmap.CodePage866},
		{"daniel-zh", "gbk", simplifiedchinese.GBK},
		{"daniel-zh", "big5", traditionalchinese.Big5},
		{"daniel-zh", "euc-jp", japanese.EUCJP},
		{"daniel-zh", "shift_jis", japanese.ShiftJIS},
		{"daniel-zh", "euc-kr", korean.EUCKR},
		{"scrapinghub", "windows-1252", charmap.Windows1252},
		{"trafilatura", "windows-1250", charmap.Windows1250},
	} {
		files, _ := filepath.Glob(filepath.Join(data, "extract", j.set, "html", "*.html.gz"))
		for _, f := range files {
			raw, _ := transcode(t, readGz(t, f), j.enc)
			if countUTF8(raw).Bad > 0 {
				k := j.name + " (" + j.set + ")"
				groups[k] = append(groups[k], raw)
			}
		}
	}
	return groups
}

// TestUTF8Thresholds measures where pages in legacy charsets fall against
// the two UTF-8 rules, mostlyUTF8 and declaredUTF8: the multi-byte
// charsets and the Cyrillic ones must fail both (their share of ill-formed
// sequences among the non-ASCII ones is at least 0.75), and the Western
// single-byte ones fail mostlyUTF8 (no well-formed sequence) but, when
// they have fewer than 16 non-ASCII letters, pass declaredUTF8.
func TestUTF8Thresholds(t *testing.T) {
	data := shareddata.Require(t)
	groups := legacyPages(t, data)
	names := make([]string, 0, len(groups))
	for k := range groups {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		pages := groups[k]
		western := strings.HasPrefix(k, "windows-125") && k != "windows-1251 (daniel-ru)"
		minShare, mostly, declared := 1.0, 0, 0
		for _, b := range pages {
			s := countUTF8(b)
			minShare = min(minShare, float64(s.Bad)/float64(s.Bad+s.Multi))
			if mostlyUTF8(s) {
				mostly++
			}
			if declaredUTF8(s, false) {
				declared++
			}
		}
		t.Logf("%-28s %4d pages: ill-formed share min %.3f; read as UTF-8 undeclared %d, declared UTF-8 %d",
			k, len(pages), minShare, mostly, declared)
		switch {
		case len(pages) < 20:
			t.Errorf("%s: only %d pages", k, len(pages))
		case western && (mostly > 0 || declared > len(pages)/4):
			t.Errorf("%s: %d pages read as UTF-8 undeclared, %d declared", k, mostly, declared)
		case !western && (minShare < 0.75 || mostly+declared > 0):
			t.Errorf("%s: share %.3f, %d pages read as UTF-8 undeclared, %d declared", k, minShare, mostly, declared)
		}
	}
}

// wordsInBody returns the offsets, in page, of the middle of the first n
// words of at least six letters of gold (the lines after the headline)
// that occur in page after <body, each found after the one before.
func wordsInBody(t *testing.T, page []byte, gold string, n int) []int {
	t.Helper()
	var at []int
	off := bytes.Index(page, []byte("<body"))
	_, body, _ := strings.Cut(gold, "\n")
	for _, w := range strings.Fields(body) {
		if len(at) == n {
			break
		}
		if utf8.RuneCountInString(w) < 6 {
			continue
		}
		if i := bytes.Index(page[off:], []byte(w)); i >= 0 {
			r3 := len(string([]rune(w)[:3]))
			at = append(at, off+i+r3)
			off += i + len(w)
		}
	}
	if len(at) < n {
		t.Fatalf("found %d of %d words", len(at), n)
	}
	return at
}

// insertAt inserts piece into page before each offset in at (ascending).
func insertAt(page []byte, at []int, piece string) []byte {
	var out []byte
	prev := 0
	for _, i := range at {
		out = append(append(out, page[prev:i]...), piece...)
		prev = i
	}
	return append(out, page[prev:]...)
}

// TestDecodeInvalidUTF8 takes a real Russian page (declared UTF-8 in a
// <meta>) and the same page with its declaration removed, puts invalid
// bytes inside words of its text, and expects UTF-8 with one U+FFFD per
// ill-formed sequence, the invalid-utf8 warning and, U+FFFD removed, the
// clean page's text; a windows-1251 copy labelled UTF-8 must still be
// read as windows-1251. Two pages of the htmldate set came with invalid
// bytes from the crawl.
func TestDecodeInvalidUTF8(t *testing.T) {
	data := shareddata.Require(t)
	const id = "20111128_news.bcm.ru_51f1c8d6e09c4ed03027a7d14443c92eb9cb506bce82a6a9c45ccd04"
	declared := readGz(t, filepath.Join(data, "extract", "daniel-ru", "html", id+".html.gz"))
	gold, err := os.ReadFile(filepath.Join(data, "extract", "daniel-ru", "gold", id+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	undeclared := metaDecl.ReplaceAll(declared, nil)
	cp1251, want1251 := transcode(t, declared, charmap.Windows1251)
	htmldate := func(name string) []byte {
		return readGz(t, filepath.Join(data, "metadata", "htmldate", "html", name+".html.gz"))
	}
	tests := []struct {
		name        string
		clean       []byte // the page before injection; nil for a page as crawled
		in          []byte
		contentType string
		charset     string
		invalid     int    // bytes
		text        []byte // the decoded text, for a legacy charset
	}{
		{"declared, one stray 0xE9", declared, insertAt(declared, wordsInBody(t, declared, string(gold), 1), "\xe9"), "", "utf-8", 1, nil},
		{"undeclared, one stray 0xE9", undeclared, insertAt(undeclared, wordsInBody(t, undeclared, string(gold), 1), "\xe9"), "", "utf-8", 1, nil},
		{"declared, a cut 3-byte sequence", declared, insertAt(declared, wordsInBody(t, declared, string(gold), 1), "\xe2\x80"), "", "utf-8", 2, nil},
		{"undeclared, a cut 3-byte sequence", undeclared, insertAt(undeclared, wordsInBody(t, undeclared, string(gold), 1), "\xe2\x80"), "", "utf-8", 2, nil},
		{"declared, 100 stray bytes", declared, insertAt(declared, wordsInBody(t, declared, string(gold), 100), "\x92"), "", "utf-8", 100, nil},
		{"undeclared, 100 stray bytes", undeclared, insertAt(undeclared, wordsInBody(t, undeclared, string(gold), 100), "\x92"), "", "utf-8", 100, nil},
		{"header, 100 cut sequences", undeclared, insertAt(undeclared, wordsInBody(t, undeclared, string(gold), 100), "\xd0"), "text/html; charset=utf-8", "utf-8", 100, nil},
		{"crawled: der-erfolg-gibt-recht.de", nil, htmldate("der-erfolg-gibt-recht.de.rinderleber"), "", "utf-8", 3, nil},
		{"crawled: tierschutzpartei.de", nil, htmldate("tierschutzpartei.de-wildvogelauffang"), "", "utf-8", 4, nil},
		{"windows-1251 labelled utf-8 in a meta", nil, append([]byte(`<meta charset="utf-8">`), cp1251...), "", "windows-1251", 0,
			append([]byte(`<meta charset="utf-8">`), want1251...)},
		{"windows-1251 labelled utf-8 in the header", nil, cp1251, "text/html; charset=utf-8", "windows-1251", 0, want1251},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decode(tc.in, tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if d.Charset != tc.charset || d.Invalid != tc.invalid {
				t.Fatalf("decoded as %s via %s with %d invalid bytes, want %s with %d", d.Charset, d.Via, d.Invalid, tc.charset, tc.invalid)
			}
			if tc.text != nil {
				if !bytes.Equal(d.Text, tc.text) {
					t.Errorf("text differs from the %s reading", tc.charset)
				}
				return
			}
			p, err := Extract(tc.in, Options{ContentType: tc.contentType})
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("invalid-utf8: %d bytes", tc.invalid); !slices.Contains(p.Warnings, want) {
				t.Errorf("warnings %q, want %q", p.Warnings, want)
			}
			if tc.clean == nil {
				return
			}
			if got := bytes.ReplaceAll(d.Text, []byte("\uFFFD"), nil); !bytes.Equal(got, tc.clean) {
				t.Error("decoded text, U+FFFD removed, differs from the clean page")
			}
			clean, err := Extract(tc.clean, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.ReplaceAll(p.Text(), "\uFFFD", ""); got != clean.Text() {
				t.Errorf("extracted text, U+FFFD removed, differs from the clean page's:\n%.300s\nwant\n%.300s", got, clean.Text())
			}
		})
	}
}
