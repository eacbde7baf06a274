package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// loadRules loads --rules; "" is no rules. Any problem in the files stops
// the command (exit 1) with every problem listed as file:line: message.
func loadRules(path string) (*xpathrules.Set, error) {
	if path == "" {
		return nil, nil
	}
	set, err := xpathrules.Load(path)
	if err != nil {
		return nil, fmt.Errorf("rules %s:\n%w\n(winnow rules check %s lists them)", path, err, path)
	}
	return set, nil
}

func newRulesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules check|suggest",
		Short: "Check per-site XPath/CSS rule files, or suggest rules from a site's pages",
		Long: `A rule file is YAML: a list of rules, each with host (or hosts; a leading
"." covers subdomains), an optional path (a prefix, or a pattern with *),
content (one selector or alternatives, the first that matches wins), drop,
title, test_url and typical_words. A selector is XPath when it starts with
"/", "(" or "./", CSS otherwise ("css:" may say so). FiveFilters site
configs (<host>.txt: body, strip, strip_id_or_class, title, test_url) are
read too. --rules takes a file or a folder of them.

The content of a matching rule is firm: its blocks are kept and every other
block is dropped, whatever the template and density stages say; drop
selectors always remove their blocks. A rule whose content matches nothing
on a page of its site, or under a quarter of its usual words (the median
over the run's sampled pages, or typical_words), is broken: the page gets
the other stages' result, its record says rule_status "broken" with the
reason in error, and the run summary counts broken pages per rule.`,
	}
	var on string
	check := &cobra.Command{
		Use:   "check RULES [--on PAGES]",
		Short: "Report syntax errors and bad selectors as file:line; with --on, how many pages each rule matched",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRulesCheck(cmd.OutOrStdout(), args[0], on)
		},
	}
	check.Flags().StringVar(&on, "on", "", "pages to try the rules on: a folder, WARC or JSONL file")
	cmd.AddCommand(check, newRulesSuggestCmd())
	return cmd
}

// errRulesInvalid makes rules check exit 1 after listing the problems.
var errRulesInvalid = errors.New("rules check: the rule files have errors")

func runRulesCheck(w io.Writer, path, on string) error {
	set, loadErr := xpathrules.Load(path)
	if set == nil {
		return loadErr
	}
	var problems []error
	if loadErr != nil {
		problems = flattenErrors(loadErr)
	}
	for _, p := range problems {
		fmt.Fprintln(w, p)
	}
	var counts []pipeline.RuleCount
	if on != "" {
		var err error
		if counts, err = pipeline.CheckRules(set, []string{on}); err != nil {
			return err
		}
	}
	for i, r := range set.Rules {
		fmt.Fprintf(w, "%s:%d: rule %q: hosts %v", r.File, r.Line, r.Name, r.Hosts)
		if r.Path != "" {
			fmt.Fprintf(w, ", path %s", r.Path)
		}
		fmt.Fprintf(w, "; %d content, %d drop, %d title selectors", len(r.Content), len(r.Drop), len(r.Title))
		if on != "" {
			c := counts[i]
			fmt.Fprintf(w, "; matched %d pages: %d ok, %d broken", c.Pages, c.OK, c.Broken)
			keys := make([]string, 0, len(c.Reasons))
			for k := range c.Reasons {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(w, "\n    broken on %d: %s", c.Reasons[k], k)
			}
		}
		fmt.Fprintln(w)
	}
	if len(problems) > 0 {
		return errRulesInvalid
	}
	return nil
}

// flattenErrors lists the errors joined in err.
func flattenErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

func newRulesSuggestCmd() *cobra.Command {
	var out string
	var perSite int
	cmd := &cobra.Command{
		Use:   "suggest PAGES... --out FILE",
		Short: "Suggest one rule per site from its pages (template analysis), as a rule file to review",
		Long: `Reads pages (folders, .html files, WARC or JSONL), labels them as winnow run
does (site templates learned from the pages, then the density classifier),
and for each site (host, www. folded) finds the element that holds the
content blocks on most pages: named by an id or a stable class, never a
position, and chosen by the word F1 of what it selects against those
labels. Alternatives cover pages the first misses; drop selectors cover
named elements inside it that hold only boilerplate. Each rule's comment
gives the pages it was learned from and its F1 there. typical_words is the
median content length, against which a page's content is judged broken.`,
		Example: `  winnow rules suggest crawl.warc.gz --out rules/suggested.yaml
  winnow rules check rules/suggested.yaml --on crawl.warc.gz`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("rules suggest: name the pages to learn from")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := atLeast("pages-per-site", perSite, 1); err != nil {
				return err
			}
			if out == "" {
				return usagef("rules suggest: --out is required")
			}
			return runRulesSuggest(cmd.Context(), args, out, perSite, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "rule file to write, or - for standard output (required)")
	cmd.Flags().IntVar(&perSite, "pages-per-site", 200, "learn from at most this many pages of each site (the first ones read)")
	return cmd
}

func runRulesSuggest(ctx context.Context, inputs []string, out string, perSite int, stdout, stderr io.Writer) error {
	rep, err := pipeline.SuggestFrom(ctx, inputs, perSite, pipeline.Options{})
	if err != nil {
		return err
	}
	for _, r := range rep.LeftOut {
		fmt.Fprintf(stderr, "%s: %s; left out\n", r.Source, r.Error)
	}
	rules := make([]*xpathrules.Rule, len(rep.Suggested))
	comments := map[*xpathrules.Rule]string{}
	for i, s := range rep.Suggested {
		comments[s.Rule] = fmt.Sprintf("suggested from %d pages; content found on %d; word F1 %.3f against the template and density labels", s.Pages, s.Matched, s.F1)
		fmt.Fprintf(stderr, "%s: %s\n", s.Rule.Name, comments[s.Rule])
		rules[i] = s.Rule
	}
	for _, h := range rep.NoRule {
		fmt.Fprintf(stderr, "%s: no element holds the content on its %d pages; no rule\n", h.Site, h.Pages)
	}
	return withOutput(out, stdout, func(w io.Writer) error { return xpathrules.WriteYAML(w, rules, comments) })
}
