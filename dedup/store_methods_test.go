package dedup

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// storeTexts makes n texts of eight sentences from a Zipf vocabulary;
// every third text copies the one before it with one word changed.
func storeTexts(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	zipf := rand.NewZipf(rng, 1.1, 1, 3000)
	var texts []string
	for i := range n {
		if i%3 == 2 {
			w := strings.Fields(texts[i-1])
			w[rng.IntN(len(w))] = fmt.Sprintf("edit%d", i)
			texts = append(texts, strings.Join(w, " "))
			continue
		}
		var b strings.Builder
		for range 8 {
			for j := range 6 + rng.IntN(10) {
				if j > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "w%d", zipf.Uint64())
			}
			b.WriteString(". ")
		}
		texts = append(texts, b.String())
	}
	return texts
}

func textEntries(texts []string, from int) []Entry {
	es := make([]Entry, len(texts))
	for i, t := range texts {
		es[i] = Entry{URL: fmt.Sprintf("https://m.example/%d", from+i), Text: t}
	}
	return es
}

// queryIDs is the set of ids a store query finds.
func queryIDs(t *testing.T, st *Store, text string) []uint64 {
	t.Helper()
	var ids []uint64
	if err := st.Query(Entry{Text: text}, func(m Match) {
		if m.Similarity <= 0 || m.Similarity > 1 {
			t.Errorf("similarity %v", m.Similarity)
		}
		ids = append(ids, m.ID)
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestStoreMinHash: a MinHash store finds, for every text, the documents
// that share an LSH band with it (Near-duplicates I's banding, computed in
// memory) and whose estimated Jaccard similarity reaches the threshold,
// before and after it is reopened.
func TestStoreMinHash(t *testing.T) {
	texts := storeTexts(300, 1)
	dir := t.TempDir()
	opts := &StoreOptions{Method: MethodMinHash, Threshold: 0.7}
	st, err := OpenStore(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBatch(textEntries(texts, 0)); err != nil {
		t.Fatal(err)
	}
	norm := mustNormalizer(t, Options{Shingles: storeMinShingles})
	mh := NewMinHasher(storeNumPerm, storeSeed)
	bands := ChooseBands(0.7, storeNumPerm, 0.01, 0.99)
	if bands != st.Bands() {
		t.Fatalf("bands %v, store %v", bands, st.Bands())
	}
	sigs := make([][]byte, len(texts))
	keys := make([][]uint64, len(texts))
	buckets := make([]map[uint64][]int, bands.B)
	for b := range buckets {
		buckets[b] = map[uint64][]int{}
	}
	for i, text := range texts {
		full := mh.Signature(norm.Features(text))
		small := make([]uint64, len(full))
		sigs[i] = make([]byte, len(full))
		for j, v := range full {
			sigs[i][j], small[j] = byte(v), uint64(byte(v))
		}
		keys[i] = bands.bandKeys(small)
		for b, k := range keys[i] {
			buckets[b][k] = append(buckets[b][k], i)
		}
	}
	check := func(st *Store) {
		t.Helper()
		near := 0
		for i, text := range texts {
			var want []uint64
			for _, j := range bucketCandidates(keys[i], func(b int, k uint64) []int { return buckets[b][k] }) {
				if bbitJaccard(sigs[i], sigs[j]) >= 0.7 {
					want = append(want, uint64(j))
				}
			}
			got := queryIDs(t, st, text)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("text %d: store %v, in memory %v", i, got, want)
			}
			if i%3 == 2 && slices.Contains(got, uint64(i-1)) {
				near++
			}
		}
		if near < 90 {
			t.Errorf("%d of 100 one-word edits found", near)
		}
	}
	check(st)
	st.Close()
	if _, err := OpenStore(dir, &StoreOptions{Method: MethodMinHash, Threshold: 0.9}); err == nil {
		t.Error("reopened with another threshold")
	}
	st, err = OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check(st)
	if ok, err := st.Delete("https://m.example/1"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if slices.Contains(queryIDs(t, st, texts[1]), 1) {
		t.Error("a deleted document was found")
	}
}

// TestStoreSignatures: for each of seed 000's signatures, a store filled
// in one batch freezes the statistics of the whole collection and finds
// for every text exactly the documents that share a signature with it
// under SignCollection; it keeps doing so when reopened.
func TestStoreSignatures(t *testing.T) {
	texts := storeTexts(240, 2)
	norm := mustNormalizer(t, Options{})
	for _, m := range []Method{MethodMD5, MethodTFIDF, MethodLongSent, MethodHeavySent, MethodLexRand} {
		t.Run(m.String(), func(t *testing.T) {
			dir := t.TempDir()
			st, err := OpenStore(dir, &StoreOptions{Method: m})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.AddBatch(textEntries(texts, 0)); err != nil {
				t.Fatal(err)
			}
			sigs := SignCollection(m, texts, norm)
			buckets := map[uint64][]int{}
			for i, ss := range sigs {
				for _, s := range ss {
					buckets[s] = append(buckets[s], i)
				}
			}
			check := func(st *Store) {
				t.Helper()
				pairs := 0
				for i, text := range texts {
					var want []uint64
					for _, j := range bucketCandidates(sigs[i], func(_ int, k uint64) []int { return buckets[k] }) {
						want = append(want, uint64(j))
					}
					got := queryIDs(t, st, text)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("text %d: store %v, in memory %v", i, got, want)
					}
					pairs += len(got)
				}
				if pairs < len(texts)/2 {
					t.Errorf("only %d matches", pairs)
				}
			}
			check(st)
			if docs, _, _ := st.TermStatsState(); m.NeedsStats() && docs != len(texts) {
				t.Errorf("statistics of %d documents, want %d", docs, len(texts))
			}
			st.Close()
			st, err = OpenStore(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			check(st)
			checkSignedStore(t, st)
		})
	}
}

// TestStoreRebuild: the statistics are rebuilt, and the collection
// re-signed, when the changes since they were frozen pass StaleShare of
// the documents they describe; the counters survive a reopen; a partial
// generation left by a crash during a rebuild changes no query and is
// cleared by the next rebuild.
func TestStoreRebuild(t *testing.T) {
	texts := storeTexts(200, 3)
	dir := t.TempDir()
	st, err := OpenStore(dir, &StoreOptions{Method: MethodTFIDF})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddBatch(textEntries(texts[:100], 0)); err != nil {
		t.Fatal(err)
	}
	state := func(wantDocs, wantAdded, wantDeleted int) {
		t.Helper()
		if d, a, del := st.TermStatsState(); d != wantDocs || a != wantAdded || del != wantDeleted {
			t.Fatalf("statistics of %d documents, %d added and %d deleted since; want %d, %d, %d", d, a, del, wantDocs, wantAdded, wantDeleted)
		}
	}
	state(100, 0, 0)
	if _, err := st.AddBatch(textEntries(texts[100:120], 100)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Delete("https://m.example/0"); err != nil {
		t.Fatal(err)
	}
	state(100, 20, 1)
	st.Close()
	if st, err = OpenStore(dir, nil); err != nil {
		t.Fatal(err)
	}
	state(100, 20, 1)
	// A crash in a rebuild leaves keys of the other generation behind.
	before := queryIDs(t, st, texts[50])
	junk := st.db.NewBatch()
	gen := st.kind.(*sigKind).gen
	junk.Set(appendID(sigKey(gen^1, 1), 7), nil, nil)
	junk.Set(genDocKey(gen^1, 7), sigsValue([]uint64{1}), nil)
	if err := junk.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	junk.Close()
	if got := queryIDs(t, st, texts[50]); !reflect.DeepEqual(got, before) {
		t.Errorf("after a partial generation: %v, before %v", got, before)
	}
	if _, err := st.AddBatch(textEntries(texts[120:130], 120)); err != nil {
		t.Fatal(err)
	}
	state(129, 0, 0) // 31 changes > 25% of 100
	if n := checkSignedStore(t, st); n != 0 {
		t.Errorf("%d keys of the other generation after a rebuild", n)
	}
	st.Close()
}

// TestStoreSignaturesConcurrent: queries run while batches are added and
// the statistics are rebuilt (run with -race).
func TestStoreSignaturesConcurrent(t *testing.T) {
	texts := storeTexts(300, 4)
	st, err := OpenStore(t.TempDir(), &StoreOptions{Method: MethodLexRand})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var wg sync.WaitGroup
	wg.Go(func() {
		for lo := 0; lo < len(texts); lo += 20 {
			if _, err := st.AddBatch(textEntries(texts[lo:lo+20], lo)); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Go(func() {
		for i := range 300 {
			if err := st.Query(Entry{Text: texts[i]}, func(Match) {}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	if d, _, _ := st.TermStatsState(); d < 240 {
		t.Errorf("statistics of %d documents after adding 300", d)
	}
	checkSignedStore(t, st)
}

// checkSignedStore checks that every document of a signature store has
// its signatures in the current generation and a lookup key for each, and
// that no key of the current generation points elsewhere. It returns the
// number of keys of the other generation (left by a rebuild that was cut
// short; no query reads them).
func checkSignedStore(t *testing.T, st *Store) int {
	t.Helper()
	docs := map[uint64]string{}
	sigs := map[uint64][]uint64{}
	lookups := map[uint64]int{}
	other := 0
	gen := st.kind.(*sigKind).gen
	it, err := st.db.NewIter(&pebble.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for it.First(); it.Valid(); it.Next() {
		k, v := it.Key(), it.Value()
		switch {
		case k[0] == 'd':
			docs[keyID(k, 1)] = string(v)
		case k[0] == 'g' && k[1] == gen:
			sigs[keyID(k, 2)] = readSigs(v)
		case k[0] == 's' && k[1] == gen:
			lookups[keyID(k, 10)]++
		case k[0] == 'g' || k[0] == 's':
			other++
		}
	}
	it.Close()
	for id, url := range docs {
		if len(sigs[id]) != lookups[id] {
			t.Errorf("document %d (%s): %d signatures, %d lookup keys", id, url, len(sigs[id]), lookups[id])
		}
	}
	for id := range lookups {
		if _, ok := docs[id]; !ok {
			t.Errorf("lookup key of a missing document %d", id)
		}
	}
	return other
}
