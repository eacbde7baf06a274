package textseg

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestInvisible: soft hyphens, zero-width spaces, word joiners and
// byte-order marks go; the zero-width joiner and non-joiner, which shape
// Persian, Indic and emoji text, and every other byte stay.
func TestInvisible(t *testing.T) {
	for in, want := range map[string]string{
		"Deutsch\u00adland":              "Deutschland",
		"Genesenen\u00ad\u00adnachweise": "Genesenennachweise",
		"a\u200bb\u2060c\ufeffd":         "abcd",
		"اصلاح\u200cطلبان":               "اصلاح\u200cطلبان",
		"🤷\u200d♂️":                      "🤷\u200d♂️",
		"plain":                          "plain",
		"\u00c2\u00ad":                   "\u00c2", // "Â" then a soft hyphen
		"\xc2":                           "\xc2",   // a cut sequence stays as it is
	} {
		if got := DropInvisible(in); got != want {
			t.Errorf("DropInvisible(%q) = %q, want %q", in, got, want)
		}
		if got := string(AppendVisible([]byte("x"), in)); got != "x"+want {
			t.Errorf("AppendVisible(x, %q) = %q, want %q", in, got, "x"+want)
		}
	}
	// On random text of the characters around them, the same as
	// replacing each of the four.
	r := strings.NewReplacer("\u00ad", "", "\u200b", "", "\u2060", "", "\ufeff", "")
	pieces := []string{"a", " ", "\u00ad", "\u200b", "\u2060", "\ufeff", "\u200c", "\u200d", "é", "\u00c2", "\u2061", "\ufefe", "\xc2", "\xe2\x80"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := DropInvisible(s), r.Replace(s); got != want {
			t.Fatalf("DropInvisible(%q) = %q, want %q", s, got, want)
		}
	}
}
