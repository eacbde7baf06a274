package ascii

import "testing"

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
