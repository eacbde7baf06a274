package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDedupCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	base := strings.Repeat("The harbour town switched on its first tidal power station after a decade of planning, protests and hearings. ", 4)
	lines := []string{
		`{"url":"https://a.example/1","text":` + quote(base) + `,"score":1,"keep":[1,2]}`,
		`{"url":"https://b.example/1","text":` + quote(base+" Advertisement: buy a boat.") + `,"fetched_at":"2020-01-01T00:00:00Z"}`,
		`{"url":"https://c.example/2","text":"An unrelated note about winter squash stored on a shelf in the spare bedroom until April."}`,
		`{"url":"https://d.example/empty","text":""}`,
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"simhash", "minhash", "longsent", "heavysent"} {
		out := filepath.Join(dir, method+".jsonl")
		red := filepath.Join(dir, method+".tsv")
		rep := filepath.Join(dir, method+".html")
		args := []string{"dedup", in, "--out", out, "--method", method, "--redirects", red, "--report", rep}
		if method == "simhash" {
			args = append(args, "--k", "8")
		}
		if _, code := run(t, args...); code != 0 {
			t.Fatalf("%s: exit code %d", method, code)
		}
		recs := readJSONL(t, out)
		if len(recs) != 4 {
			t.Fatalf("%s: %d records, want 4", method, len(recs))
		}
		// The earliest fetch is canonical; the copy points at it.
		if recs[1]["canonical"] != true || recs[0]["canonical"] != false || recs[0]["duplicate_of"] != "https://b.example/1" {
			t.Errorf("%s: records %v / %v", method, recs[0], recs[1])
		}
		if recs[0]["cluster"] != recs[1]["cluster"] || recs[2]["cluster"] == recs[0]["cluster"] {
			t.Errorf("%s: clusters %v %v %v", method, recs[0]["cluster"], recs[1]["cluster"], recs[2]["cluster"])
		}
		if recs[0]["keep"] == nil || recs[3]["simhash"] != nil || len(recs[0]["simhash"].(string)) != 16 {
			t.Errorf("%s: pass-through or simhash wrong: %v %v", method, recs[0], recs[3])
		}
		if b, _ := os.ReadFile(red); string(b) != "https://a.example/1\thttps://b.example/1\n" {
			t.Errorf("%s: redirects %q", method, b)
		}
		if b, _ := os.ReadFile(rep); !strings.Contains(string(b), "Cluster sizes by SimHash distance") || !strings.Contains(string(b), "https://b.example/1") {
			t.Errorf("%s: report lacks histogram or canonical page", method)
		}
	}
	out := filepath.Join(dir, "dropped.jsonl")
	if _, code := run(t, "dedup", in, "--out", out, "--method", "minhash", "--drop-duplicates"); code != 0 {
		t.Fatal("drop-duplicates failed")
	}
	if n := len(readJSONL(t, out)); n != 3 {
		t.Errorf("--drop-duplicates kept %d records, want 3", n)
	}
	if _, code := run(t, "dedup", in, "--out", out, "--k", "6"); code != 2 {
		t.Error("--k with MinHash (the default) was accepted")
	}
	if _, code := run(t, "dedup", in, "--out", out, "--method", "lsh"); code != 2 {
		t.Errorf("bad method: exit code %d, want 2", code)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []map[string]any
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
