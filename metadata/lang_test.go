package metadata

import (
	"strings"
	"testing"
)

func TestChooseLang(t *testing.T) {
	long := strings.Repeat("word ", 30)
	sure := func(l string, c float64) func(string, string) (string, float64) {
		return func(string, string) (string, float64) { return l, c }
	}
	for _, c := range []struct {
		name, declared, text string
		identify             func(text, declared string) (string, float64)
		want                 string
		wantConf             float64
		wantText             bool
	}{
		{"no identifier", "en", long, nil, "en", 0, false},
		{"no text", "en", "", sure("de", 1), "en", 0, false},
		{"nothing identified", "en", long, sure("", 0), "en", 0, false},
		{"no declaration", "", "zwei Wörter", sure("de", 0.4), "de", 0.4, true},
		{"agrees", "en", "two words", sure("en", 0.5), "en", 0.5, true},
		{"agrees by an old code", "no", long, sure("nb", 0.9), "nb", 0.9, true},
		{"wrong declaration", "en", long, sure("de", 0.95), "de", 0.95, true},
		{"short text", "en", "nur ein paar Wörter", sure("de", 1), "en", 0, false},
		{"unsure", "da", long, sure("nb", 0.6), "da", 0, false},
		{"twenty ideographs", "en", strings.Repeat("字", 20), sure("zh", 1), "zh", 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, conf, fromText := chooseLang(c.declared, c.text, c.identify)
			if l != c.want || conf != c.wantConf || fromText != c.wantText {
				t.Errorf("chooseLang = %q %.2f %v, want %q %.2f %v", l, conf, fromText, c.want, c.wantConf, c.wantText)
			}
		})
	}
}
