package pipeline

import (
	"context"
	"net/url"
	"sort"

	"github.com/winnow-go/winnow/xpathrules"
)

// RuleCount is how one rule did on the pages it was checked on: the pages
// it matched, on how many its content was found, and why it broke on the
// others (reason: pages).
type RuleCount struct {
	Pages, OK, Broken int
	Reasons           map[string]int
}

// CheckRules applies each rule of set, judged on its own (no typical
// length), to the pages of the inputs that it matches; counts[i] is
// set.Rules[i]'s. A page that cannot be parsed breaks its rule.
func CheckRules(set *xpathrules.Set, inputs []string) ([]RuleCount, error) {
	counts := make([]RuleCount, len(set.Rules))
	index := map[*xpathrules.Rule]int{}
	for i, r := range set.Rules {
		index[r] = i
		counts[i].Reasons = map[string]int{}
	}
	var st Stages
	err := ReadInputs(inputs, func(in Input) error {
		if in.Status != "" {
			return nil
		}
		u, _ := url.Parse(in.URL)
		r := set.Match(u)
		if r == nil {
			return nil
		}
		c := &counts[index[r]]
		c.Pages++
		p, err := st.Parse(in)
		if err != nil {
			c.Broken++
			c.Reasons["page: "+err.Error()]++
			return nil
		}
		if o := r.Apply(p, 0); o.Status == xpathrules.StatusBroken {
			c.Broken++
			c.Reasons[o.Reason]++
		} else {
			c.OK++
		}
		return nil
	})
	return counts, err
}

// SuggestReport is what SuggestFrom found.
type SuggestReport struct {
	Suggested []*xpathrules.Suggestion
	// LeftOut are the records of the pages left out: no site URL, or
	// they could not be labelled.
	LeftOut []*Record
	// NoRule lists the sites (host order) where no element holds the
	// content, with the pages they had.
	NoRule []SitePages
}

// SitePages is a site and a number of its pages.
type SitePages struct {
	Site  string
	Pages int
}

// SuggestFrom reads the pages of the inputs, at most perSite of each
// site (the first ones read), and suggests one rule per site
// (SuggestRules).
func SuggestFrom(ctx context.Context, inputs []string, perSite int, opts Options) (*SuggestReport, error) {
	var pages []Input
	var rep SuggestReport
	perHost := map[string]int{}
	err := ReadInputs(inputs, func(in Input) error {
		if in.Status != "" {
			return nil
		}
		u, err := url.Parse(in.URL)
		if err != nil || u.Hostname() == "" {
			rep.LeftOut = append(rep.LeftOut, &Record{URL: in.URL, Source: in.Source, Status: StatusError, Error: "no site URL"})
			return nil
		}
		host := Site(u.Hostname())
		if perHost[host] >= perSite {
			return nil
		}
		perHost[host]++
		pages = append(pages, in)
		return nil
	})
	if err != nil {
		return nil, err
	}
	suggested, failed, err := SuggestRules(ctx, pages, opts)
	if err != nil {
		return nil, err
	}
	rep.Suggested, rep.LeftOut = suggested, append(rep.LeftOut, failed...)
	found := map[string]bool{}
	for _, s := range suggested {
		found[s.Rule.Name] = true
	}
	for h, n := range perHost {
		if !found[h] {
			rep.NoRule = append(rep.NoRule, SitePages{h, n})
		}
	}
	sort.Slice(rep.NoRule, func(i, j int) bool { return rep.NoRule[i].Site < rep.NoRule[j].Site })
	return &rep, nil
}
