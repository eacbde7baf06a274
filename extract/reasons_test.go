package extract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
)

// densityReasons lists every reason of the density stage; TestReasons
// checks that each has a page under testdata/reasons.
var densityReasons = []string{
	ReasonStopper, ReasonStopperSection, ReasonTitle, ReasonSpecList,
	ReasonOutsideRegion, ReasonAuthor, ReasonLead, ReasonClassPrefix,
	ReasonLinkDensity, ReasonCaption, ReasonForm, ReasonFragment, ReasonLabel,
	ReasonDate, ReasonCredit, ReasonTeaser, ReasonLink, ReasonInRegion,
	ReasonShortEdge, ReasonTail, ReasonShortItems, ReasonReviews, ReasonConsent,
	ReasonDialog, ReasonRepeat, ReasonPlaceholder,
}

// contentReasons are the reasons that keep a block; all others drop it.
var contentReasons = map[string]bool{
	ReasonTitle: true, ReasonSpecList: true, ReasonAuthor: true, ReasonLead: true, ReasonInRegion: true,
	ReasonShortItems: true, ReasonMainColumn: true, ReasonColumnFallback: true,
}

// reasonPages lists the pages under testdata/reasons and parses the
// parts they share.
func reasonPages(t *testing.T) ([]string, *template.Template) {
	t.Helper()
	pages, err := filepath.Glob("testdata/reasons/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages: %v", err)
	}
	shared, err := template.ParseFiles("testdata/reasons/shared.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	return pages, shared
}

// wantAttr marks, in a page under testdata/reasons, the element whose
// blocks must get the attribute's value as their density reason.
const wantAttr = "data-want"

// TestReasons extracts each page under testdata/reasons (a text/template
// over the parts in shared.tmpl) and checks that
// every block whose element carries data-want="<reason>" gets that reason
// from the density stage, and the label the reason implies. Every reason
// must be pinned by some page.
func TestReasons(t *testing.T) {
	pages, shared := reasonPages(t)
	pinned := map[string]bool{} // the reasons some page marks
	for _, path := range pages {
		raw, err := readReasonPage(shared, path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range strings.Split(string(raw), wantAttr+`="`)[1:] {
			rule, _, _ := strings.Cut(m, `"`)
			pinned[reasonOf(rule)] = true
		}
		name := strings.TrimSuffix(filepath.Base(path), ".html")
		t.Run(name, func(t *testing.T) {
			p, err := Extract(raw, Options{})
			if err != nil {
				t.Fatal(err)
			}
			marked := 0
			for _, b := range p.Blocks {
				want := attr(b.Node, wantAttr)
				if want == "" {
					continue
				}
				marked++
				got, ok := densityRule(b)
				if !ok || got != want {
					t.Errorf("block %q: density reason %q, want %q", b.Text, got, want)
				}
				wantLabel := Boilerplate
				if contentReasons[want] {
					wantLabel = Content
				}
				if b.Label != wantLabel {
					t.Errorf("block %q: label %v, want %v", b.Text, b.Label, wantLabel)
				}
			}
			if marked == 0 {
				t.Fatalf("no block carries %s", wantAttr)
			}
			if t.Failed() {
				for _, b := range p.Blocks {
					r, _ := densityRule(b)
					t.Logf("%-12v %-22s %q", b.Label, r, b.Text)
				}
			}
		})
	}
	for _, r := range densityReasons {
		if !pinned[r] {
			t.Errorf("reason %q has no page under testdata/reasons", r)
		}
	}
}

// readReasonPage expands a page of testdata/reasons with the parts that
// shared.tmpl defines.
func readReasonPage(shared *template.Template, path string) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tmpl, err := shared.Clone()
	if err == nil {
		_, err = tmpl.Parse(string(src))
	}
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf.Bytes(), nil
}

// densityRule returns the rule of the density stage's last reason for the
// block: the edge trims vote after the block's first verdict.
func densityRule(b *Block) (string, bool) {
	for i := len(b.Reasons) - 1; i >= 0; i-- {
		if r := b.Reasons[i]; r.Stage == StageDensity {
			return r.Rule, true
		}
	}
	return "", false
}

// reasonOf maps a rule to its reason constant: "class:class~share" is
// ReasonClassPrefix.
func reasonOf(rule string) string {
	if strings.HasPrefix(rule, ReasonClassPrefix) {
		return ReasonClassPrefix
	}
	return rule
}
