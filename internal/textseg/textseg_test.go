package textseg

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestIsCJK(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want bool
	}{
		{'a', false}, {'я', false}, {'。', false}, {'，', false},
		{'ぁ', true}, {'ヿ', true}, {'㐀', true}, {'中', true}, {'鿿', true},
		{'豈', true}, {'가', true}, {'힯', true}, {0x20000, true}, {0x2FA1F, true},
		{0x2FA20, false}, {0x1F600, false},
	} {
		if got := IsCJK(c.r); got != c.want {
			t.Errorf("IsCJK(%U) = %v, want %v", c.r, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct {
		name, in string
		alone    func(rune) bool
		want     []string
	}{
		{"empty", "", IsCJK, nil},
		{"latin", "it's a co-op, 3.14", nil, []string{"it", "s", "a", "co", "op", "3", "14"}},
		{"cjk run kept", "中文abc", nil, []string{"中文abc"}},
		{"cjk split", "中文abc中", IsCJK, []string{"中", "文", "abc", "中"}},
		{"supplementary", "\U00020000x", IsCJK, []string{"\U00020000", "x"}},
		{"cyrillic and marks", "Ёлка — 2024_г", IsCJK, []string{"Ёлка", "2024_г"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Words(c.in, c.alone); !slices.Equal(got, c.want) {
				t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCommon(t *testing.T) {
	for _, c := range []struct {
		a, b []string
		want int
	}{
		{[]string{"a", "b", "b"}, []string{"b", "b", "b", "c"}, 2},
		{nil, []string{"a"}, 0},
		{[]string{"x", "y"}, []string{"y", "x"}, 2},
	} {
		if got := Common(c.a, c.b); got != c.want {
			t.Errorf("Common(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestCommonPaths: the pair-by-pair matching of short lists and the map
// of long ones count the same multiset intersection.
func TestCommonPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	list := func() []string {
		l := make([]string, rng.IntN(smallList+1))
		for i := range l {
			l[i] = string(rune('a' + rng.IntN(6)))
		}
		return l
	}
	for range 2000 {
		a, b := list(), list()
		if got, want := commonPairs(a, b), commonMap(a, b); got != want {
			t.Fatalf("commonPairs(%q, %q) = %d, commonMap %d", a, b, got, want)
		}
	}
}
