package pipeline

import (
	"context"
	"sort"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/xpathrules"
)

// SuggestRules labels the inputs as a run without rules does (site
// templates learned per group, then the density classifier; opts.Stages
// without its Rules) and suggests one rule per site (host, www. folded;
// see xpathrules.Suggest), in host order, with the site's first two URLs
// as its test URLs. Sites where no element holds the content are left
// out. The labelled pages are held in memory. failed lists the records
// of the inputs that could not be labelled, in input order.
func SuggestRules(ctx context.Context, inputs []Input, opts Options) (suggested []*xpathrules.Suggestion, failed []*Record, err error) {
	opts.Stages.Rules = nil
	pages := make([]*extract.Page, len(inputs))
	recs := make([]*Record, len(inputs))
	_, err = ProcessPages(ctx, inputs, opts, func(i int, r *Record, p *extract.Page) { pages[i], recs[i] = p, r })
	if err != nil {
		return nil, nil, err
	}
	for _, r := range recs {
		if r.Status != StatusOK {
			failed = append(failed, r)
		}
	}
	byHost := map[string][]*extract.Page{}
	var hosts []string
	for _, p := range pages {
		if p == nil || p.URL == nil {
			continue
		}
		h := Site(p.URL.Hostname())
		if byHost[h] == nil {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], p)
	}
	sort.Strings(hosts)
	// Sites are suggested for on the workers, each into its own slot.
	sugs := make([]*xpathrules.Suggestion, len(hosts))
	par.Each(len(hosts), opts.workers(), func(i int) { sugs[i] = xpathrules.Suggest(hosts[i], byHost[hosts[i]]) })
	for i, h := range hosts {
		s := sugs[i]
		if s == nil {
			continue
		}
		for _, p := range byHost[h][:min(2, len(byHost[h]))] {
			s.Rule.TestURLs = append(s.Rule.TestURLs, p.URL.String())
		}
		suggested = append(suggested, s)
	}
	return suggested, failed, nil
}
