package dedupgen

import (
	"math"
	"slices"
	"testing"
)

// TestJaccard checks the target definition on hand-counted cases: lower
// case, tokens of letters, digits and the underscore, sets of 3-token
// shingles.
func TestJaccard(t *testing.T) {
	for _, c := range []struct {
		a, b    string
		inter   int
		sa, sb  int
		jaccard float64
	}{
		{"a b c d", "a b c e", 1, 2, 2, 1.0 / 3},
		{"The cat sat.", "the CAT, sat!", 1, 1, 1, 1},
		{"a b c a b c", "a b c", 1, 3, 1, 1.0 / 3}, // a set: "a b c" counts once
		{"x_1 y-2 z", "x_1 y 2 z", 2, 2, 2, 1},     // "-" splits as a space does, "_" does not
		{"one two", "one two", 0, 0, 0, 0},         // under 3 tokens: no shingles
		{"Ёлка и ель", "ёлка и ель", 1, 1, 1, 1},   // Cyrillic lower-cased
		{"我爱北京。天安门很大。", "我爱北京，天安门很大。", 0, 0, 0, 0}, // a CJK run is one token: 2 tokens
		{"我爱北京，天安门很大，我们去看", "我爱北京，天安门很大，他们去看", 0, 1, 1, 0},
	} {
		o := Compare(c.a, c.b)
		if o.Inter != c.inter || o.SizeA != c.sa || o.SizeB != c.sb {
			t.Errorf("Compare(%q, %q) = %+v, want inter %d sizes %d %d", c.a, c.b, o, c.inter, c.sa, c.sb)
		}
		if j := Jaccard(c.a, c.b); math.Abs(j-c.jaccard) > 1e-12 {
			t.Errorf("Jaccard(%q, %q) = %v, want %v", c.a, c.b, j, c.jaccard)
		}
	}
}

// TestShinglesAgree: the map of Shingles, the sorted list behind Compare
// and the hashes that steer the edits count the same set.
func TestShinglesAgree(t *testing.T) {
	for _, text := range []string{
		"Near-duplicate pages share most of their shingles; near-duplicate pages differ in a few. Ещё одна строка, и ещё одна строка.",
		"İSTANBUL İstanbul istanbul ΟΔΟΣ οδος Straße STRASSE x_1 x_1 x_1 3.14 3 14 3 14",
		"中文句子，第二个分句，第三个分句。中文句子，第二个分句，第三个分句。日本語のテキスト、二つ目、三つ目。",
		"a b", "",
	} {
		shinglesAgree(t, text)
	}
}

func shinglesAgree(t *testing.T, text string) {
	t.Helper()
	m := Shingles(text)
	s := sortedShingles(text)
	if len(m) != len(s) || len(shingleHashes(text)) != len(s) {
		t.Fatalf("sizes: map %d, sorted %d, hashes %d", len(m), len(s), len(shingleHashes(text)))
	}
	for _, x := range s {
		if _, ok := m[x]; !ok {
			t.Errorf("%q missing from Shingles", x)
		}
	}
	if !slices.IsSorted(s) {
		t.Error("sortedShingles is not sorted")
	}
}

// TestContainment: a short text copied whole into a long one is fully
// contained though its Jaccard is low.
func TestContainment(t *testing.T) {
	short := "one two three four five"
	long := "alpha beta gamma " + short + " delta epsilon zeta eta theta"
	o := Compare(short, long)
	if o.Containment() != 1 || o.Jaccard() >= 0.5 {
		t.Errorf("containment %v jaccard %v", o.Containment(), o.Jaccard())
	}
}
