package dedup

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

// checkCrowded checks a MinHash store's crowd marks: every document of a
// crowded bucket is marked. It returns the number of crowd marks.
func checkCrowded(t *testing.T, st *Store) int {
	t.Helper()
	var keys [][]byte
	if err := scanKeys(st.db, []byte("k"), func(k []byte, _ uint64) { keys = append(keys, append([]byte(nil), k...)) }); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		band := append([]byte{'b'}, k[1:]...)
		if err := scanKeys(st.db, band, func(_ []byte, id uint64) {
			if ok, err := hasKey(st.db, farKey(id)); err != nil || !ok {
				t.Errorf("document %d of crowded bucket %x is not marked (%v)", id, band, err)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	return len(keys)
}

// storeVersionOf reads a store's key layout version.
func storeVersionOf(t *testing.T, st *Store) int {
	t.Helper()
	v, err := dbValue(st.db, []byte("m"))
	if err != nil {
		t.Fatal(err)
	}
	var m storeMeta
	if err := json.Unmarshal(v, &m); err != nil {
		t.Fatal(err)
	}
	return m.Version
}

// writeReads is what a MinHash store's writes have read so far.
func writeReads(st *Store) int { return st.kind.(*minKind).writeReads }

// crowdEntries are a family of n identical pages, with a near copy
// (one word changed) every 100th, and 20 other texts with a near copy
// each.
func crowdEntries(t *testing.T, n int) (family, others []Entry) {
	texts := goldTexts(t, 40, "wcxb-dev-even")
	if len(texts) < 30 {
		t.Fatalf("only %d texts", len(texts))
	}
	return familyEntries(texts, "c.example", n, 100, 20)
}

// familyEntries are a family of n copies of texts[0] under host, with a
// near copy (one word changed) every every-th, and the next others
// texts, each with a near copy.
func familyEntries(texts []string, host string, n, every, others int) (family, rest []Entry) {
	for i := range n {
		family = append(family, Entry{URL: fmt.Sprintf("https://%s/%d", host, i), Text: texts[0]})
		if i%every == 0 {
			family = append(family, Entry{URL: fmt.Sprintf("https://%s/%d/a", host, i), Text: changeWordAt(texts[0], 2)})
		}
	}
	for i, text := range texts[1 : 1+others] {
		rest = append(rest, Entry{URL: fmt.Sprintf("https://o.example/%d", i), Text: text},
			Entry{URL: fmt.Sprintf("https://o.example/%d/a", i), Text: changeWordAt(text, 3)})
	}
	return family, rest
}

// crowdSample says whether a URL of crowdEntries is checked: those
// outside the family, and every 1000th member and its near copy.
func crowdSample(url string) bool {
	var i int
	_, err := fmt.Sscanf(url, "https://c.example/%d", &i)
	return err != nil || i%1000 == 0
}

// checkCrowdedStore checks the neighbour keys and crowd marks of a
// store, and that the query of each held URL of sample finds what the
// bands find (a sample: the band query of a family member reads the
// whole family).
func checkCrowdedStore(t *testing.T, st *Store, held map[string]string, sample func(url string) bool, phase string) {
	t.Helper()
	checkNearKeys(t, st)
	if checkCrowded(t, st) == 0 {
		t.Errorf("%s: no crowded bucket", phase)
	}
	some := map[string]string{}
	for url, text := range held {
		if sample(url) {
			some[url] = text
		}
	}
	if h := heldAgreesWithBands(t, st, some); h < 40 {
		t.Errorf("%s: only %d of %d held queries answered as held", phase, h, len(some))
	}
}

// TestStoreMinHashCrowded: a family of 3,000 identical pages, added in
// one batch and in batches of 250, costs each add a bounded number of
// reads, whatever the size of the family (without crowded buckets an add
// read every copy before it: 18 band keys, its record and its mark, 60
// million reads for the family); so do replacing its members with the
// same text (a recrawl) and deleting them. The neighbour keys, the crowd
// marks and the held queries stay exact throughout, and after a reopen.
func TestStoreMinHashCrowded(t *testing.T) {
	const n = 3000
	family, others := crowdEntries(t, n)
	sample := crowdSample
	bands := ChooseBands(0.8, storeNumPerm, 0.01, 0.99).B
	for _, size := range []int{len(family), 250} {
		phase := fmt.Sprintf("batches of %d", size)
		dir := filepath.Join(t.TempDir(), "idx")
		st, err := OpenStore(dir, &StoreOptions{Method: MethodMinHash})
		if err != nil {
			t.Fatal(err)
		}
		held := map[string]string{}
		add := func(batch []Entry) int {
			t.Helper()
			r := writeReads(st)
			if _, err := st.AddBatch(batch); err != nil {
				t.Fatal(err)
			}
			for _, e := range batch {
				held[e.URL] = e.Text
			}
			return writeReads(st) - r
		}
		add(others[:20])
		total, last, lastN := 0, 0, 0
		for lo := 0; lo < len(family); lo += size {
			batch := family[lo:min(lo+size, len(family))]
			last, lastN = add(batch), len(batch)
			total += last
		}
		add(others[20:])
		t.Logf("%s: the family's adds read %d keys, the last batch %d for %d documents", phase, total, last, lastN)
		// Until its buckets are crowded a family's adds read each other:
		// at most bands·crowdSize² in all; after, a few reads an add.
		if bound := bands*crowdSize*crowdSize + 64*len(family); total > bound {
			t.Errorf("%s: adding the family read %d keys, more than %d", phase, total, bound)
		}
		if size < len(family) && last > 64*lastN {
			t.Errorf("%s: the last batch read %d keys for %d documents", phase, last, lastN)
		}
		checkCrowdedStore(t, st, held, sample, phase)

		// A recrawl: every fifth member again, the same text, in one batch.
		var again []Entry
		for i := 0; i < len(family); i += 5 {
			again = append(again, family[i])
		}
		if r := add(again); r > 64*len(again) {
			t.Errorf("%s: replacing %d members read %d keys", phase, len(again), r)
		}
		// Some replaced with another text (a family of their own), some
		// deleted one by one.
		var changed []Entry
		for i := 1; i < len(family); i += 10 {
			changed = append(changed, Entry{URL: family[i].URL, Text: changeWordAt(family[i].Text, 5)})
		}
		add(changed)
		r := writeReads(st)
		deleted := 0
		for i := 2; i < len(family); i += 7 {
			if ok, err := st.Delete(family[i].URL); err != nil {
				t.Fatal(err)
			} else if ok {
				delete(held, family[i].URL)
				deleted++
			}
		}
		if r = writeReads(st) - r; r > 64*deleted {
			t.Errorf("%s: %d deletes read %d keys", phase, deleted, r)
		}
		checkCrowdedStore(t, st, held, sample, phase+", replaced and deleted")
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if st, err = OpenStore(dir, nil); err != nil {
			t.Fatal(err)
		}
		if v := storeVersionOf(t, st); v != StoreVersion {
			t.Errorf("%s: version %d", phase, v)
		}
		checkCrowdedStore(t, st, held, sample, phase+", reopened")
		st.Close()
	}
}

// TestStoreMinHashCrowdedAgain: a crowded bucket whose documents are
// all deleted keeps its mark, and copies added to it again are marked:
// their held queries, and those of the documents around them, still find
// what the bands find.
func TestStoreMinHashCrowdedAgain(t *testing.T) {
	family, others := crowdEntries(t, crowdSize+10)
	st, err := OpenStore(filepath.Join(t.TempDir(), "idx"), &StoreOptions{Method: MethodMinHash})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.AddBatch(append(others, family...)); err != nil {
		t.Fatal(err)
	}
	marks := checkCrowded(t, st)
	if marks == 0 {
		t.Fatal("no crowded bucket")
	}
	for _, e := range family {
		if _, err := st.Delete(e.URL); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.AddBatch(family[:5]); err != nil {
		t.Fatal(err)
	}
	if n := checkCrowded(t, st); n != marks {
		t.Errorf("%d crowd marks, %d before", n, marks)
	}
	checkNearKeys(t, st)
	held := map[string]string{}
	for _, e := range append(others, family[:5]...) {
		held[e.URL] = e.Text
	}
	if h := heldAgreesWithBands(t, st, held); h != len(others) {
		t.Errorf("%d of %d held queries answered as held, want %d", h, len(held), len(others))
	}
}

// TestStoreMinHashCrowdedLegacy: a store of key layout version 5 written
// before crowded buckets (a family of 600 copies in buckets without a
// mark) answers the same queries after the first write of the new code,
// which crowds its buckets (once), raises it to version 6 and keeps
// every invariant; later writes to the family are bounded.
func TestStoreMinHashCrowdedLegacy(t *testing.T) {
	family, others := crowdEntries(t, 600)
	dir := storeOfVersion(t, MethodMinHash, 5)
	old := crowdSize
	crowdSize = 1 << 30 // never crowded: the code of version 5
	st, err := OpenStore(dir, nil)
	if err != nil {
		crowdSize = old
		t.Fatal(err)
	}
	_, err = st.AddBatch(others)
	for lo := 0; lo < len(family) && err == nil; lo += 100 {
		_, err = st.AddBatch(family[lo:min(lo+100, len(family))])
	}
	crowdSize = old
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]string{}
	for _, e := range append(others, family...) {
		held[e.URL] = e.Text
	}
	if n := checkCrowded(t, st); n != 0 || storeVersionOf(t, st) != 5 {
		t.Fatalf("version 5 store: %d crowd marks, version %d", n, storeVersionOf(t, st))
	}
	checkNearKeys(t, st)
	queries := []Entry{others[0], others[1], family[0], family[1], {Text: family[7].Text}, {Text: others[4].Text}}
	before := make([][]Match, len(queries))
	for i, q := range queries {
		before[i], _ = storeMatches(t, st, q)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	if st, err = OpenStore(dir, nil); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, q := range queries {
		if got, _ := storeMatches(t, st, q); !reflect.DeepEqual(got, before[i]) {
			t.Errorf("query %d before any write: found %+v, want %+v", i, got, before[i])
		}
	}
	// The first write to the family crowds its buckets.
	if _, err := st.Delete(family[3].URL); err != nil {
		t.Fatal(err)
	}
	delete(held, family[3].URL)
	if v := storeVersionOf(t, st); v != 6 {
		t.Errorf("version %d after the first crowd mark", v)
	}
	for i, q := range queries {
		want := slicesDeleteURL(before[i], family[3].URL)
		if got, _ := storeMatches(t, st, q); !reflect.DeepEqual(got, want) {
			t.Errorf("query %d after a delete: found %+v, want %+v", i, got, want)
		}
	}
	r := writeReads(st)
	e := Entry{URL: family[3].URL + "/again", Text: family[3].Text}
	if _, err := st.AddBatch([]Entry{e, family[4], family[5]}); err != nil {
		t.Fatal(err)
	}
	held[e.URL] = e.Text
	if r = writeReads(st) - r; r > 3*64 {
		t.Errorf("an add and two replacements read %d keys", r)
	}
	checkCrowdedStore(t, st, held, crowdSample, "legacy")
}

// slicesDeleteURL is ms without the match of url.
func slicesDeleteURL(ms []Match, url string) []Match {
	var out []Match
	for _, m := range ms {
		if m.URL != url {
			out = append(out, m)
		}
	}
	return out
}
