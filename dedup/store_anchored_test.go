package dedup

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// driftWords replaces every step-th word of a text, the first n of
// them (all for n < 0): about one shingle in step/3 changes, a
// near-duplicate around the threshold for a step of 24 to 34.
func driftWords(text string, step, n int) string {
	w := strings.Fields(text)
	for i := step / 2; i < len(w) && n != 0; i += step {
		w[i] = fmt.Sprintf("drift%d", i)
		n--
	}
	return strings.Join(w, " ")
}

// TestStoreMinHashAnchored: in a MinHash store of key layout version 7
// a query with a word or two changed from a held document, under that
// document's URL, another or none, is answered from the held document's
// neighbour keys and finds what all its bands find, match for match; in
// a store of version 6 the same queries find the same and go through the
// bands. The held documents come in pairs near the threshold (every
// 24th to 33rd word changed), so that the neighbour keys kept within the
// margin below it are used.
func TestStoreMinHashAnchored(t *testing.T) {
	texts := goldTexts(t, 150, "daniel-ru", "wcxb-dev-even")
	if len(texts) < 80 {
		t.Fatalf("only %d texts", len(texts))
	}
	var es []Entry
	toward := map[string]string{} // URL -> its text moved two words towards its drifted copy
	for i, text := range texts[:80] {
		es = append(es, Entry{URL: fmt.Sprintf("https://a.example/%d", i), Text: text})
		if i%2 == 0 {
			toward[es[len(es)-1].URL] = driftWords(text, 24+i%4*3, 2)
			es = append(es, Entry{URL: fmt.Sprintf("https://a.example/%d/d", i), Text: driftWords(text, 24+i%4*3, -1)})
		}
	}
	anchored := map[int]int{}
	queries := 0
	for _, v := range []int{6, 7} {
		st, err := OpenStore(storeOfVersion(t, MethodMinHash, v), nil)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < len(es); lo += 9 {
			if _, err := st.AddBatch(es[lo:min(lo+9, len(es))]); err != nil {
				t.Fatal(err)
			}
		}
		checkNearKeys(t, st)
		k := st.kind.(*minKind)
		below := 0 // neighbour keys under the threshold
		if err := scanKeys(st.db, []byte("v"), func(key []byte, _ uint64) {
			a, b := recordSig(t, st, keyID(key[:nearPrefixLen], 1)), recordSig(t, st, keyID(key, nearPrefixLen))
			if sameCount(a, b) < k.minAgree {
				below++
			}
		}); err != nil {
			t.Fatal(err)
		}
		if (v >= marginVersion) != (below > 0) {
			t.Errorf("version %d: %d neighbour keys under the threshold", v, below)
		}
		queries = 0
		for _, e := range es {
			qs := []string{changeWordAt(e.Text, 3), changeWordAt(changeWordAt(e.Text, 2), 5)}
			if q, ok := toward[e.URL]; ok {
				qs = append(qs, q)
			}
			for _, q := range qs {
				slow := bandMatches(t, st, q)
				for _, url := range []string{e.URL, e.URL + "/other", ""} {
					got, qs := storeMatches(t, st, Entry{URL: url, Text: q})
					if !reflect.DeepEqual(got, slow) {
						t.Fatalf("version %d, %q: found\n%+v\nthe bands found\n%+v", v, url, got, slow)
					}
					queries++
					if qs.Held {
						anchored[v]++
					}
				}
			}
		}
		st.Close()
	}
	t.Logf("answered from a held document: version 6 %d, version 7 %d of %d queries", anchored[6], anchored[7], queries)
	if anchored[7] < queries*85/100 || anchored[7]-anchored[6] < queries/2 {
		t.Errorf("answered from a held document: version 6 %d, version 7 %d of %d queries", anchored[6], anchored[7], queries)
	}
}

// recordSig is the signature of document id of a MinHash store.
func recordSig(t *testing.T, st *Store, id uint64) minSigned {
	t.Helper()
	rec, err := docRecord(st.db, id)
	if err != nil {
		t.Fatal(err)
	}
	sig, _, err := minStored(id, rec)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}
