package evaluate

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestWCXBTokens: Python's lower() splits a word at U+0130 (i + U+0307)
// and gives a word-final capital sigma the final form; ideographs stay in
// their `\w` run (unlike CJKTokens).
func TestWCXBTokens(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Hello, World_2 3.5", "hello|world_2|3|5"},
		{"İstanbul", "i|stanbul"},
		{"ΟΔΟΣ ΣΑ Σ", "οδος|σα|σ"},
		{"ΟΔΟΣ'Α", "οδοσ|α"},
		{"中文句子 ok", "中文句子|ok"},
	} {
		if got := strings.Join(WCXBTokens(c.in), "|"); got != c.want {
			t.Errorf("WCXBTokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestScoreWCXB: the multiset overlap and the empty cases.
func TestScoreWCXB(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	s := ScoreWCXB("the cat sat on the mat", "The cat, the dog")
	// overlap {the: 2, cat: 1} = 3 of 4 output and 6 gold tokens
	if !near(s.Precision, 0.75) || !near(s.Recall, 0.5) || !near(s.F1, 0.6) {
		t.Errorf("got %+v", s)
	}
	if s := ScoreWCXB("", " ... "); s != (PRF{1, 1, 1}) {
		t.Errorf("empty gold, empty output: %+v", s)
	}
	if s := ScoreWCXB("", "menu"); s != (PRF{}) {
		t.Errorf("empty gold, some output: %+v", s)
	}
	if s := ScoreWCXB("text", ""); s != (PRF{}) {
		t.Errorf("no output: %+v", s)
	}
}

// TestSnippetRates: lower-cased substrings, white space as it is; empty
// lists give 1 (with) and 0 (without).
func TestSnippetRates(t *testing.T) {
	out := "The Quick brown fox.\nJumps over"
	w, wo := SnippetRates(out, []string{"quick BROWN", "fox. jumps", "over"}, []string{"Home", "the quick"})
	if math.Abs(w-2.0/3) > 1e-9 || wo != 0.5 {
		t.Errorf("rates %v %v", w, wo)
	}
	if w, wo := SnippetRates(out, nil, nil); w != 1 || wo != 0 {
		t.Errorf("empty lists: %v %v", w, wo)
	}
}

// TestKeepHalf: the halves split the pages by their site, every page in
// exactly one, and a set without domains has none.
func TestKeepHalf(t *testing.T) {
	pages := []Page{{ID: "1", Domain: "a.example"}, {ID: "2", Domain: "b.example"}, {ID: "3", Domain: "a.example"}, {ID: "4", Domain: "c.example"}}
	seen := map[string]int{}
	for half := 1; half <= 2; half++ {
		ds := Dataset{Name: "set", Pages: slices.Clone(pages)}
		if err := ds.KeepHalf(half); err != nil {
			t.Fatal(err)
		}
		for _, p := range ds.Pages {
			if DomainHalf(p.Domain) != half {
				t.Errorf("half %d kept %s of half %d", half, p.ID, DomainHalf(p.Domain))
			}
			seen[p.ID]++
		}
	}
	for _, p := range pages {
		if seen[p.ID] != 1 {
			t.Errorf("page %s in %d halves", p.ID, seen[p.ID])
		}
	}
	if DomainHalf("a.example") == DomainHalf("b.example") && DomainHalf("b.example") == DomainHalf("c.example") {
		t.Fatal("the test's domains all fall in one half")
	}
	ds := Dataset{Name: "daniel-ru", Pages: []Page{{ID: "x"}}}
	if err := ds.KeepHalf(1); err == nil {
		t.Error("a set without domains was split")
	}
}
