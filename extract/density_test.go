package extract

import "testing"

func TestTitleMatchProductPages(t *testing.T) {
	for _, c := range []struct {
		heading, title string
		min, max       float64
	}{
		{"lydia's charm", "lydia's charm: wanda e. brunstetter: 9781602600638: christianbook.com", 0.8, 0.8},
		{"infinity : chronicles of nick (hardcover)", "infinity by sherrilyn kenyon (hardcover): booksamillion.com", 0.3, 0.3},
		{"whiplash (hardcover)", "whiplash by catherine coulter (hardcover): booksamillion.com", 0.3, 0.5},
		{"e", "e-mail etiquette for beginners", 0, 0.1},
		{"sports", "the olympic games: sports and politics", 0, 0.29},
	} {
		if got := titleMatch(c.heading, c.title); got < c.min || got > c.max {
			t.Errorf("titleMatch(%q, %q) = %.2f, want %.2f..%.2f", c.heading, c.title, got, c.min, c.max)
		}
	}
}

func TestAuthorLine(t *testing.T) {
	for s, want := range map[string]bool{
		"by Fern Michaels":           true,
		"By: Craig Groeschel":        true,
		"Edited By: Carrie Turansky": true,
		"bypass the city":            false,
		"by 2020 the plan":           false,
		"Buy now":                    false,
	} {
		if got := authorLine(s); got != want {
			t.Errorf("authorLine(%q) = %v, want %v", s, got, want)
		}
	}
}
