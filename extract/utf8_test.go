package extract

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

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
