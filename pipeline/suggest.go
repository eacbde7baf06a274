package pipeline

import (
	"sort"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/xpathrules"
)

// SuggestRules labels parsed pages as a run without rules does (site
// templates learned per group, then the density classifier) and suggests
// one rule per site (host, www. folded; see xpathrules.Suggest), in host
// order, with the site's first two URLs as its test URLs. Sites where no
// element holds the content are left out.
func SuggestRules(pages []*extract.Page) []*xpathrules.Suggestion {
	infholder.LearnGroups(pages, infholder.Options{})
	byHost := map[string][]*extract.Page{}
	var hosts []string
	for _, p := range pages {
		extract.Classify(p)
		if p.URL == nil {
			continue
		}
		h := Site(p.URL.Hostname())
		if byHost[h] == nil {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], p)
	}
	sort.Strings(hosts)
	var out []*xpathrules.Suggestion
	for _, h := range hosts {
		s := xpathrules.Suggest(h, byHost[h])
		if s == nil {
			continue
		}
		for _, p := range byHost[h][:min(2, len(byHost[h]))] {
			s.Rule.TestURLs = append(s.Rule.TestURLs, p.URL.String())
		}
		out = append(out, s)
	}
	return out
}
