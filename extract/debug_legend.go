package extract

import "strings"

// stageLegend explains, in one line each, the rules every stage can give
// as a Reason, by stage and rule name. The density stage's are
// reasonLegend in reasons.go; the others name their rules in their own
// packages (xpathrules/rules.go, render/apply.go, infholder/infholder.go:
// grep for Vote), and TestLegendCoversStages reads those files so that a
// new rule there cannot go without a line here. A rule that ends in ":" is
// a prefix: "class:" covers "class:id~comment", and "hidden:" covers
// a render reason this table does not name yet.
var stageLegend = map[string]map[string]string{
	StageRules: {
		"drop":            "removed by a site rule's drop selector before the blocks were cut: no block is left to show",
		"content":         "inside the site rule's content selector; firm, no later stage changes it",
		"outside-content": "outside the site rule's content selector; firm, no later stage changes it",
	},
	StageRender: {
		"hidden:":                  "not visible on the rendered page",
		"hidden:display-none":      "display:none on the element or an ancestor",
		"hidden:visibility-hidden": "visibility:hidden on the rendered page",
		"hidden:zero-size":         "rendered with no width or height",
		"hidden:off-screen":        "rendered off the page",
		"fixed":                    "fixed or sticky to the window: a bar, banner or sidebar",
		"in-column":                "a note, not a verdict: rendered in the main column (position, width, font size)",
		"off-column":               "a note, not a verdict: rendered beside the main column, weighs half for the density region",
		"small-font":               "a note, not a verdict: fine print, weighs half for the density region",
	},
	StageTemplate: {
		"template": "repeats on the site's other pages: the site template (score: how often)",
	},
	StageDensity: reasonLegend,
}

// stageOrder is the order the stages run in, and the legend's.
var stageOrder = []string{StageRules, StageRender, StageTemplate, StageDensity}

// legendName is the rule name under which a reason appears in the legend:
// the rule up to its first space (render's "in-column x=12 w=600
// font=16px"), and only the prefix of a density "class:" rule, whose rest
// names the element.
func legendName(r Reason) string {
	name, _, _ := strings.Cut(r.Rule, " ")
	if r.Stage == StageDensity && strings.HasPrefix(name, ReasonClassPrefix) {
		return ReasonClassPrefix
	}
	return name
}

// legendText is the legend line of a stage's rule, found by its name or,
// failing that, by the prefix up to its first colon; "" when the stage or
// the rule is unknown.
func legendText(stage, name string) string {
	rules := stageLegend[stage]
	if t, ok := rules[name]; ok {
		return t
	}
	if i := strings.IndexByte(name, ':'); i >= 0 {
		return rules[name[:i+1]]
	}
	return ""
}
