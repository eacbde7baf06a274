package peers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the committed outputs in the main module's "+OutSubdir)

func TestMain(m *testing.M) {
	if code, ran := InUTC(); ran {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// requireDirs returns the data and output folders. Missing data skips the
// test on a user's machine and fails it when CI=true, as the main module's
// shareddata.Require does.
func requireDirs(t *testing.T) (data, out string) {
	t.Helper()
	data, err := DataDir()
	if err == nil {
		out, err = OutDir()
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v (CI=true: missing data is a failure)", err)
		}
		t.Skip(err)
	}
	return data, out
}

// TestOutputsCommitted re-runs every peer on every set and compares the
// result byte for byte with the committed file (-update rewrites them).
func TestOutputsCommitted(t *testing.T) {
	data, out := requireDirs(t)
	for _, s := range Sets {
		pages, err := ReadPages(data, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range Tools {
			t.Run(s.Name+"/"+tool.Name, func(t *testing.T) {
				recs, panics := Run(tool, pages, runtime.NumCPU())
				if panics > 0 {
					t.Logf("%d pages panicked (empty records)", panics)
				}
				got := Encode(recs)
				path := filepath.Join(out, FileName(s.Name, tool.Name))
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (regenerate: cd peers && go run ./cmd/peermeta)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from this run: %s (regenerate: cd peers && go run ./cmd/peermeta)", path, firstDiff(got, want))
				}
			})
		}
	}
}

// firstDiff names the first line where two outputs differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return fmt.Sprintf("line %d: got %s, committed %s", i+1, gl, wl)
		}
	}
	return "no line differs"
}

// htmldateCounts scores a committed htmldate-set file by htmldate's
// evaluate_result (tests/evaluation.py): each gold entry adds one count;
// a date equal to the gold is a TP, any other date (including one on the 5
// null-gold entries) an FP, and no date an FN (also on the null-gold
// entries: NaN is not None, so there is never a TN).
func htmldateCounts(t *testing.T, data, path string) (tp, fp, fn int) {
	t.Helper()
	type line struct {
		ID        string  `json:"id"`
		Date      *string `json:"date"`
		Published string  `json:"published"`
	}
	read := func(p string) []line {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var ls []line
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			ls = append(ls, l)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		return ls
	}
	gold := read(filepath.Join(data, "metadata", "htmldate", "meta.jsonl"))
	got := read(path)
	if len(gold) != 1000 || len(got) != len(gold) {
		t.Fatalf("%d gold entries, %d output lines; want 1000 each", len(gold), len(got))
	}
	for i, g := range gold {
		o := got[i]
		switch {
		case o.ID != g.ID:
			t.Fatalf("line %d: id %q, gold %q", i+1, o.ID, g.ID)
		case o.Published == "":
			fn++
		case g.Date != nil && o.Published == *g.Date:
			tp++
		default:
			fp++
		}
	}
	return tp, fp, fn
}

// TestHtmldateScores checks that the committed go-htmldate outputs give
// htmldate's own published figures on its set (docs/evaluation.rst,
// 2026-06-01): extensive TP 903 FP 91 FN 6 (F 0.949), fast TP 861 FP 71
// FN 68 (F 0.925).
func TestHtmldateScores(t *testing.T) {
	data, out := requireDirs(t)
	tests := []struct {
		tool       string
		tp, fp, fn int
	}{
		{"go-htmldate-extensive", 903, 91, 6},
		{"go-htmldate-fast", 861, 71, 68},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			tp, fp, fn := htmldateCounts(t, data, filepath.Join(out, FileName("htmldate", tc.tool)))
			if tp != tc.tp || fp != tc.fp || fn != tc.fn {
				t.Errorf("TP %d FP %d FN %d, want TP %d FP %d FN %d", tp, fp, fn, tc.tp, tc.fp, tc.fn)
			}
		})
	}
}

func TestSplitAuthors(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"Jane Doe", []string{"Jane Doe"}},
		{"Jane Doe; John Roe", []string{"Jane Doe", "John Roe"}},
		{"Jane Doe;  John Roe; ", []string{"Jane Doe", "John Roe"}},
		{"Doe, Jane", []string{"Doe, Jane"}},
		{"Rudolf Haufe; Miron Schneckenberger", []string{"Miron Schneckenberger", "Rudolf Haufe"}}, // sorted
	}
	for _, tc := range tests {
		if got := splitAuthors(tc.in); !slices.Equal(got, tc.want) || got == nil {
			t.Errorf("splitAuthors(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestUnwrap checks that every page of the wrapped set loses its wrapper
// line, and that the line's URL is the one meta.tsv gives the page.
func TestUnwrap(t *testing.T) {
	data, _ := requireDirs(t)
	for _, s := range Sets {
		if !s.Wrapped {
			continue
		}
		pages, err := ReadPages(data, s)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(data, s.Dir, "meta.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
		urlCol := slices.Index(strings.Split(lines[0], "\t"), "url_from_cleaneval_wrapper")
		if urlCol < 0 || len(pages) != len(lines)-1 {
			t.Fatalf("%s: %d pages for %d meta.tsv rows, url column %d", s.Name, len(pages), len(lines)-1, urlCol)
		}
		wrapped := 0
		for i, p := range pages {
			want := strings.Split(lines[i+1], "\t")[urlCol] // "" for the pages that came without a wrapper
			if p.URL != want || bytes.HasPrefix(bytes.TrimSpace(p.HTML), []byte("<text")) {
				t.Errorf("%s %s: URL %q (meta.tsv %q), starts %q", s.Name, p.ID, p.URL, want, p.HTML[:min(len(p.HTML), 40)])
			}
			if want != "" {
				wrapped++
			}
		}
		if wrapped < len(pages)/2 {
			t.Errorf("%s: %d of %d pages had a wrapper", s.Name, wrapped, len(pages))
		}
	}
	if got, _ := unwrap([]byte("<html></html>")); got != "" {
		t.Errorf("unwrap found a wrapper in a page without one: %q", got)
	}
}
