package dedup

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// The stores under testdata/store-v3 were written by the code of key
// layout version 3 before the store was split into one file per method.
// Each holds the texts of storeFixtureEntries after the same writes
// (storeFixtureWrites); <method>.want lists what querying each text found
// then. Rewrite them with -write-store-fixtures, only on purpose: they
// are what proves that an index written earlier still opens.
var writeStoreFixtures = flag.Bool("write-store-fixtures", false, "rewrite testdata/store-v3 with the current code")

const storeFixtureDir = "testdata/store-v3"

// storeFixtureGold are the gold texts of the shared data that the stores
// keeping no text are built from (the shared data is not copied into the
// repository). The stores that keep their texts are built from the texts
// in testdata/store-v3/texts, written for this test.
var storeFixtureGold = []string{
	"daniel-ru/gold/20120106_www.kapital-rus.ru_9bb641315c0eb883e411d4d2607d462edf915890a8f0e1e17fb9c117.txt",
	"daniel-ru/gold/20120106_www.bbc.co.uk_0cff067af40961c028bfc292ccdcc29a984a6b692389e53b1dc96445.txt",
	"daniel-ru/gold/20120117_omsk-times.ru_7a0a159e051a7d83f83c718ab0e6784197a74ce14c0991fa43327c37.txt",
	"daniel-ru/gold/20120106_www.nr2.ru_413d33998faf4052b4d53db62cd3294a3910c8b24dbf0bea894652b7.txt",
	"daniel-ru/gold/20120117_www.bankfax.ru_4f20a65dd86ac9a4f42b058fc4e24a90d011f3a8814bab4f4cf940ec.txt",
	"daniel-ru/gold/20120106_www.ria.ru_c82a4fd390143702a94960f7d2146a45fe7dd8a32727936439be6d96.txt",
	"wcxb-dev-even/gold/1371.txt",
	"wcxb-dev-even/gold/0551.txt",
	"wcxb-dev-even/gold/0619.txt",
	"wcxb-dev-even/gold/4281.txt",
	"wcxb-dev-even/gold/0706.txt",
	"wcxb-dev-even/gold/0274.txt",
}

// storeFixtures are the stores of testdata/store-v3 with their statistics
// and the similarity with which each held text found itself (0 for the
// deleted document), as the version 3 code reported them.
var storeFixtures = []struct {
	method Method
	stats  StoreStats // without DiskBytes
	self   []float64  // similarity of each held document to its own text, by id
}{
	{MethodSimHash, StoreStats{Documents: 13, Method: "simhash k=3 (unverified: made before SimHash indexes verified their candidates; rebuild it)",
		Layout: "k=3: 4 blocks, 4 tables of 16 leading bits, about 610.4 candidates per query for 10000000 fingerprints, 56 bytes per fingerprint"},
		[]float64{1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
	{MethodMinHash, StoreStats{Documents: 13, Method: "minhash threshold=0.8",
		Layout: "18 bands x 7 rows: missed at s=0.9 8.2e-06, s=0.8 0.014, s=0.7 0.21; compared at s=0.5 0.13, s=0.3 0.0039"},
		[]float64{1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
	{MethodMD5, StoreStats{Documents: 13, Method: "md5"},
		[]float64{1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
	{MethodTFIDF, StoreStats{Documents: 13, Method: "tfidf", StatsDocs: 14, StatsAdded: 1, StatsDeleted: 2},
		[]float64{1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
	{MethodHeavySent, StoreStats{Documents: 13, Method: "heavysent", StatsDocs: 14, StatsAdded: 1, StatsDeleted: 2},
		[]float64{1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
	// The texts are too few for Lex Rand's random term sets to overlap
	// enough: the documents are held without signatures.
	{MethodLexRand, StoreStats{Documents: 13, Method: "lexrand", StatsDocs: 14, StatsAdded: 1, StatsDeleted: 2},
		[]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
}

// storeFixtureTexts are the texts a fixture store of method m is built
// from (the test is skipped when they are in shared data that is missing).
func storeFixtureTexts(t *testing.T, m Method) []string {
	t.Helper()
	var texts []string
	if m.NeedsStats() {
		files, err := filepath.Glob(filepath.Join(storeFixtureDir, "texts", "*.txt"))
		if err != nil || len(files) == 0 {
			t.Fatalf("fixture texts: %v", err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
		return texts
	}
	data := shareddata.Require(t)
	for _, f := range storeFixtureGold {
		b, err := os.ReadFile(filepath.Join(data, "extract", f))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	return texts
}

// storeFixtureEntries are the texts with two near copies: the first text
// with a word changed, and the seventh without its last line.
func storeFixtureEntries(texts []string) []Entry {
	all := append(texts[:len(texts):len(texts)], changeWord(texts[0]), dropLastLine(texts[6]))
	es := make([]Entry, len(all))
	for i, t := range all {
		es[i] = Entry{URL: fmt.Sprintf("https://fixture.example/%02d", i), Text: t}
	}
	return es
}

func changeWord(text string) string {
	w := strings.Fields(text)
	w[len(w)/2] = "changed"
	return strings.Join(w, " ")
}

func dropLastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return strings.Join(lines[:len(lines)-1], "\n")
}

// storeFixtureWrites writes the entries to a new store of method m in dir
// as the fixtures were written: one batch of all of them, a deletion, and
// a batch that replaces a document with a near copy.
func storeFixtureWrites(t *testing.T, dir string, m Method, es []Entry) {
	t.Helper()
	st, err := OpenStore(dir, &StoreOptions{Method: m})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBatch(es); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.Delete(es[3].URL); !ok || err != nil {
		t.Fatalf("delete: %v %v", ok, err)
	}
	if _, err := st.AddBatch([]Entry{{URL: es[5].URL, Text: changeWord(es[5].Text)}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// storeFixtureQueries queries every entry held and lists what was found,
// one line per query, and each held document's similarity to its own text.
func storeFixtureQueries(t *testing.T, st *Store, es []Entry) (string, map[string]float64) {
	t.Helper()
	var b strings.Builder
	self := map[string]float64{}
	for i, e := range es {
		if i == 5 {
			e.Text = changeWord(e.Text)
		}
		fmt.Fprintf(&b, "%s:", e.URL)
		if err := st.Query(Entry{Text: e.Text}, func(m Match) {
			fmt.Fprintf(&b, " %d %s %d %s;", m.ID, m.URL, m.Distance, strconv.FormatFloat(m.Similarity, 'g', -1, 64))
			if m.URL == e.URL {
				self[e.URL] = m.Similarity
			}
		}); err != nil {
			fmt.Fprintf(&b, " %v", err)
		}
		b.WriteByte('\n')
	}
	return b.String(), self
}

// storeDump lists every key and value of a store.
func storeDump(t *testing.T, st *Store) string {
	t.Helper()
	it, err := st.db.NewIter(&pebble.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var b strings.Builder
	for it.First(); it.Valid(); it.Next() {
		fmt.Fprintf(&b, "%x %x\n", it.Key(), it.Value())
	}
	return b.String()
}

// TestStoreFixtures opens each store written by the version 3 code: it
// keeps its settings and statistics, each held text finds itself with the
// same similarity and every query finds what it found then, and a store
// written now from the same texts holds the same keys and values.
func TestStoreFixtures(t *testing.T) {
	if *writeStoreFixtures {
		rewriteStoreFixtures(t)
		return
	}
	if len(storeFixtures) == 0 {
		t.Fatal("no fixtures")
	}
	for _, fx := range storeFixtures {
		t.Run(fx.method.String(), func(t *testing.T) {
			es := storeFixtureEntries(storeFixtureTexts(t, fx.method))
			// Opening a store writes to its folder: work on a copy.
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join(storeFixtureDir, fx.method.String()))); err != nil {
				t.Fatal(err)
			}
			st, err := OpenStore(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if got := st.Options().Method; got != fx.method {
				t.Fatalf("method %v", got)
			}
			s, err := st.Stats()
			if err != nil {
				t.Fatal(err)
			}
			s.DiskBytes = 0
			if s != fx.stats {
				t.Errorf("stats %+v, want %+v", s, fx.stats)
			}
			got, self := storeFixtureQueries(t, st, es)
			want, err := os.ReadFile(filepath.Join(storeFixtureDir, fx.method.String()+".want"))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("queries found\n%s\nwant\n%s", got, want)
			}
			for id, sim := range fx.self {
				if u := es[id].URL; self[u] != sim {
					t.Errorf("%s found itself with similarity %v, want %v", u, self[u], sim)
				}
			}

			fresh := t.TempDir()
			storeFixtureWrites(t, fresh, fx.method, es)
			st2, err := OpenStore(fresh, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st2.Close()
			if fx.method == MethodSimHash || fx.method == MethodMinHash {
				// A SimHash store written now verifies its candidates
				// and keeps a sketch per document
				// (TestStoreSimHashVerifies), and both sign with one
				// permutation hashing (key layout version 4): their
				// bytes differ from the fixture's by design. Each held
				// text still finds itself.
				_, self := storeFixtureQueries(t, st2, es)
				for id, sim := range fx.self {
					if u := es[id].URL; (self[u] == 1) != (sim == 1) {
						t.Errorf("written now, %s found itself with similarity %v, want %v", u, self[u], sim)
					}
				}
				return
			}
			if a, b := storeDump(t, st), storeDump(t, st2); a != b {
				t.Errorf("a store written now differs from the fixture:\n%s\nfixture:\n%s", b, a)
			}
		})
	}
}

// rewriteStoreFixtures writes the fixture stores and their .want files
// and prints the storeFixtures table.
func rewriteStoreFixtures(t *testing.T) {
	var table bytes.Buffer
	// Not SimHash: its fixture is a store of before verification, which
	// the code no longer writes (TestStoreFixtures opens it).
	for _, m := range []Method{MethodMinHash, MethodMD5, MethodTFIDF, MethodHeavySent, MethodLexRand} {
		es := storeFixtureEntries(storeFixtureTexts(t, m))
		dir := filepath.Join(storeFixtureDir, m.String())
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		storeFixtureWrites(t, dir, m, es)
		tmp := t.TempDir()
		if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		st, err := OpenStore(tmp, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := st.Stats()
		if err != nil {
			t.Fatal(err)
		}
		s.DiskBytes = 0
		got, self := storeFixtureQueries(t, st, es)
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+".want", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		var sims []string
		for _, e := range es {
			if sim, ok := self[e.URL]; ok {
				sims = append(sims, strconv.FormatFloat(sim, 'g', -1, 64))
			} else {
				sims = append(sims, "0")
			}
		}
		fmt.Fprintf(&table, "\t{method: %d /* %v */, stats: %#v,\n\t\tself: []float64{%s}},\n", m, m, s, strings.Join(sims, ", "))
	}
	t.Logf("storeFixtures:\n%s", table.String())
}
