package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/internal/synth"
	"github.com/winnow-go/winnow/render"
	"github.com/winnow-go/winnow/xpathrules"
)

func runRecords(t *testing.T, paths []string, workers int) ([]map[string]any, []byte, Summary) {
	t.Helper()
	return runRecordsWith(t, paths, Options{Workers: workers})
}

func runRecordsWith(t *testing.T, paths []string, opts Options) ([]map[string]any, []byte, Summary) {
	t.Helper()
	var out bytes.Buffer
	sum, err := Run(context.Background(), paths, &out, opts)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad record %q: %v", line, err)
		}
		recs = append(recs, m)
	}
	return recs, out.Bytes(), sum
}

func TestRunWARC(t *testing.T) {
	path := filepath.Join(shareddata.Require(t), "warc", "pywb", "iana.warc.gz")
	recs, out1, sum := runRecords(t, []string{path}, 4)
	if len(recs) != 20 || sum.OK != 16 || sum.Skipped != 4 || sum.Written != 20 {
		t.Fatalf("%d records, summary %+v", len(recs), sum)
	}
	last := int64(-1)
	for _, r := range recs {
		src := r["source"].(string)
		off, err := strconv.ParseInt(src[strings.LastIndex(src, "@")+1:], 10, 64)
		if err != nil || off <= last {
			t.Errorf("source %q out of order", src)
		}
		last = off
		if r["status"] == "skipped" && !strings.Contains(r["error"].(string), "redirect 302: to ") {
			t.Errorf("skipped record without its Location: %v", r)
		}
		if r["status"] == "ok" && (r["text"] == "" || r["fetched_at"] == nil) {
			t.Errorf("ok record without text or date: %v", r["url"])
		}
	}
	_, out2, _ := runRecords(t, []string{path}, 1)
	if !bytes.Equal(out1, out2) {
		t.Error("output depends on the number of workers")
	}
}

func TestRunTruncatedWARC(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(shareddata.Require(t), "warc", "resiliparse", "clueweb-quirk.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.warc.gz")
	if err := os.WriteFile(cut, b[:len(b)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	recs, _, sum := runRecords(t, []string{cut}, 2)
	if sum.Errors != 1 || sum.OK < 15 || len(recs) != sum.OK+1 {
		t.Fatalf("summary %+v", sum)
	}
	lastRec := recs[len(recs)-1]
	if lastRec["status"] != "error" || !strings.Contains(lastRec["source"].(string), "cut.warc.gz@") {
		t.Errorf("last record %v", lastRec)
	}
}

func TestRunJSONL(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	lines := []string{
		`{"url":"https://a.example/","html":"<html><body><article><p>The first page has a paragraph long enough to be kept as the article text of this page.</p></article></body></html>","score":3,"crawl_id":"x1","url_depth":2}`,
		`{this is not JSON`,
		`{"url":"https://b.example/","score":1}`,
		`{"url":"https://c.example/","html":""}`,
	}
	os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	recs, _, sum := runRecords(t, []string{in}, 2)
	if len(recs) != 4 || sum.OK != 1 || sum.Errors != 3 {
		t.Fatalf("%d records, summary %+v", len(recs), sum)
	}
	if recs[0]["crawl_id"] != "x1" || recs[0]["url_depth"] != 2.0 || recs[0]["score"] != 3.0 {
		t.Errorf("pass-through lost: %v", recs[0])
	}
	if recs[1]["source"] != in+":2" || recs[2]["score"] != 1.0 {
		t.Errorf("error records: %v / %v", recs[1], recs[2])
	}
}

func TestRunFolder(t *testing.T) {
	recs, _, sum := runRecords(t, []string{"../fixtures/pages"}, 2)
	pages, _ := filepath.Glob("../fixtures/pages/*.html")
	if len(recs) != len(pages) || sum.OK != len(pages) {
		t.Fatalf("%d records for %d pages, summary %+v", len(recs), len(pages), sum)
	}
	for i, r := range recs {
		if r["source"] != filepath.Base(pages[i]) || !strings.HasPrefix(r["url"].(string), "file:///") {
			t.Errorf("record %d: source %v url %v", i, r["source"], r["url"])
		}
	}
}

// TestRunTemplates: the iana crawl is one site template; the run learns it
// in pass 1 and removes template words in pass 2, and --single-page does not.
func TestRunTemplates(t *testing.T) {
	path := filepath.Join(shareddata.Require(t), "warc", "pywb", "iana.warc.gz")
	for _, c := range []struct {
		name   string
		single bool
	}{{"template", false}, {"single-page", true}} {
		t.Run(c.name, func(t *testing.T) {
			single := c.single
			var out bytes.Buffer
			if _, err := Run(context.Background(), []string{path}, &out, Options{Workers: 2, SinglePage: single}); err != nil {
				t.Fatal(err)
			}
			templated, grouped := 0, 0
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var r struct {
					Status  string
					Group   string
					Removed map[string]int
				}
				json.Unmarshal([]byte(line), &r)
				if r.Status != "ok" {
					continue
				}
				if r.Group != "" {
					grouped++
				}
				if r.Removed["template"] > 0 {
					templated++
				}
			}
			if single && (templated != 0 || grouped != 0) {
				t.Errorf("single-page run used templates: %d pages", templated)
			}
			if !single && (templated < 12 || grouped != 16) {
				t.Errorf("template run: %d of 16 pages had template words removed, %d grouped", templated, grouped)
			}
		})
	}
}

// TestRunIANANavigation: none of the 16 iana pages keeps the site's header
// or footer navigation: no two consecutive lines of its text are link
// texts of the raw pages' <header> and <footer>. A single such line can
// be content: "Domain Names" heads a section of /about, and the footer
// links to "Time Zone Database", the title of a page.
func TestRunIANANavigation(t *testing.T) {
	path := filepath.Join(shareddata.Require(t), "warc", "pywb", "iana.warc.gz")
	nav := ianaNavigation(t, path)
	recs, _, sum := runRecords(t, []string{path}, 2)
	if sum.OK != 16 {
		t.Fatalf("summary %+v", sum)
	}
	checkNoNavigation(t, recs, nav)
}

// ianaNavigation is the text of every link in a header or footer of the
// iana pages.
func ianaNavigation(t *testing.T, path string) map[string]bool {
	t.Helper()
	nav := map[string]bool{}
	err := ReadInputs([]string{path}, func(in Input) error {
		if in.Status != "" {
			return nil
		}
		doc, err := html.Parse(bytes.NewReader(in.Body))
		if err != nil {
			return err
		}
		var walk func(n *html.Node, inNav bool)
		walk = func(n *html.Node, inNav bool) {
			if n.Type == html.ElementNode && (n.DataAtom == atom.Header || n.DataAtom == atom.Footer) {
				inNav = true
			}
			if inNav && n.Type == html.ElementNode && n.DataAtom == atom.A {
				if s := strings.Join(strings.Fields(textOf(n)), " "); s != "" {
					nav[s] = true
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, inNav)
			}
		}
		walk(doc, false)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(nav) < 20 {
		t.Fatalf("only %d navigation texts found: %v", len(nav), nav)
	}
	return nav
}

// checkNoNavigation fails when an ok record has two navigation lines in
// a row.
func checkNoNavigation(t *testing.T, recs []map[string]any, nav map[string]bool) {
	t.Helper()
	for _, r := range recs {
		if r["status"] != "ok" {
			continue
		}
		lines := strings.Split(r["text"].(string), "\n")
		for i := 2; i < len(lines); i++ {
			a, b := strings.Join(strings.Fields(lines[i-1]), " "), strings.Join(strings.Fields(lines[i]), " ")
			if nav[a] && nav[b] {
				t.Errorf("%v keeps the navigation lines %q, %q", r["url"], a, b)
			}
		}
	}
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

// TestRunClueWebQuirk: the EUC-JP shop of WARC/0.18 records with an invalid
// WARC-Date and a false Content-Encoding: every page decodes without
// U+FFFD and the invalid date gives fetched_at null.
func TestRunClueWebQuirk(t *testing.T) {
	path := filepath.Join(shareddata.Require(t), "warc", "resiliparse", "clueweb-quirk.warc.gz")
	recs, _, sum := runRecords(t, []string{path}, 2)
	if sum.OK != 29 || sum.Errors != 0 {
		t.Fatalf("summary %+v", sum)
	}
	nullDates := 0
	for _, r := range recs {
		if strings.ContainsRune(r["text"].(string), '\uFFFD') || strings.ContainsRune(r["title"].(string), '\uFFFD') {
			t.Errorf("%v: U+FFFD in the decoded text", r["url"])
		}
		if v, ok := r["fetched_at"]; !ok || v == nil {
			nullDates++
		}
	}
	if nullDates == 0 {
		t.Error("the invalid WARC-Date did not give fetched_at null")
	}
}

// TestRunRules: a site rule written for the BBC's story pages keeps their
// story body and drops the rest; on the BBC's index pages, another
// layout, it matches nothing: those records say rule_status broken with
// the reason and carry the text the run gives without rules, and the
// summary counts them for the rule.
func TestRunRules(t *testing.T) {
	dir := filepath.Join(shareddata.Require(t), "sites", "cleanportaleval", "bbc.co.uk_news", "input")
	rulesFile := filepath.Join(t.TempDir(), "bbc.yaml")
	os.WriteFile(rulesFile, []byte("- name: bbc story\n  host: bbc.co.uk\n  content: //div[contains(@class,'story-body')]\n  drop: css:.story-date\n"), 0o644)
	rules, err := xpathrules.Load(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	plain, _, _ := runRecordsWith(t, []string{dir}, Options{Workers: 2})
	recs, _, sum := runRecordsWith(t, []string{dir}, Options{Workers: 2, Stages: Stages{Rules: rules}})
	broken := 0
	for i, r := range recs {
		layoutB := strings.HasSuffix(r["source"].(string), "_04.html.gz") || strings.HasSuffix(r["source"].(string), "_05.html.gz")
		if r["rule"] != "bbc story" {
			t.Fatalf("%v: rule %v", r["source"], r["rule"])
		}
		switch {
		case layoutB:
			broken++
			if r["rule_status"] != "broken" || !strings.Contains(r["error"].(string), "matched nothing") {
				t.Errorf("%v: %v %v", r["source"], r["rule_status"], r["error"])
			}
			if r["text"] != plain[i]["text"] || r["text"] == "" {
				t.Errorf("%v: a broken rule changed the heuristic text", r["source"])
			}
		default:
			if r["rule_status"] != "ok" || strings.Contains(r["text"].(string), "Last updated at") {
				t.Errorf("%v: %v, text %.200q", r["source"], r["rule_status"], r["text"])
			}
			if removed := r["removed"].(map[string]any); removed["rules"] == nil {
				t.Errorf("%v: no words removed by the rule: %v", r["source"], removed)
			}
		}
	}
	if broken != 2 || sum.Rules["bbc story"] != len(recs) || sum.RulesBroken["bbc story"] != 2 {
		t.Errorf("%d broken; summary %v / %v", broken, sum.Rules, sum.RulesBroken)
	}
	if !strings.Contains(sum.Describe(), "rule bbc story: 12 pages, 2 broken") {
		t.Errorf("summary: %s", sum.Describe())
	}
}

// TestRunRenderIANA renders the iana crawl from its WARC: each page gets
// its stylesheets from the WARC (served), every other request is blocked
// and logged, the 16 pages are ok records, and none of them keeps the
// site's navigation.
func TestRunRenderIANA(t *testing.T) {
	path := filepath.Join(shareddata.Require(t), "warc", "pywb", "iana.warc.gz")
	bin, err := render.FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	br, err := render.NewChromium(bin, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	var mu sync.Mutex
	logs := map[string][]render.Request{}
	cfg := &RenderConfig{Browser: br, Log: func(u string, reqs []render.Request) {
		mu.Lock()
		logs[u] = reqs
		mu.Unlock()
	}}
	recs, _, sum := runRecordsWith(t, []string{path}, Options{Workers: 2, Stages: Stages{Render: cfg}})
	if sum.OK != 16 || len(logs) != 16 {
		t.Fatalf("%d ok records, %d pages rendered; summary %+v", sum.OK, len(logs), sum)
	}
	css := 0
	for u, reqs := range logs {
		for _, r := range reqs {
			switch {
			case r.Served && r.Why == "resource" && strings.Contains(r.URL, ".css"):
				css++
			case r.Served && r.Why != "document":
			case !r.Served && !strings.HasPrefix(r.Why, "blocked"):
				t.Errorf("%s: request %+v neither served nor blocked", u, r)
			}
		}
	}
	if css < 16 {
		t.Errorf("%d stylesheets served from the WARC for 16 pages", css)
	}
	t.Logf("%d stylesheets served from the WARC", css)
	checkNoNavigation(t, recs, ianaNavigation(t, path))
}

// TestRunHoldOrRead: pass 2 writes the same bytes whether it takes the
// inputs from pass 1's memory, reads them again, or pass 1 gave up
// holding them halfway; a resumed run too.
func TestRunHoldOrRead(t *testing.T) {
	// A page that compresses far better than inputBytes guesses: the
	// guess lets pass 1 start holding under a 100 kB cap, and the page
	// makes it give up.
	dir := t.TempDir()
	var page bytes.Buffer
	zw := gzip.NewWriter(&page)
	fmt.Fprintf(zw, "<html><head><title>Long</title></head><body>%s</body></html>", strings.Repeat("<p>The same paragraph, many times over.</p>\n", 5000))
	zw.Close()
	short := []byte("<html><body><p>A short page before it.</p></body></html>")
	os.WriteFile(filepath.Join(dir, "a.html"), short, 0o644)
	os.WriteFile(filepath.Join(dir, "long.html.gz"), page.Bytes(), 0o644)
	paths := []string{filepath.Join(shareddata.Require(t), "warc", "pywb", "iana.warc.gz"), "../fixtures/pages", dir}
	for _, c := range []struct {
		name  string
		paths []string
		hold  int64
		held  bool
	}{
		{"learn-all-default", paths, 0, true},
		{"learn-all-200KiB", paths, 200 << 10, false},
		{"learn-dir-100KiB", []string{dir}, 100 << 10, false},
		{"learn-dir-default", []string{dir}, 0, true},
		{"learn-all-none", paths, -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := learnSites(context.Background(), c.paths, Options{Workers: 2, HoldBytes: c.hold}, nil)
			if err != nil || (st.held != nil) != c.held || (c.held && len(st.held) != len(st.groups)) {
				t.Fatalf("HoldBytes %d: held %d inputs of %d, err %v", c.hold, len(st.held), len(st.groups), err)
			}
		})
	}
	if got := inputBytes([]string{dir}); got != int64(len(short)+gzipRatio*page.Len()) || got > 100<<10 {
		t.Fatalf("inputBytes = %d for a %d-byte gzip", got, page.Len())
	}
	_, want, _ := runRecordsWith(t, paths, Options{Workers: 2})
	for _, c := range []struct {
		name string
		hold int64
	}{{"output-all-none", -1}, {"output-all-200KiB", 200 << 10}} {
		t.Run(c.name, func(t *testing.T) {
			hold := c.hold
			if _, got, _ := runRecordsWith(t, paths, Options{Workers: 2, HoldBytes: hold}); !bytes.Equal(got, want) {
				t.Errorf("HoldBytes %d: the output differs", hold)
			}
		})
	}
	_, one, _ := runRecordsWith(t, []string{dir}, Options{Workers: 2})
	if _, got, _ := runRecordsWith(t, []string{dir}, Options{Workers: 2, HoldBytes: 100 << 10}); !bytes.Equal(got, one) {
		t.Error("a run that gave up holding differs")
	}
	lines := bytes.SplitAfter(want, []byte("\n"))
	_, rest, _ := runRecordsWith(t, paths, Options{Workers: 2, Skip: 7})
	if !bytes.Equal(rest, bytes.Join(lines[7:], nil)) {
		t.Error("a run resumed after 7 records differs")
	}
}

// TestRunFileDedup: with near-duplicate detection as the last stage the
// output is the run's records with the dedup fields, the summary reports
// the clusters, and the spool is gone.
func TestRunFileDedup(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	d := DefaultDedupOptions()
	sum, err := RunFile(context.Background(), []string{"../fixtures/pages"}, out, Options{Workers: 2}, FileOptions{Dedup: &d})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Dedup == nil || sum.Dedup.Records != sum.Written || sum.Dedup.Clusters == 0 {
		t.Fatalf("summary %+v, dedup %+v", sum, sum.Dedup)
	}
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != sum.Written {
		t.Fatalf("%d lines, %d records", len(lines), sum.Written)
	}
	for _, l := range lines {
		if !strings.Contains(l, `"cluster":`) || !strings.Contains(l, `"canonical":`) {
			t.Fatalf("no dedup fields: %.200s", l)
		}
	}
	if _, err := os.Stat(out + SpoolSuffix); !os.IsNotExist(err) {
		t.Errorf("spool left: %v", err)
	}
}

// TestDedupBadLine: a line that is not a JSON record becomes an error
// record, counted, and the others are clustered as usual.
func TestDedupBadLine(t *testing.T) {
	in := "{\"url\":\"a\",\"text\":\"one two three four\"}\n{oops\n{\"url\":\"b\",\"text\":\"five six seven eight\"}\n"
	var out bytes.Buffer
	sum, _, err := Dedup(strings.NewReader(in), "in.jsonl", &out, DefaultDedupOptions())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || sum.Errors != 1 || sum.Records != 3 {
		t.Fatalf("%d lines, summary %+v", len(lines), sum)
	}
	if !strings.HasPrefix(lines[1], `{"source":"in.jsonl:2","fetched_at":null,"status":"error","error":"not a JSON record`) {
		t.Errorf("error record %s", lines[1])
	}
}

// TestSummaryKinds: skipped and failed records are counted by the kind
// their reader or stage gave them, not by their message.
func TestSummaryKinds(t *testing.T) {
	var s Summary
	s.Kinds = map[string]int{}
	for _, r := range []*Record{
		{Status: StatusSkipped, Kind: KindRedirect, Error: "redirect 301: to /x"},
		{Status: StatusSkipped, Kind: KindRedirect, Error: "redirect 302: to /y"},
		{Status: StatusError, Kind: KindNotHTML, Error: "extract: input is not HTML"},
	} {
		s.count(r)
	}
	if s.Kinds["skipped: "+KindRedirect] != 2 || s.Kinds["error: "+KindNotHTML] != 1 || s.Read != 3 {
		t.Errorf("kinds %v", s.Kinds)
	}
}

// TestRunLetGo: a crawl whose sites interleave, read with nothing held,
// lets go of every waiting page and reads again those of the sites that
// reach three pages: from a WARC record by record, from JSONL in a whole
// reading. Both write the bytes of a run that held everything.
func TestRunLetGo(t *testing.T) {
	dir := t.TempDir()
	var warcBuf bytes.Buffer
	stories := []string{"The harbour opened its new pier on Saturday, and hundreds of people walked its length before noon.", "Rain is expected across the valley all week, and farmers say the fields need every drop of it.", "The council met on Monday evening and voted on the budget for the coming year after a long debate."}
	for i := range 9 { // three pages a site: a template needs all three
		site := i % 3
		page := fmt.Sprintf(`<html><head><title>Story %d</title></head><body>
<div class="masthead"><p>The Daily Example of site %d: news from the valley and the coast since 1901</p></div>
<ul class="menu"><li><a href="/news">News from the valley</a></li><li><a href="/sport">Sport and the weekend results</a></li><li><a href="/weather">Weather for the week ahead</a></li></ul>
<article><h1>Story %d</h1><p>%s</p><p>Reported on day %d by our staff in the valley, who spoke to people there.</p></article>
<div class="footer"><p>Copyright The Daily Example of site %d. All rights reserved. Contact the newsroom with tips and corrections.</p></div>
</body></html>`, i, site, i, stories[i%len(stories)], i, site)
		if err := synth.WriteRecord(&warcBuf, fmt.Sprintf("http://site%d.example/news/%d", site, i), "text/html; charset=utf-8", []byte(page)); err != nil {
			t.Fatal(err)
		}
	}
	warcPath := filepath.Join(dir, "crawl.warc")
	os.WriteFile(warcPath, warcBuf.Bytes(), 0o644)
	var jsonlBuf bytes.Buffer
	err := ReadInputs([]string{warcPath}, func(in Input) error {
		b, _ := json.Marshal(map[string]string{"url": in.URL, "html": string(in.Body)})
		jsonlBuf.Write(append(b, '\n'))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	jsonlPath := filepath.Join(dir, "crawl.jsonl")
	os.WriteFile(jsonlPath, jsonlBuf.Bytes(), 0o644)
	for _, path := range []string{warcPath, jsonlPath} {
		t.Run(filepath.Ext(path), func(t *testing.T) {
			recs, want, _ := runRecordsWith(t, []string{path}, Options{Workers: 2})
			templated := 0
			for _, r := range recs {
				if removed, _ := r["removed"].(map[string]any); removed[RemovedTemplate] != nil {
					templated++
				}
			}
			if templated == 0 {
				t.Fatal("no page lost template blocks: the test shows nothing")
			}
			if _, got, _ := runRecordsWith(t, []string{path}, Options{Workers: 2, HoldBytes: -1}); !bytes.Equal(got, want) {
				t.Error("a run that let go of its waiting pages differs")
			}
		})
	}
}

// TestRunSkim: a crawl of real pages (CleanPortalEval's sites, 20 to 120
// kB a page) whose pass 1 skims the WARC, reading only the pages it
// samples, writes the bytes of a run that held the whole input; among
// its records, pages with no Content-Type (sniffed from the first bytes)
// and stylesheets larger than the skimmed prefix.
func TestRunSkim(t *testing.T) {
	root := filepath.Join(shareddata.Require(t), "sites", "cleanportaleval")
	inputs, err := filepath.Glob(filepath.Join(root, "*", "input", "*.html.gz"))
	if err != nil || len(inputs) < 60 {
		t.Fatalf("%d CleanPortalEval pages, %v", len(inputs), err)
	}
	var w bytes.Buffer
	for i, p := range inputs {
		body, err := gz.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		site := filepath.Base(filepath.Dir(filepath.Dir(p)))
		ct := "text/html; charset=utf-8"
		if i%7 == 0 {
			ct = "" // sniffed
		}
		if err := synth.WriteRecord(&w, "http://"+site+"/"+filepath.Base(p), ct, body); err != nil {
			t.Fatal(err)
		}
		if i%9 == 0 {
			css := bytes.Repeat([]byte("p { margin: 0 }\n"), 2000)
			if err := synth.WriteRecord(&w, "http://"+site+"/style.css", "text/css", css); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "crawl.warc")
	os.WriteFile(path, w.Bytes(), 0o644)

	skimmed, pages := 0, 0
	if err := readInputs([]string{path}, func(in Input) error {
		pages++
		if in.Body == nil && in.at.path != "" {
			skimmed++
		}
		return nil
	}, nil, 1, 0, true); err != nil {
		t.Fatal(err)
	}
	if pages != len(inputs) || skimmed < pages*9/10 {
		t.Fatalf("%d pages read of %d, %d of them skimmed", pages, len(inputs), skimmed)
	}
	recs, want, _ := runRecordsWith(t, []string{path}, Options{Workers: 2})
	templated := 0
	for _, r := range recs {
		if removed, _ := r["removed"].(map[string]any); removed[RemovedTemplate] != nil {
			templated++
		}
	}
	if templated < len(inputs)/2 {
		t.Fatalf("%d pages of %d lost template blocks", templated, len(inputs))
	}
	// Read twice, pass 1 labels the sampled pages it parsed (up to
	// maxKeptBytes of them) and pass 2 writes their records as they are.
	sites, err := learnSites(t.Context(), []string{path}, Options{Workers: 2, HoldBytes: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	for _, r := range sites.done {
		if r != nil {
			done++
		}
	}
	if done < len(inputs)/2 {
		t.Fatalf("pass 1 labelled %d sampled pages of %d", done, len(inputs))
	}
	if _, got, _ := runRecordsWith(t, []string{path}, Options{Workers: 2, HoldBytes: -1}); !bytes.Equal(got, want) {
		t.Error("a run whose pass 1 skimmed the WARC (and labelled its samples) differs from one that held it")
	}
}
