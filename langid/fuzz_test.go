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
// counts, wordsOf yields the runs of letters and marks, and lowerASCII
// lower-cases an ASCII word as lowerInto does.
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
		for _, w := range got {
			if lw, ascii := lowerASCII(nil, w); ascii && string(lw) != string(lowerInto(nil, w)) {
				t.Errorf("lowerASCII(%q) = %q, want %q", w, lw, lowerInto(nil, w))
			}
		}
	})
}

// FuzzIdentifyDeclared holds IdentifyDeclared to its contract on any
// text and declaration: a language of the set or "", a confidence in
// (0, 1] with a language and 0 without one, the same answer twice, and
// the common words deciding only languages that have a list.
func FuzzIdentifyDeclared(f *testing.F) {
	for _, c := range [][2]string{{"", ""}, {"The city council voted on Tuesday to expand the bicycle lanes along the river, and the mayor said that the work will start in the spring.", "en"},
		{"Der Stadtrat hat am Dienstag beschlossen, die Radwege entlang des Flusses auszubauen, und der Bürgermeister sagte, dass die Arbeiten beginnen.", "en"},
		{"Kami sudah bisa memahami karena ini adalah hal yang penting untuk kita, mereka bisa datang karena hujan sudah berhenti.", "ms"},
		{"Palm Bay d. Rockledge 70-44 Tolivert 25 points", "en"}, {"北京市政府今天宣布", "ja"}, {"a\xffb и в на", "xx"}} {
		f.Add(c[0], c[1])
	}
	id := Default()
	f.Fuzz(func(t *testing.T, text, declared string) {
		l, conf := id.IdentifyDeclared(text, declared)
		if l2, conf2 := id.IdentifyDeclared(text, declared); l2 != l || conf2 != conf {
			t.Fatalf("IdentifyDeclared(%q, %q) = %s %v, then %s %v", text, declared, l, conf, l2, conf2)
		}
		if l == "" && conf != 0 || l != "" && (conf <= 0 || conf > 1) {
			t.Fatalf("IdentifyDeclared(%q, %q) = %q with confidence %v", text, declared, l, conf)
		}
		if _, ok := id.langs[l]; l != "" && !ok {
			t.Fatalf("IdentifyDeclared(%q, %q) = %q, not a language of the set", text, declared, l)
		}
		if w, _, ok := id.words.decide(id.words.count(text), declared); ok && !slices.Contains(id.words.langs, w) {
			t.Fatalf("decide(%q, %q) = %q, a language without a list", text, declared, w)
		}
	})
}
