package evaluate

import (
	"context"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// suggestFrom suggests rules from the pages keep selects, as winnow rules
// suggest does.
func suggestFrom(t *testing.T, pages []SitePage, keep func(string) bool) *xpathrules.Set {
	t.Helper()
	var inputs []pipeline.Input
	for _, p := range pages {
		if keep(p.ID) {
			inputs = append(inputs, pipeline.Input{URL: p.URL, Source: p.ID, Body: p.HTML})
		}
	}
	suggested, _, err := pipeline.SuggestRules(context.Background(), inputs, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := &xpathrules.Set{}
	for _, s := range suggested {
		set.Rules = append(set.Rules, s.Rule)
	}
	return set
}

// TestSuggestedRulesCleanPortalEval: rules suggested from the odd-numbered
// pages of each site, unedited, give a higher F1 on the even-numbered
// pages than the run without rules.
func TestSuggestedRulesCleanPortalEval(t *testing.T) {
	all, err := LoadCleanPortalEval(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	odd, _ := PageFilter("odd")
	even, _ := PageFilter("even")
	rules := suggestFrom(t, all, odd)
	if len(rules.Rules) != 4 {
		t.Fatalf("%d rules, want one per host (4)", len(rules.Rules))
	}
	var pages []SitePage
	for _, p := range all {
		if even(p.ID) {
			pages = append(pages, p)
		}
	}
	score := func(rules *xpathrules.Set) float64 {
		texts, err := ExtractSites(context.Background(), all, Template, pipeline.Stages{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		return ScoreSites(pages, texts).F1
	}
	with, without := score(rules), score(nil)
	t.Logf("even pages: F1 %.4f with suggested rules, %.4f without", with, without)
	if with <= without {
		t.Errorf("suggested rules: F1 %.4f, without %.4f", with, without)
	}
}

// TestSuggestedRulesSWDE: rules suggested from pages 0000-0249 of each
// shop keep at least as many attribute values of pages 0250-0499 as the
// run without rules.
func TestSuggestedRulesSWDE(t *testing.T) {
	sites, err := LoadSWDE(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	low, _ := PageFilter("0-249")
	high, _ := PageFilter("250-499")
	var pages []SitePage
	for _, s := range sites {
		pages = append(pages, s.Pages...)
	}
	rules := suggestFrom(t, pages, low)
	with, err := ScoreSWDE(context.Background(), sites, Template, pipeline.Stages{Rules: rules}, high)
	if err != nil {
		t.Fatal(err)
	}
	without, err := ScoreSWDE(context.Background(), sites, Template, pipeline.Stages{}, high)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pages 0250-0499: survival %.4f with suggested rules, %.4f without; recurring removed %.4f, %.4f", with.Survival, without.Survival, with.RecurringRemoved, without.RecurringRemoved)
	if len(rules.Rules) != 2 || with.Survival < without.Survival {
		t.Errorf("%d rules; survival %.4f with rules, %.4f without", len(rules.Rules), with.Survival, without.Survival)
	}
}
