package evaluate

import (
	"cmp"
	"fmt"
	"io"
	"slices"
)

// scoreLangs counts the languages the extractor named (langs, in the
// order of ds.Pages) and, when ds has one language, the share of pages
// named with it. An extractor that names no language leaves both unset.
func (r *Result) scoreLangs(ds *Dataset, langs []string) {
	if !slices.ContainsFunc(langs, func(l string) bool { return l != "" }) {
		return
	}
	r.Langs = map[string]int{}
	for _, l := range langs {
		r.Langs[l]++
	}
	if ds.Lang != "" && len(langs) > 0 {
		a := float64(r.Langs[ds.Lang]) / float64(len(langs))
		r.LangAgreement = &a
	}
}

// writeLangs writes the languages winnow named, most pages first, and
// the agreement with the set's language when it has one.
func (r *Result) writeLangs(w io.Writer, set string) error {
	if r.Langs == nil {
		return nil
	}
	type count struct {
		lang  string
		pages int
	}
	var cs []count
	for l, n := range r.Langs {
		cs = append(cs, count{l, n})
	}
	slices.SortFunc(cs, func(a, b count) int {
		return cmp.Or(b.pages-a.pages, cmp.Compare(a.lang, b.lang))
	})
	if r.LangAgreement != nil {
		fmt.Fprintf(w, "lang agreement %.4f with %s;", *r.LangAgreement, SetLang(set))
	} else {
		fmt.Fprint(w, "lang (set of several languages):")
	}
	for _, c := range cs {
		l := c.lang
		if l == "" {
			l = "none"
		}
		fmt.Fprintf(w, " %s %d", l, c.pages)
	}
	_, err := fmt.Fprintln(w)
	return err
}
