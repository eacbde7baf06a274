package winnowbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/klauspost/compress/gzip"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/xpathrules"
)

// The tests run every job in this process on Prism.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// mainRoot is the main module's folder: the beam module's parent.
func mainRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/winnow-go/winnow\n")) {
			return dir
		}
		if dir == filepath.Dir(dir) {
			t.Fatalf("no main module above %s", wd)
		}
	}
}

// runJob runs a job over paths and returns the output folder.
func runJob(t testing.TB, paths []string, set Settings, out string) string {
	out, _ = runJobCounters(t, paths, set, out)
	return out
}

// runJobCounters is runJob that also returns the job's winnow counters.
func runJobCounters(t testing.TB, paths []string, set Settings, out string) (string, map[string]int64) {
	t.Helper()
	if out == "" {
		out = t.TempDir()
	}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, paths, out, set); err != nil {
		t.Fatal(err)
	}
	counters := runCounters(t, p)
	return out, counters
}

// runCounters runs a pipeline on Prism and returns its winnow counters.
func runCounters(t testing.TB, p *beam.Pipeline) map[string]int64 {
	t.Helper()
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	counters := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == "winnow" {
			counters[c.Name()] += c.Result()
		}
	}
	return counters
}

// shardLines reads every shard of an output folder: its lines, sorted.
func shardLines(t testing.TB, out string) []string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(out, "records-*"))
	var lines []string
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		lines = append(lines, splitLines(b)...)
	}
	slices.Sort(lines)
	return lines
}

func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// reference is winnow run (--dedup when set.Dedup is set) on paths, with
// the options the settings stand for: its lines, sorted.
func reference(t testing.TB, paths []string, set Settings) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.jsonl")
	opts, err := set.options()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.RunFile(context.Background(), paths, out, opts, pipeline.FileOptions{Dedup: set.Dedup}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(b)
	slices.Sort(lines)
	return lines
}

// sameRecords fails unless the job's records are winnow run's, byte for
// byte, naming the first URL that differs.
func sameRecords(t testing.TB, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	t.Errorf("%d records, winnow run wrote %d", len(got), len(want))
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			var r struct{ URL string }
			json.Unmarshal([]byte(want[i]), &r)
			t.Fatalf("first difference at %s:\nrun:  %.600s\nbeam: %.600s", r.URL, want[i], got[i])
		}
	}
}

func withDedup(set Settings) Settings {
	d := pipeline.DefaultDedupOptions()
	set.Dedup = &d
	return set
}

// withSimHash is withDedup with --method simhash --k k.
func withSimHash(set Settings, k int) Settings {
	set = withDedup(set)
	set.Dedup.Method, set.Dedup.K = dedup.MethodSimHash, k
	return set
}

// sharedWARCs are every WARC file of the shared data, in name order.
func sharedWARCs(t testing.TB) []string {
	data := shareddata.Require(t)
	var paths []string
	filepath.WalkDir(filepath.Join(data, "warc"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".warc") || strings.HasSuffix(p, ".warc.gz")) {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Fatalf("no WARC files under %s/warc", data)
	}
	return paths
}

func TestSharedWARCs(t *testing.T) {
	paths := sharedWARCs(t)
	for _, tc := range []struct {
		name string
		set  Settings
	}{
		{"run", Settings{Shards: 3}},
		{"dedup", withDedup(Settings{Shards: 3})},
		{"dedup-gzip", withDedup(Settings{Shards: 2, Gzip: true})},
		{"single-page", Settings{Shards: 2, SinglePage: true}},
		{"dedup-simhash", withSimHash(Settings{Shards: 3}, 3)},
		{"dedup-simhash-k6", withSimHash(Settings{Shards: 3}, 6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameRecords(t, reference(t, paths, tc.set), shardLines(t, runJob(t, paths, tc.set, "")))
		})
	}
}

var genwarcOnce sync.Once
var genwarcBin string

// generate writes pages synthetic pages over files WARC files with
// internal/tools/genwarc (every site in every file) and returns them.
func generate(t testing.TB, pages, files int) []string {
	t.Helper()
	shareddata.Require(t)
	root := mainRoot(t)
	genwarcOnce.Do(func() {
		bin := filepath.Join(os.TempDir(), "winnowbeam-test-genwarc")
		cmd := exec.Command("go", "build", "-o", bin, "./internal/tools/genwarc")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building genwarc: %v\n%s", err, out)
		}
		genwarcBin = bin
	})
	dir := t.TempDir()
	cmd := exec.Command(genwarcBin, "-pages", strconv.Itoa(pages), "-files", strconv.Itoa(files), "-dir", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("genwarc: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.txt"))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := ReadManifest(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestGenerated is the CI check on pages of sites spread over many
// files: 5,000 pages in 10 WARC files give winnow run --dedup's records
// (the same templates and clusters).
//
// The files are named relative to their folder, the working directory:
// a record's source is its path as written, so with absolute paths the
// records (and the bytes shuffled that the test logs) would depend on
// the length of the temporary folder's name, which varies from run to
// run (TempDir's random part).
func TestGenerated(t *testing.T) {
	paths := generate(t, 5000, 10)
	t.Chdir(filepath.Dir(paths[0]))
	for i, p := range paths {
		paths[i] = filepath.Base(p)
	}
	set := withDedup(Settings{Shards: 4})
	want := reference(t, paths, set)
	out, counters := runJobCounters(t, paths, set, "")
	got := shardLines(t, out)
	sameRecords(t, want, got)
	for _, l := range got {
		var r struct{ Source string }
		json.Unmarshal([]byte(l), &r)
		if file, _, ok := strings.Cut(r.Source, "@"); !ok || !slices.Contains(paths, file) {
			t.Fatalf("source %q: want a manifest path as written (%s ...) and an offset", r.Source, paths[0])
		}
	}
	for _, stage := range []string{stageTemplates, stageDedup, stageRecords} {
		t.Logf("shuffle %s: %.1f bytes a page", stage, float64(counters["shuffle."+stage+".bytes"])/float64(len(got)))
	}
	t.Logf("components: %d rounds, %d residual links, %d records named by a final star",
		counters["components.rounds"], counters["components.residual"], counters["components.final"])
	if counters["components.rounds"] != int64(componentRounds(len(paths))) || counters["components.final"] == 0 {
		t.Errorf("counters %v: want components.rounds %d and components.final above 0", counters, componentRounds(len(paths)))
	}
	groups, clusters := map[string]bool{}, map[string]bool{}
	for _, l := range got {
		var r struct{ Group, Cluster string }
		json.Unmarshal([]byte(l), &r)
		groups[r.Group], clusters[r.Cluster] = true, true
	}
	if len(groups) < 2 || len(clusters) < 2 || len(clusters) == len(got) {
		t.Errorf("%d groups and %d clusters over %d records: the input does not exercise templates and near-duplicates", len(groups), len(clusters), len(got))
	}
}

// TestIdempotent runs a job twice into one folder: the same shards, the
// same bytes, and nothing else left there.
func TestIdempotent(t *testing.T) {
	paths := sharedWARCs(t)
	set := withDedup(Settings{Shards: 3})
	out := runJob(t, paths, set, "")
	first := readAll(t, out)
	runJob(t, paths, set, out)
	second := readAll(t, out)
	if len(first) != 3 || len(second) != 3 {
		t.Fatalf("files %v then %v, want the 3 shards", keys(first), keys(second))
	}
	for name, b := range first {
		if !bytes.Equal(b, second[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

func readAll(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func keys(m map[string][]byte) []string { return slices.Sorted(maps.Keys(m)) }

// TestBadFiles: a WARC cut mid-way gives the records before the cut and
// an error record, as winnow run does; a file that cannot be read at
// all gives an error record (winnow run refuses to start); the job
// succeeds.
func TestBadFiles(t *testing.T) {
	paths := sharedWARCs(t)
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut"+ext(paths[0]))
	os.WriteFile(cut, b[:len(b)*2/3], 0o644)
	set := Settings{Shards: 2}
	want := reference(t, []string{cut}, set)
	sameRecords(t, want, shardLines(t, runJob(t, []string{cut}, set, "")))
	if !strings.Contains(strings.Join(want, "\n"), `"status":"error"`) {
		t.Errorf("the cut file gave no error record")
	}

	missing := filepath.Join(dir, "missing.warc.gz")
	got := shardLines(t, runJob(t, []string{cut, missing}, set, ""))
	n := 0
	for _, l := range got {
		var r struct{ Source, Status, Error string }
		json.Unmarshal([]byte(l), &r)
		if r.Source == missing {
			n++
			if r.Status != pipeline.StatusError || !strings.Contains(r.Error, "missing.warc.gz") {
				t.Errorf("record of the missing file: %s", l)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d records name the missing file, want 1", n)
	}
}

func ext(p string) string {
	if strings.HasSuffix(p, ".warc.gz") {
		return ".warc.gz"
	}
	return ".warc"
}

// TestPageSets runs the shared page sets written as WARC files
// (genwarc -from, 4 files a set), one job per set: about a minute on two
// cores, skipped with -short.
func TestPageSets(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the page sets take a minute")
	}
	data := shareddata.Require(t)
	generate(t, 1, 1) // builds genwarc
	sets := map[string][]string{}
	for _, set := range []string{"cleaneval-zh", "daniel-ru", "daniel-zh", "scrapinghub", "trafilatura", "wcxb-dev-even"} {
		sets[set] = []string{filepath.Join(data, "extract", set, "html")}
	}
	cpe, _ := filepath.Glob(filepath.Join(data, "sites", "cleanportaleval", "*", "input"))
	sets["cleanportaleval"] = cpe
	sets["swde-book"] = []string{filepath.Join(data, "sites", "swde-book", "booksamillion"), filepath.Join(data, "sites", "swde-book", "christianbook")}
	for _, name := range slices.Sorted(maps.Keys(sets)) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(genwarcBin, "-from", strings.Join(sets[name], ","), "-files", "4", "-dir", dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("genwarc: %v\n%s", err, out)
			}
			b, _ := os.ReadFile(filepath.Join(dir, "manifest.txt"))
			paths, _ := ReadManifest(bytes.NewReader(b))
			set := withDedup(Settings{Shards: 4})
			sameRecords(t, reference(t, paths, set), shardLines(t, runJob(t, paths, set, "")))
		})
	}
}

// TestRules: per-site rules (a YAML file and a FiveFilters config, as
// winnow run --rules reads a folder) give winnow run's records, with
// templates, on their own and with near-duplicates.
func TestRules(t *testing.T) {
	paths := sharedWARCs(t)
	files, err := xpathrules.ReadFiles(filepath.Join("testdata", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		set  Settings
	}{
		{"run", Settings{Shards: 2, Rules: files}},
		{"single-page", Settings{Shards: 2, Rules: files, SinglePage: true}},
		{"dedup", withDedup(Settings{Shards: 2, Rules: files})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := reference(t, paths, tc.set)
			sameRecords(t, want, shardLines(t, runJob(t, paths, tc.set, "")))
			rules := map[string]int{}
			for _, l := range want {
				var r struct{ Rule, RuleStatus string }
				json.Unmarshal([]byte(l), &r)
				if r.Rule != "" {
					rules[r.Rule+" "+r.RuleStatus]++
				}
			}
			if len(rules) < 2 {
				t.Errorf("rule outcomes %v: the rules do not exercise the shared WARCs", rules)
			}
		})
	}
}

// TestTemplatesDir: with --templates DIR the job saves the templates
// winnow run saves (same names, same bytes) and gives its records, both
// into an empty folder and from one saved before, whose templates
// (learned from fewer samples) then stand.
func TestTemplatesDir(t *testing.T) {
	paths := sharedWARCs(t)
	runDir, beamDir := t.TempDir(), t.TempDir()
	few := Settings{Shards: 2, SamplesPerGroup: 3}
	runSet, beamSet := few, few
	runSet.TemplatesDir, beamSet.TemplatesDir = runDir, beamDir
	sameRecords(t, reference(t, paths, runSet), shardLines(t, runJob(t, paths, beamSet, "")))
	saved := readAll(t, runDir)
	if len(saved) == 0 {
		t.Fatal("winnow run saved no templates")
	}
	if got := readAll(t, beamDir); !maps.EqualFunc(saved, got, bytes.Equal) {
		t.Fatalf("the job saved %v, winnow run %v", keys(got), keys(saved))
	}
	// Again with the default samples: the saved templates are loaded.
	runSet.SamplesPerGroup, beamSet.SamplesPerGroup = 0, 0
	want := reference(t, paths, runSet)
	sameRecords(t, want, shardLines(t, runJob(t, paths, beamSet, "")))
	if slices.Equal(want, reference(t, paths, Settings{})) {
		t.Error("the saved templates made no difference: the test does not show they were loaded")
	}
}

// TestMemfs reads the manifest and the shared WARCs through Beam's
// filesystem registry (memfs://, as gs:// and s3:// would be), keeps the
// templates and writes the shards there too: the records are those of
// the same files read locally, but for the path each names in its source.
func TestMemfs(t *testing.T) {
	paths := sharedWARCs(t)
	ctx := context.Background()
	root := fmt.Sprintf("memfs://winnowbeam-%d/", os.Getpid())
	var mem []string
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%swarc/%02d-%s", root, i, filepath.Base(p))
		memfs.Write(name, b)
		mem = append(mem, name)
	}
	memfs.Write(root+"manifest.txt", []byte("# the shared WARCs\n"+strings.Join(mem, "\n")+"\n"))
	got, err := ReadManifestFile(ctx, root+"manifest.txt")
	if err != nil || !slices.Equal(got, mem) {
		t.Fatalf("manifest read back as %q, %v", got, err)
	}
	set := withDedup(Settings{Shards: 3, Gzip: true})
	local := runJob(t, paths, set, "")
	set.TemplatesDir = root + "templates"
	out := root + "out"
	runJob(t, mem, set, out)
	fs, err := filesystem.New(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	dir := t.TempDir()
	shards, err := fs.List(ctx, out+"/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range shards {
		b, err := filesystem.Read(ctx, fs, name)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644)
	}
	templates, err := fs.List(ctx, set.TemplatesDir+"/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(shards) != 3 || len(templates) == 0 {
		t.Fatalf("memfs holds the files %q (want 3 shards) and templates %q", shards, templates)
	}
	want := shardLines(t, local)
	for i := range want {
		for j, p := range paths {
			want[i] = strings.Replace(want[i], `"source":"`+p+`@`, `"source":"`+mem[j]+`@`, 1)
		}
	}
	slices.Sort(want)
	sameRecords(t, want, shardLines(t, dir))
}

// TestComponentRounds stops the large-star/small-star rounds early: the
// links left between records named differently are joined on one
// worker, and the records are the same.
func TestComponentRounds(t *testing.T) {
	paths := generate(t, 1500, 3)
	set := withDedup(Settings{Shards: 3})
	want := reference(t, paths, set)
	for _, rounds := range []int{1, 2} {
		t.Run(strconv.Itoa(rounds), func(t *testing.T) {
			set.ComponentRounds = rounds
			out, counters := runJobCounters(t, paths, set, "")
			sameRecords(t, want, shardLines(t, out))
			t.Logf("%d rounds: %d residual links", counters["components.rounds"], counters["components.residual"])
			if counters["components.rounds"] != int64(rounds) {
				t.Errorf("counters %v: want components.rounds %d", counters, rounds)
			}
		})
	}
}

// TestRevisitsAcrossFiles: revisits resolve within one WARC file, in
// winnow run as in the job. pywb's example.warc cut before its revisit
// gives two files, the revisit in the second and its payload in the
// first: the revisit is skipped in both, and the records are the same.
func TestRevisitsAcrossFiles(t *testing.T) {
	whole := filepath.Join(shareddata.Require(t), "warc", "pywb", "example.warc")
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.Index(b, []byte("WARC/1.0\r\nWARC-Type: revisit\r\n"))
	if cut < 0 {
		t.Fatalf("%s has no revisit record", whole)
	}
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "a.warc"), filepath.Join(dir, "b.warc")}
	os.WriteFile(paths[0], b[:cut], 0o644)
	os.WriteFile(paths[1], b[cut:], 0o644)
	// The status of the record at source (path@offset).
	revisit := func(lines []string, source string) (status string) {
		for _, l := range lines {
			var r struct{ Source, Status string }
			json.Unmarshal([]byte(l), &r)
			if r.Source == source {
				return r.Status
			}
		}
		return "missing"
	}
	// In one file the revisit is a page like any other.
	if st := revisit(reference(t, []string{whole}, Settings{}), whole+"@"+strconv.Itoa(cut)); st != pipeline.StatusOK {
		t.Fatalf("the revisit in the whole file: status %s, want %s", st, pipeline.StatusOK)
	}
	set := withDedup(Settings{Shards: 2})
	want := reference(t, paths, set)
	got := shardLines(t, runJob(t, paths, set, ""))
	sameRecords(t, want, got)
	if st := revisit(got, paths[1]+"@0"); st != pipeline.StatusSkipped {
		t.Errorf("the revisit of a payload in another file: status %s, want %s", st, pipeline.StatusSkipped)
	}
}
