package langid

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// FuzzTextScans holds the byte-level scans of words.go and cjk.go to
// their rune-by-rune definitions on any text, valid UTF-8 or not:
// mayHaveCJK finds every ideograph, kana and Hangul letter that byScript
// counts, and wordsOf yields the runs of letters and marks.
func FuzzTextScans(f *testing.F) {
	for _, s := range []string{"", "The end.", "It’s “quoted” — ok", "Привет, мир", "北京市政府", "ｶﾀｶﾅ ᄀ 한국",
		"naïve café", "e\u0301te\u0301", "\xe4\xb8", "a\xffb", "x新y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsFunc(s, func(r rune) bool {
			return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
		}) && !mayHaveCJK(s) {
			t.Errorf("mayHaveCJK(%q) = false, but it has CJK", s)
		}
		got := slices.Collect(wordsOf(s))
		want := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) })
		if !slices.Equal(got, want) {
			t.Errorf("wordsOf(%q) = %q, want %q", s, got, want)
		}
	})
}
