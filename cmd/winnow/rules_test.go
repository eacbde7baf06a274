package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/xpathrules"
)

// TestRulesCommands: rules check lists a bad file's problems as file:line
// and exits 1; with --on it counts the pages a rule matched and those on
// which it is broken; rules suggest writes a rule file that loads without
// error and that extract --rules applies.
func TestRulesCommands(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("- host: a.example\n  content: //div[\n"), 0o644)
	out, code := run(t, "rules", "check", bad)
	if code != 1 || !strings.Contains(out, "bad.yaml:2: rule \"bad.yaml:1\": content: XPath") {
		t.Errorf("check of a bad file: exit %d\n%s", code, out)
	}
	if _, code := run(t, "run", "../../fixtures/pages", "--out", filepath.Join(dir, "o.jsonl"), "--rules", bad); code != 1 {
		t.Errorf("run with a bad rule file: exit %d, want 1", code)
	}

	site := filepath.Join(shareddata.Require(t), "sites", "cleanportaleval", "bbc.co.uk_news", "input")
	good := filepath.Join(dir, "bbc.yaml")
	os.WriteFile(good, []byte("- name: bbc story\n  host: bbc.co.uk\n  content: //div[contains(@class,'story-body')]\n"), 0o644)
	out, code = run(t, "rules", "check", good, "--on", site)
	if code != 0 || !strings.Contains(out, "matched 12 pages: 10 ok, 2 broken") || !strings.Contains(out, "broken on 2: content matched nothing") {
		t.Errorf("check --on: exit %d\n%s", code, out)
	}

	odd, _ := filepath.Glob(filepath.Join(site, "*[13579].html.gz"))
	suggested := filepath.Join(dir, "suggested.yaml")
	if _, code := run(t, append(append([]string{"rules", "suggest"}, odd...), "--out", suggested)...); code != 0 {
		t.Fatalf("suggest: exit %d", code)
	}
	set, err := xpathrules.Load(suggested)
	if err != nil || len(set.Rules) != 1 || set.Rules[0].Hosts[0] != "bbc.co.uk" || len(set.Rules[0].Content) == 0 || set.Rules[0].TypicalWords == 0 {
		b, _ := os.ReadFile(suggested)
		t.Fatalf("suggested rules (%v):\n%s", err, b)
	}
	out, code = run(t, "extract", filepath.Join(site, "bbc.co.uk_news_02.html.gz"), "--rules", suggested, "--format", "json")
	if code != 0 || !strings.Contains(out, `"rule":"bbc.co.uk","rule_status":"ok"`) || !strings.Contains(out, `"stage":"rules"`) {
		t.Errorf("extract --rules: exit %d\n%.600s", code, out)
	}
}
