package ascii

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestIndexFold(t *testing.T) {
	for _, c := range []struct {
		s, needle string
		want      int
	}{
		{`<HEAD><BASE href="x">`, "<base", 6},
		{`<link rel="Canonical" href=y>`, "canonical", 11},
		{`<bas`, "<base", -1},
		{`no tags here`, "<base", -1},
		{`<<base`, "<base", 1},
		{`<META charset=koi8-r></HEAD>`, "</head", 21},
		{`abc`, "", 0},
		{``, "x", -1},
	} {
		if got := IndexFold([]byte(c.s), c.needle); got != c.want {
			t.Errorf("IndexFold(%q, %q) = %d, want %d", c.s, c.needle, got, c.want)
		}
	}
}

// TestIndexFoldAgrees: on random mixes of the needle's letters in both
// cases, IndexFold finds what bytes.Index finds in the lower-cased text,
// and ContainsFold finds it too.
func TestIndexFoldAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "cCaAnN<bBsSeE x"
	for range 20000 {
		s := make([]byte, rng.IntN(40))
		for i := range s {
			s[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for _, needle := range []string{"can", "<base", "c", "nc", "x"} {
			want := bytes.Index(bytes.ToLower(s), []byte(needle))
			if got := IndexFold(s, needle); got != want {
				t.Fatalf("IndexFold(%q, %q) = %d, want %d", s, needle, got, want)
			}
			if got := ContainsFold(string(s), needle); got != (want >= 0) {
				t.Fatalf("ContainsFold(%q, %q) = %v, want %v", s, needle, got, want >= 0)
			}
		}
	}
}

func TestStyleHides(t *testing.T) {
	for style, want := range map[string]bool{
		"display:none":                  true,
		"color: red; display: none":     true,
		"Visibility : hidden":           true,
		"DISPLAY:none":                  true,
		"display:block":                 false,
		"overflow:hidden":               false,
		"border:none; visibility:shown": false,
		"":                              false,
	} {
		if got := StyleHides(style); got != want {
			t.Errorf("StyleHides(%q) = %v, want %v", style, got, want)
		}
	}
}
