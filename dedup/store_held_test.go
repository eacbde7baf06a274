package dedup

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// heldFamilies are entries made of gold texts in families: each base
// text, and for every third one a copy with a word changed, one with
// another word changed and an exact copy under another URL.
func heldFamilies(texts []string) []Entry {
	var es []Entry
	for i, t := range texts {
		es = append(es, Entry{URL: fmt.Sprintf("https://h.example/%d", i), Text: t})
		if i%3 == 0 {
			es = append(es,
				Entry{URL: fmt.Sprintf("https://h.example/%d/a", i), Text: changeWordAt(t, 2)},
				Entry{URL: fmt.Sprintf("https://h.example/%d/b", i), Text: changeWordAt(t, 3)},
				Entry{URL: fmt.Sprintf("https://h.example/%d/c", i), Text: t})
		}
	}
	return es
}

// changeWordAt replaces the word at 1/part of the text.
func changeWordAt(text string, part int) string {
	w := strings.Fields(text)
	w[len(w)/part] = "changed"
	return strings.Join(w, " ")
}

// storeMatches lists what a query of e finds, and its statistics.
func storeMatches(t *testing.T, st *Store, e Entry) ([]Match, QueryStats) {
	t.Helper()
	var ms []Match
	qs, err := st.QueryStats(e, func(m Match) { ms = append(ms, m) })
	if err != nil {
		t.Fatalf("query %s: %v", e.URL, err)
	}
	return ms, qs
}

// TestStoreMinHashHeld: a MinHash store (key layout version 5) answers
// the query of a document it holds, unchanged, from the near-duplicates
// kept with it, and finds what the band seeks find (the same query
// without its URL), match for match, after batches that add near copies
// together and apart, replace URLs (with the same text and with another),
// repeat a URL in a batch, delete documents and add them again, and
// after reopening. A held URL queried with another text, and a store of
// version 4, go through the bands.
func TestStoreMinHashHeld(t *testing.T) {
	texts := goldTexts(t, 150, "daniel-ru", "wcxb-dev-even")
	if len(texts) < 120 {
		t.Fatalf("only %d texts", len(texts))
	}
	es := heldFamilies(texts[:120])
	dir := filepath.Join(t.TempDir(), "idx")
	st, err := OpenStore(dir, &StoreOptions{Method: MethodMinHash})
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]string{} // URL -> text
	add := func(batch []Entry) {
		t.Helper()
		if _, err := st.AddBatch(batch); err != nil {
			t.Fatal(err)
		}
		for _, e := range batch {
			held[e.URL] = e.Text
		}
	}
	del := func(url string) {
		t.Helper()
		if ok, err := st.Delete(url); !ok || err != nil {
			t.Fatalf("delete %s: %v %v", url, ok, err)
		}
		delete(held, url)
	}
	half := len(es) / 2
	add(es[:half])
	// The second half in batches of 7, so that families are split
	// between batches, with replacements and a URL twice in one batch.
	for lo := half; lo < len(es); lo += 7 {
		batch := slices7(es, lo)
		r := es[lo-half]
		batch = append(batch, Entry{URL: r.URL, Text: changeWordAt(r.Text, 4)}, Entry{URL: r.URL, Text: r.Text})
		add(batch)
	}
	for i := 0; i < len(es); i += 5 {
		del(es[i].URL)
	}
	add([]Entry{es[0], es[10], {URL: es[20].URL + "/again", Text: es[20].Text}})
	add([]Entry{{URL: es[1].URL, Text: changeWordAt(es[1].Text, 5)}})

	check := func(st *Store) {
		t.Helper()
		if n := checkNearKeys(t, st); n == 0 {
			t.Error("no neighbour keys")
		}
		families := 0
		for url, text := range held {
			fast, qs := storeMatches(t, st, Entry{URL: url, Text: text})
			if !qs.Held {
				t.Fatalf("%s: not answered as held (%+v)", url, qs)
			}
			copied, qs := storeMatches(t, st, Entry{Text: text})
			if !qs.Held {
				t.Fatalf("%s: a query of its text without URL not answered from a held copy (%+v)", url, qs)
			}
			slow := bandMatches(t, st, text)
			if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(copied, slow) {
				t.Fatalf("%s: held query found\n%+v\nwithout URL\n%+v\nthe bands found\n%+v", url, fast, copied, slow)
			}
			if len(slow) > 1 {
				families++
			}
		}
		if families < 50 {
			t.Errorf("only %d held documents have near-duplicates", families)
		}
		// A held URL with a word changed is answered from the held
		// document (key layout version 7), and finds what the bands find.
		e := Entry{URL: es[2].URL, Text: changeWordAt(es[2].Text, 6)}
		got, qs := storeMatches(t, st, e)
		want := bandMatches(t, st, e.Text)
		if !qs.Held || !reflect.DeepEqual(got, want) {
			t.Errorf("changed text: held %v, found %+v, want %+v", qs.Held, got, want)
		}
		// One with another text asks the bands.
		e = Entry{URL: es[2].URL, Text: es[3].Text + " " + es[7].Text}
		got, qs = storeMatches(t, st, e)
		want = bandMatches(t, st, e.Text)
		if qs.Held || !reflect.DeepEqual(got, want) {
			t.Errorf("other text: held %v, found %+v, want %+v", qs.Held, got, want)
		}
	}
	check(st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(st)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	// A store of key layout version 4 keeps no neighbours and is asked
	// through its bands.
	dir4 := storeOfVersion(t, MethodMinHash, 4)
	st4, err := OpenStore(dir4, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st4.Close()
	if _, err := st4.AddBatch(es[:8]); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := scanKeys(st4.db, []byte("v"), func([]byte, uint64) { n++ }); err != nil || n != 0 {
		t.Errorf("a version 4 store wrote %d neighbour keys (%v)", n, err)
	}
	got, qs := storeMatches(t, st4, es[0])
	if qs.Held || len(got) != 4 {
		t.Errorf("version 4: held %v, found %+v", qs.Held, got)
	}
}

// slices7 is es[lo:lo+7], or what is left.
func slices7(es []Entry, lo int) []Entry {
	return append([]Entry(nil), es[lo:min(lo+7, len(es))]...)
}

// TestStoreMinHashHeldConcurrent: queries, of held URLs (through their
// neighbour keys) and of the same texts without URL (through the bands),
// while their near copies are added, replaced and deleted, each read one
// consistent view (a key never points at a document gone) and find whole
// documents only (run with -race).
func TestStoreMinHashHeldConcurrent(t *testing.T) {
	texts := goldTexts(t, 150, "wcxb-dev-even")
	es := heldFamilies(texts[:min(60, len(texts))])
	st, err := OpenStore(filepath.Join(t.TempDir(), "idx"), &StoreOptions{Method: MethodMinHash})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var stop atomic.Bool
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			for _, e := range es {
				// A copy is replaced twice, and another deleted and added
				// again: their keys go and come back.
				batches := [][]Entry{{e}}
				switch {
				case strings.HasSuffix(e.URL, "/a"):
					batches = append(batches, []Entry{{URL: e.URL, Text: changeWordAt(e.Text, 5)}}, []Entry{e})
				case strings.HasSuffix(e.URL, "/b"):
					batches = append(batches, nil, []Entry{e})
				}
				for _, b := range batches {
					if stop.Load() {
						return nil
					}
					var err error
					if b == nil {
						_, err = st.Delete(e.URL)
					} else {
						_, err = st.AddBatch(b)
					}
					if err != nil {
						return err
					}
				}
			}
			return nil
		}()
	}()
	failed := false
	for range 3 {
		for _, e := range es {
			for _, q := range []Entry{e, {Text: e.Text}} {
				if err := st.Query(q, func(m Match) {
					if m.URL == "" || m.Similarity < 0.8 {
						t.Errorf("%s found %+v", e.URL, m)
					}
				}); err != nil && !failed {
					t.Errorf("query %q: %v", q.URL, err)
					failed = true
				}
			}
		}
		if failed {
			break
		}
	}
	stop.Store(failed)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if failed {
		return
	}
	for _, e := range es {
		got, qs := storeMatches(t, st, e)
		want := bandMatches(t, st, e.Text)
		if !qs.Held || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: held %v, found %+v, want %+v", e.URL, qs.Held, got, want)
		}
	}
}

// heldAgreesWithBands checks that the query of every held URL, and of
// its text without URL, finds what the same text finds through all its
// bands, and returns how many were answered as held.
func heldAgreesWithBands(t *testing.T, st *Store, held map[string]string) int {
	t.Helper()
	n := 0
	for url, text := range held {
		fast, qs := storeMatches(t, st, Entry{URL: url, Text: text})
		if qs.Held {
			n++
		}
		copied, _ := storeMatches(t, st, Entry{Text: text})
		slow := bandMatches(t, st, text)
		if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(copied, slow) {
			t.Fatalf("%s: held query (held %v) found\n%+v\nwithout URL\n%+v\nthe bands found\n%+v", url, qs.Held, fast, copied, slow)
		}
	}
	return n
}

// bandMatches is what a query of text finds through all its bands, as a
// store of key layout version 4 would.
func bandMatches(t *testing.T, st *Store, text string) []Match {
	t.Helper()
	var ms []Match
	if _, err := st.queryStats(Entry{Text: text}, QueryStats{bandsOnly: true}, func(m Match) { ms = append(ms, m) }); err != nil {
		t.Fatalf("query: %v", err)
	}
	return ms
}

// nearKeyCounts counts each document's neighbour keys, and checks that
// both ends of every one have a record.
func nearKeyCounts(t *testing.T, st *Store) map[uint64]int {
	t.Helper()
	counts := map[uint64]int{}
	var pairs [][2]uint64
	if err := scanKeys(st.db, []byte("v"), func(k []byte, _ uint64) {
		n := keyID(k, nearPrefixLen)
		id := keyID(k[:nearPrefixLen], 1)
		counts[id]++
		pairs = append(pairs, [2]uint64{id, n})
	}); err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		for _, id := range p {
			if _, err := docRecord(st.db, id); err != nil {
				t.Fatalf("neighbour key %d %d: %v", p[0], p[1], err)
			}
		}
	}
	return counts
}

// TestStoreMinHashHeldFamily: a family of more than 2·maxNear identical
// documents (soft-404s) keeps at most maxNear neighbour keys a document,
// in one batch and across batches, after deletes and replacements, and
// every held URL's query still finds what the bands find; documents
// outside the family are still answered as held.
func TestStoreMinHashHeldFamily(t *testing.T) {
	texts := goldTexts(t, 40, "wcxb-dev-even")
	if len(texts) < 30 {
		t.Fatalf("only %d texts", len(texts))
	}
	const n = 2*maxNear + 10
	family, others := familyEntries(texts, "f.example", n, 40, 29)
	es := append(family, others...)
	check := func(st *Store, held map[string]string, phase string) {
		t.Helper()
		total := 0
		for id, c := range nearKeyCounts(t, st) {
			if c > maxNear {
				t.Fatalf("%s: document %d keeps %d neighbour keys, more than %d", phase, id, c, maxNear)
			}
			total += c
		}
		if bound := maxNear * len(held); total > bound {
			t.Fatalf("%s: %d neighbour keys for %d documents", phase, total, len(held))
		}
		checkNearKeys(t, st)
		if h := heldAgreesWithBands(t, st, held); h < 58 {
			t.Errorf("%s: only %d of %d held queries answered as held", phase, h, len(held))
		}
	}
	for _, size := range []int{len(es), 7} {
		dir := filepath.Join(t.TempDir(), "idx")
		st, err := OpenStore(dir, &StoreOptions{Method: MethodMinHash})
		if err != nil {
			t.Fatal(err)
		}
		held := map[string]string{}
		for lo := 0; lo < len(es); lo += size {
			batch := es[lo:min(lo+size, len(es))]
			if _, err := st.AddBatch(batch); err != nil {
				t.Fatal(err)
			}
			for _, e := range batch {
				held[e.URL] = e.Text
			}
		}
		phase := fmt.Sprintf("batches of %d", size)
		check(st, held, phase)
		// Delete most of the family, and replace some of the rest with
		// another text: a small family again.
		for i := range n {
			url := fmt.Sprintf("https://f.example/%d", i)
			switch {
			case i%4 != 0:
				if ok, err := st.Delete(url); !ok || err != nil {
					t.Fatalf("delete %s: %v %v", url, ok, err)
				}
				delete(held, url)
			case i%8 == 0:
				e := Entry{URL: url, Text: changeWordAt(texts[0], 5)}
				if _, err := st.AddBatch([]Entry{e}); err != nil {
					t.Fatal(err)
				}
				held[url] = e.Text
			}
		}
		check(st, held, phase+", deleted")
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if st, err = OpenStore(dir, nil); err != nil {
			t.Fatal(err)
		}
		check(st, held, phase+", reopened")
		st.Close()
	}
}

// checkNearKeys checks a MinHash store's neighbour keys: both ends of
// each are held, each has its reverse unless its far end is marked, a
// document keeps at most maxNear, and a mark is of a held document. It
// returns the number of neighbour keys.
func checkNearKeys(t *testing.T, st *Store) int {
	t.Helper()
	counts := nearKeyCounts(t, st)
	total := 0
	for id, c := range counts {
		total += c
		if c > maxNear {
			t.Errorf("document %d keeps %d neighbour keys", id, c)
		}
	}
	has := func(key []byte) bool {
		ok, err := hasKey(st.db, key)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if err := scanKeys(st.db, []byte("v"), func(k []byte, _ uint64) {
		id, n := keyID(k[:nearPrefixLen], 1), keyID(k, nearPrefixLen)
		if !has(nearKey(n, id)) && !has(farKey(n)) {
			t.Errorf("neighbour key %d %d: no reverse, and %d not marked", id, n, n)
		}
		if has(farKey(id)) {
			t.Errorf("neighbour key %d %d of a marked document", id, n)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := scanKeys(st.db, []byte("w"), func(k []byte, _ uint64) {
		if id := keyID(k, 1); !has(docKey('d', id)) {
			t.Errorf("mark of a missing document %d", id)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return total
}

// TestStoreVersionPerMethod: only a MinHash store may have key layout
// version 5 or 6; a SimHash or signature store that says so is refused.
func TestStoreVersionPerMethod(t *testing.T) {
	for _, v := range []int{5, 6} {
		for _, m := range []Method{MethodSimHash, MethodMD5, MethodMinHash} {
			st, err := OpenStore(storeOfVersion(t, m, v), nil)
			if ok := err == nil; ok != (m == MethodMinHash) {
				t.Errorf("%v at version %d: %v", m, v, err)
			}
			if err == nil {
				st.Close()
			}
		}
	}
}

// storeOfVersion makes an empty store of method m that says it has key
// layout version v, and returns its folder.
func storeOfVersion(t *testing.T, m Method, v int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "idx")
	st, err := OpenStore(dir, &StoreOptions{Method: m})
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := json.Marshal(storeMeta{Version: v, Method: m.String(), StoreOptions: st.Options()})
	if err := st.db.Set([]byte("m"), meta, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}
