package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexCommand: add, query, delete and stats on a small collection; a
// query finds a near copy added earlier and not an unrelated text; a bad
// line gives an error record; another --k is refused.
func TestIndexCommand(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "idx")
	base := strings.Repeat("The harbour town switched on its first tidal power station after a decade of planning, protests and hearings. ", 4)
	held := filepath.Join(dir, "held.jsonl")
	lines := []string{
		`{"url":"https://a.example/1","text":` + quote(base) + `}`,
		`{"url":"https://c.example/2","text":"An unrelated note about winter squash stored on a shelf in the spare bedroom until April, with onions."}`,
		`{"url":"https://d.example/empty","text":""}`,
	}
	os.WriteFile(held, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, code := run(t, "index", "add", held, "--index", idx); code != 0 {
		t.Fatalf("add: exit code %d", code)
	}
	newer := filepath.Join(dir, "new.jsonl")
	os.WriteFile(newer, []byte(strings.Join([]string{
		`{"url":"https://b.example/copy","text":` + quote(base) + `}`,
		`not json`,
		`{"url":"https://e.example/other","text":"Completely different words about mountain weather in the winter season and snow on passes."}`,
	}, "\n")+"\n"), 0o644)
	out, code := run(t, "index", "query", newer, "--index", idx)
	if code != 0 {
		t.Fatalf("query: exit code %d", code)
	}
	// The block cache's bound changes no answer; a bound that is no size
	// is a usage error.
	if small, code := run(t, "index", "query", newer, "--index", idx, "--cache", "8MB"); code != 0 || small != out {
		t.Errorf("query with --cache 8MB: exit code %d, output %q, want %q", code, small, out)
	}
	if _, code := run(t, "index", "query", newer, "--index", idx, "--cache", "lots"); code != 2 {
		t.Errorf("--cache lots: exit code %d, want 2", code)
	}
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("query output %q: %v", l, err)
		}
		recs = append(recs, m)
	}
	if len(recs) != 3 {
		t.Fatalf("%d query records, want 3", len(recs))
	}
	dups := recs[0]["duplicates"].([]any)
	if len(dups) != 1 || dups[0].(map[string]any)["url"] != "https://a.example/1" {
		t.Errorf("the copy's duplicates: %v", dups)
	}
	if recs[1]["error"] == nil || len(recs[2]["duplicates"].([]any)) != 0 {
		t.Errorf("bad line or unrelated text: %v / %v", recs[1], recs[2])
	}
	stats := func() int {
		out, code := run(t, "index", "stats", "--index", idx)
		var s struct{ Documents int }
		if code != 0 || json.Unmarshal([]byte(out), &s) != nil {
			t.Fatalf("stats: %d %q", code, out)
		}
		return s.Documents
	}
	if n := stats(); n != 2 {
		t.Errorf("%d documents held, want 2 (the empty text has no fingerprint)", n)
	}
	if _, code := run(t, "index", "delete", "https://a.example/1", "--index", idx); code != 0 {
		t.Fatal("delete failed")
	}
	if n := stats(); n != 1 {
		t.Errorf("%d documents after delete, want 1", n)
	}
	if out, _ := run(t, "index", "query", newer, "--index", idx); strings.Contains(out, "https://a.example/1") {
		t.Error("a deleted document is still found")
	}
	if _, code := run(t, "index", "stats", "--index", idx, "--k", "5"); code == 0 {
		t.Error("another k was accepted")
	}
	if _, code := run(t, "index", "stats"); code != 2 {
		t.Errorf("no --index: exit code %d, want 2", code)
	}
}

// TestDedupWithIndex: dedup --index refuses an index that does not exist
// (a mistyped path); once index add has made it, a first dedup run fills
// it; in a second run a reprint of a page from the first points at it
// (duplicate_of, redirect) and is not canonical, while a new page stays
// canonical.
func TestDedupWithIndex(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "idx")
	// A reprint adds one line: Jaccard 0.9 of 3-word shingles with the
	// page, which both the index's verification and the clusters' pass.
	base := "The harbour town switched on its first tidal power station after a decade of planning, protests and hearings. " +
		"Engineers say the turbines under the old pier will light four thousand homes when the spring tides run strongest. " +
		"Fishermen who fought the project for years now sell their morning catch to the crews who service the machines. " +
		"The council hopes visitors will come to watch the water turn the blades, and plans a small museum beside the lock. " +
		"A second station further along the coast is already being discussed, though no money has been set aside for it yet."
	first := filepath.Join(dir, "first.jsonl")
	os.WriteFile(first, []byte(`{"url":"https://a.example/1","text":`+quote(base)+`}`+"\n"), 0o644)
	if _, code := run(t, "dedup", first, "--out", filepath.Join(dir, "o1.jsonl"), "--index", idx); code != 1 {
		t.Fatalf("a missing index: exit code %d, want 1", code)
	}
	if _, err := os.Stat(idx); !os.IsNotExist(err) {
		t.Fatalf("a refused index was made: %v", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	if _, code := run(t, "index", "add", empty, "--index", idx); code != 0 {
		t.Fatalf("index add of nothing: exit code %d", code)
	}
	if _, code := run(t, "dedup", first, "--out", filepath.Join(dir, "o1.jsonl"), "--index", idx); code != 0 {
		t.Fatalf("first run: exit code %d", code)
	}
	second := filepath.Join(dir, "second.jsonl")
	os.WriteFile(second, []byte(strings.Join([]string{
		`{"url":"https://b.example/reprint","text":` + quote(base+" Advertisement: buy a boat.") + `}`,
		`{"url":"https://c.example/new","text":"An unrelated note about winter squash stored on a shelf in the spare bedroom until April."}`,
	}, "\n")+"\n"), 0o644)
	out2, red := filepath.Join(dir, "o2.jsonl"), filepath.Join(dir, "red.tsv")
	if _, code := run(t, "dedup", second, "--out", out2, "--index", idx, "--method", "simhash", "--redirects", red); code == 0 {
		t.Fatal("a MinHash index (the default) was opened as a SimHash one")
	}
	if _, code := run(t, "dedup", second, "--out", out2, "--index", idx, "--redirects", red); code != 0 {
		t.Fatalf("second run: exit code %d", code)
	}
	recs := readJSONL(t, out2)
	if recs[0]["canonical"] != false || recs[0]["duplicate_of"] != "https://a.example/1" {
		t.Errorf("reprint: %v", recs[0])
	}
	if recs[1]["canonical"] != true || recs[1]["duplicate_of"] != nil {
		t.Errorf("new page: %v", recs[1])
	}
	if b, _ := os.ReadFile(red); string(b) != "https://b.example/reprint\thttps://a.example/1\n" {
		t.Errorf("redirects %q", b)
	}
	if out, _ := run(t, "index", "stats", "--index", idx); !strings.Contains(out, `"documents":3`) {
		t.Errorf("stats after two runs: %s", out)
	}
}

// TestIndexMethods: a MinHash index finds an edited copy of a held text;
// it and indexes of seed 000's signatures (TF*IDF and Heavy Sent keep
// their statistics) find a reprint under another URL and not an unrelated
// text; stats name the method; an index refuses another method.
func TestIndexMethods(t *testing.T) {
	dir := t.TempDir()
	var held []string
	for i := range 12 {
		held = append(held, `{"url":"https://a.example/`+string(rune('a'+i))+`","text":`+quote(fixtureText(i))+`}`)
	}
	heldPath := filepath.Join(dir, "held.jsonl")
	os.WriteFile(heldPath, []byte(strings.Join(held, "\n")+"\n"), 0o644)
	newer := filepath.Join(dir, "new.jsonl")
	os.WriteFile(newer, []byte(strings.Join([]string{
		`{"url":"https://b.example/edited","text":` + quote(fixtureText(3)+" Share this article.") + `}`,
		`{"url":"https://b.example/reprint","text":` + quote(fixtureText(3)) + `}`,
		`{"url":"https://b.example/other","text":` + quote(fixtureText(40)) + `}`,
	}, "\n")+"\n"), 0o644)
	for _, m := range []string{"minhash", "md5", "tfidf", "heavysent"} {
		idx := filepath.Join(dir, m)
		if _, code := run(t, "index", "add", heldPath, "--index", idx, "--method", m); code != 0 {
			t.Fatalf("%s: add: exit code %d", m, code)
		}
		out, code := run(t, "index", "query", newer, "--index", idx)
		if code != 0 {
			t.Fatalf("%s: query: exit code %d", m, code)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		found := func(i int) bool { return strings.Contains(lines[i], `"url":"https://a.example/d"`) }
		if len(lines) != 3 || m == "minhash" && !found(0) || !found(1) || strings.Contains(lines[2], "a.example") {
			t.Errorf("%s: query %q", m, out)
		}
		if out, _ := run(t, "index", "stats", "--index", idx); !strings.Contains(out, `"method":"`+m) || !strings.Contains(out, `"documents":12`) {
			t.Errorf("%s: stats %s", m, out)
		}
	}
	if _, code := run(t, "index", "stats", "--index", filepath.Join(dir, "minhash"), "--method", "simhash"); code == 0 {
		t.Error("a MinHash index opened as SimHash")
	}
}

// fixtureText is a distinct paragraph of plain sentences for text i.
func fixtureText(i int) string {
	words := strings.Fields("river harbour council budget school winter railway market museum forest bridge station garden library theatre hospital festival tunnel orchard quarry")
	var b strings.Builder
	for s := range 6 {
		for w := range 9 {
			b.WriteString(words[(i*7+s*3+w*w+i*w)%len(words)])
			fmt.Fprintf(&b, "%d ", (i*31+s*7+w)%97)
		}
		b.WriteString("end. ")
	}
	return b.String()
}
