package metadata

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// TestRelativeDate reads elapsed times in the languages of the set
// against a fetch time, and nothing in units that name no day or without
// a fetch time.
func TestRelativeDate(t *testing.T) {
	fetched := time.Date(2021, 3, 12, 2, 30, 0, 0, time.UTC)
	for s, want := range map[string]string{
		"3 hours ago":           "2021-03-11",
		"an hour ago":           "2021-03-12",
		"2 days ago":            "2021-03-10",
		"Posted 45 minutes ago": "2021-03-12",
		"vor 3 Stunden":         "2021-03-11",
		"vor einem Tag":         "2021-03-11",
		"il y a 2 jours":        "2021-03-10",
		"il y a une heure":      "2021-03-12",
		"hace 5 días":           "2021-03-07",
		"há 2 dias":             "2021-03-10",
		"3 giorni fa":           "2021-03-09",
		"2 dagen geleden":       "2021-03-10",
		"3 дня назад":           "2021-03-09",
		"5 годин тому":          "2021-03-11",
		"2 dni temu":            "2021-03-10",
		"3 gün önce":            "2021-03-09",
		"för 2 dagar sedan":     "2021-03-10",
		"for 2 dage siden":      "2021-03-10",
		"před 2 dny":            "2021-03-10",
		"2 ngày trước":          "2021-03-10",
		"3 hari yang lalu":      "2021-03-09",
		"3小时前":                  "2021-03-11",
		"2天前":                   "2021-03-10",
		"5 시간 전":                "2021-03-11",
		"Yesterday at 10:45 PM": "2021-03-11",
		"Gestern, 18:02":        "2021-03-11",
		"today":                 "2021-03-12",
		"昨天 18:02":              "2021-03-11",
		"3 weeks ago":           "",
		"2 months ago":          "",
		"a year ago":            "",
		"3 hours":               "",
		"in 3 days":             "",
		"Today's weather":       "",
		"for 3 days in Paris":   "",
		"The 3 days ago problem, and what it tells of the way news sites date their stories": "",
	} {
		d, ok := relativeDate(s, fetched)
		if got := map[bool]string{true: d.day(), false: ""}[ok]; got != want {
			t.Errorf("relativeDate(%q) = %q, want %q", s, got, want)
		}
	}
	if _, ok := relativeDate("3 hours ago", time.Time{}); ok {
		t.Error("a relative date read without a fetch time")
	}
}

// TestRelativeDateInPage reads a date element's "3 hours ago" when the
// fetch time is known, and leaves the page undated without it.
func TestRelativeDateInPage(t *testing.T) {
	page := `<html><head><title>Goats</title></head><body><article><h1>Goats</h1>` +
		`<div class="meta"><span class="date">3 hours ago</span></div>` +
		`<p>Goats have been kept for their milk and meat for thousands of years, and they are still.</p></article></body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	m := Read(doc, Input{}, Options{Fetched: time.Date(2021, 3, 12, 2, 30, 0, 0, time.UTC)})
	if m.Published != "2021-03-11" || m.Sources["published"] != SourceByline {
		t.Errorf("published %q from %q, want 2021-03-11 from the byline", m.Published, m.Sources["published"])
	}
	if m := Read(doc, Input{}, Options{Now: testNow}); m.Published != "" {
		t.Errorf("published %q without a fetch time", m.Published)
	}
}
