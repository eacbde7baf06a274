package metadata

import (
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// prefilterCases are texts for the cheap tests that stand before a
// regexp or a copy: white space of all kinds, separators, wrappers.
var prefilterCases = []string{
	"", " ", "a", " a", "a ", "a  b", "a b", "a\tb", "a\nb", "a\u00a0b", "a\u3000b", "a\u0085b",
	"a\u200bb", "Sarah E. Needleman", "News | Site", "News |Site", "News| Site", "a::b", "a :: b",
	"Title - Site", "Title-Site", "Title – Site", "Title\u00a0|\u00a0Site", "A · B", "A » B",
	"A / B", "a/b", "A • B", "A ~ B", "A: B", "海滨小城举办首届风筝节 | 沿海新闻网", "\xff \xfe", "a\xffb ",
	`{"a":1}`, `<!-- {"a":1} -->`, `{"a":"-->"}`, `{"a":"]]>"}`, `//<![CDATA[ {} //]]>`, `{"a":"<b>x</b>"}`,
	`{"a":"-- >"}`, `{"a":"]>"}`, `<`, `>`, `->`, `-->`, `<!`, `]]>`, `x<!`, `"2019-11-19T13:03:00Z"`,
}

// randomTexts are texts drawn from the pieces the prefilters look for.
func randomTexts(n int) []string {
	pieces := []string{"a", "b", "Né", " ", "  ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u2009", "\u3000", "|", "-", "–", "—",
		":", "::", "·", "»", "/", "•", "~", "<", ">", "!", "]", "[", "--", "海", "\xff"}
	r := rand.New(rand.NewSource(1))
	out := make([]string, n)
	for i := range out {
		var sb strings.Builder
		for k := r.Intn(8); k >= 0; k-- {
			sb.WriteString(pieces[r.Intn(len(pieces))])
		}
		out[i] = sb.String()
	}
	return out
}

func TestFold(t *testing.T) {
	for _, s := range append(prefilterCases, randomTexts(20000)...) {
		if got, want := fold(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("fold(%q) = %q, want %q", s, got, want)
		}
	}
}

// titleSeparators is what separatorAt reads, as a regexp.
var titleSeparators = regexp.MustCompile(`[\s\p{Zs}]+[|\-–—:·»/•~][\s\p{Zs}]+|[\s\p{Zs}]+[|]|[|][\s\p{Zs}]+|[\s\p{Zs}]*::[\s\p{Zs}]*`)

func TestTitleSegmentsPrefilter(t *testing.T) {
	for _, s := range append(prefilterCases, randomTexts(20000)...) {
		var want []string
		last := 0
		for _, m := range titleSeparators.FindAllStringIndex(s, -1) {
			want = append(want, strings.TrimSpace(s[last:m[0]]))
			last = m[1]
		}
		want = append(want, strings.TrimSpace(s[last:]))
		got := titleSegments(s)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Errorf("titleSegments(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestWrapped(t *testing.T) {
	for _, s := range append(prefilterCases, randomTexts(20000)...) {
		want := strings.Contains(s, "<!") || strings.Contains(s, "-->") || strings.Contains(s, "]]>")
		if got := wrapped(s); got != want {
			t.Errorf("wrapped(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestMaySplit(t *testing.T) {
	cases := append(prefilterCases, "Ann and Bob", "Ann und Bob", "Ann et Bob", "Ann y Bob", "Анна и Борис",
		"Ann, Bob", "Ann & Bob", "Ann; Bob", "Ann | Bob", "安、李", "Sarah E. Needleman", "Andy", "Bette")
	for _, s := range cases {
		if authorSplit.MatchString(s) && !maySplit(s) {
			t.Errorf("maySplit(%q) = false, but authorSplit matches it", s)
		}
	}
	for _, s := range randomTexts(20000) {
		s = strings.NewReplacer("a", "and ", "b", " y ", "海", "、").Replace(s)
		if authorSplit.MatchString(s) && !maySplit(s) {
			t.Errorf("maySplit(%q) = false, but authorSplit matches it", s)
		}
	}
}

func TestMayOpenByline(t *testing.T) {
	cases := append(prefilterCases, "By Ann Lee", "by: Ann", "BY ANN", "Von Ann", "Af Ann Lee", "Του Γιώργου", "ΤΗΣ Μαρίας",
		"Written by Ann", "Posted by Ann", "Photos by Ann", "Автор: Анна", "[作者：李妍]", "（记者 王）", "本報記者王小红",
		"本报記者王", "  (By Ann)", "Byline", "Bylines by Ann", "de Ana", "Text: Ann", "Autorin Ann")
	r := strings.NewReplacer("a", "by ", "b", "Af ", "Né", "ΤΗΣ ", "海", "作者：", "<", "(", ">", "【", "!", "written ")
	for _, s := range append(cases, randomTexts(20000)...) {
		for _, s := range []string{s, r.Replace(s)} {
			if byPrefix.MatchString(s) && !mayOpenByline(s) {
				t.Errorf("mayOpenByline(%q) = false, but byPrefix matches it", s)
			}
		}
	}
}

// updateWords is opensWithUpdate as a pattern, its reference.
var updateWords = regexp.MustCompile(`(?i)^\s*(?:(?:` + strings.Join(lastWords, "|") + `)\s+)?` + updateLabels)

// TestOpensWithUpdate holds opensWithUpdate to its pattern (updateWords),
// in any case.
func TestOpensWithUpdate(t *testing.T) {
	var cases []string
	for _, w := range slices.Concat(updateLabelWords, lastWords, []string{"last post", "latest reply", "updated", "update"}) {
		r, n := utf8.DecodeRuneInString(w)
		cases = append(cases, w+": 12.03.2021", strings.ToUpper(w)+" 12.03.2021", "  "+string(unicode.ToUpper(r))+w[n:]+" am 12.03.2021")
	}
	cases = append(cases, "Zuletzt geändert am 15.10.2021", "Last updated March 3, 2021", "ΕΝΗΜΕΡΏΘΗΚΕ: 14 Μαρτίου 2021")
	r := strings.NewReplacer("a", "updated ", "b", "Bijgewerkt ", "海", "更新", "Né", "ΕΝΗΜΕΡΩΣΗ ")
	for _, s := range append(cases, randomTexts(20000)...) {
		for _, s := range []string{s, r.Replace(s)} {
			if got, want := opensWithUpdate(s), updateWords.MatchString(s); got != want {
				t.Errorf("opensWithUpdate(%q) = %v, updateWords says %v", s, got, want)
			}
		}
	}
}

// memberWords is opensWithMember as a pattern, its reference.
var memberWords = regexp.MustCompile(`(?i)^\s*(?:` + strings.Join(memberLabelWords, "|") + `)`)

// TestOpensWithMember holds opensWithMember to its pattern (memberWords),
// in any case.
func TestOpensWithMember(t *testing.T) {
	var cases []string
	for _, w := range memberLabelWords {
		r, n := utf8.DecodeRuneInString(w)
		cases = append(cases, w+": 12.03.2021", strings.ToUpper(w)+" 12.03.2021", "  "+string(unicode.ToUpper(r))+w[n:]+" 12.03.2021")
	}
	r := strings.NewReplacer("a", "joined ", "b", "Mitglied seit ", "海", "注册", "Né", "ЗАРЕГИСТРИРОВАН ")
	for _, s := range append(cases, randomTexts(20000)...) {
		for _, s := range []string{s, r.Replace(s)} {
			if got, want := opensWithMember(s), memberWords.MatchString(s); got != want {
				t.Errorf("opensWithMember(%q) = %v, memberWords says %v", s, got, want)
			}
		}
	}
}

// TestValueKinds holds valueKinds, which looks a value's places up by
// their first two bytes (hintSeconds), to its definition: the kinds of
// the hint words that start anywhere in the value, ASCII letters in any
// case, but a comments word after "has-" or "no-".
func TestValueKinds(t *testing.T) {
	var words []hintWord
	for _, ws := range hintWords {
		words = append(words, ws...)
	}
	pieces := []string{"-", "_", " ", "x", "has-", "no_", "\xd0", "\xff"}
	for _, w := range words {
		if len(w.word) < 2 {
			t.Fatalf("hint word %q: valueKinds reads a word from its first two bytes", w.word)
		}
		pieces = append(pieces, w.word, strings.ToUpper(w.word), w.word[:2], w.word[1:], strings.ToUpper(w.word[:1])+w.word[1:])
	}
	want := func(v string) int {
		found := 0
		for i := range len(v) {
			for _, w := range words {
				if hasPrefixFold(v[i:], w.word) && !(w.kind == hintComments && statePrefix(v[:i])) {
					found |= w.kind
				}
			}
		}
		return found
	}
	r := rand.New(rand.NewSource(1))
	cases := []string{"", "a", "date", "xdate", "post-date", "Author", "xAUTHOR", "has-comments", "no-comments x-comment", "автор", "xавтор"}
	for range 50000 {
		var sb strings.Builder
		for k := r.Intn(6); k >= 0; k-- {
			sb.WriteString(pieces[r.Intn(len(pieces))])
		}
		cases = append(cases, sb.String())
	}
	for _, v := range cases {
		if got, want := valueKinds(v), want(v); got != want {
			t.Errorf("valueKinds(%q) = %b, want %b", v, got, want)
		}
	}
}
