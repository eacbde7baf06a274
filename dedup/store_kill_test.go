package dedup

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// TestMain lets TestStoreSIGKILL run a writer in a child process: with
// WINNOW_STORE_CHILD=DIR the test binary adds documents to the store in
// DIR (of the method in WINNOW_STORE_METHOD), printing each number once
// AddBatch has returned, until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("WINNOW_STORE_CHILD"); dir != "" {
		method, err := ParseMethod(os.Getenv("WINNOW_STORE_METHOD"))
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		st, err := OpenStore(dir, &StoreOptions{Method: method})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		w := bufio.NewWriter(os.Stdout)
		for i := 0; ; i++ {
			batch := []Entry{killEntry(fmt.Sprintf("https://k.example/%d", i), i)}
			if i%10 == 0 { // some batches of several documents
				for j := 1; j < 5; j++ {
					batch = append(batch, killEntry(fmt.Sprintf("https://k.example/%d/%d", i, j), 100_000+i*10+j))
				}
			}
			if i%3 == 0 && method == MethodMinHash {
				// A copy, in the batch or the next: near-duplicates kept.
				c := killEntry(fmt.Sprintf("https://k.example/%d/c", i-i%2), i-i%2)
				batch = append(batch, c)
			}
			if method == MethodMinHash {
				// A copy of one page in every batch: a family that
				// outgrows crowdSize, its buckets crowded.
				batch = append(batch, killEntry(fmt.Sprintf("https://k.example/%d/f", i), 1_000_000))
			}
			if _, err := st.AddBatch(batch); err != nil {
				fmt.Fprintln(w, "error", err)
				w.Flush()
				os.Exit(1)
			}
			fmt.Fprintln(w, i)
			w.Flush()
		}
	}
	os.Exit(m.Run())
}

func killFP(i int) uint64 { return mix64(uint64(i) + 1) }

// killEntry is document i of the child: a fingerprint and a text of
// twenty words that no other document shares whole.
func killEntry(url string, i int) Entry {
	var b strings.Builder
	x := uint64(i) + 1
	for range 20 {
		x = mix64(x)
		fmt.Fprintf(&b, "w%d ", x%5000)
	}
	return Entry{URL: url, Text: b.String(), Fingerprint: killFP(i), HasFingerprint: true}
}

// TestStoreSIGKILL kills a writing process with SIGKILL at several moments
// and reopens the store each time: every document reported as added is
// there and found by a query, and the store is consistent (each document
// has its URL key and its lookup keys; each lookup key and URL key has its
// document; a MinHash store's neighbour keys have their reverse, or a
// marked end, and both ends held; every document of a crowded bucket is
// marked: each batch adds a copy of one page). The TF*IDF store rebuilds its statistics as it grows, so
// some kills land in a rebuild.
func TestStoreSIGKILL(t *testing.T) {
	for _, m := range []Method{MethodSimHash, MethodMinHash, MethodTFIDF} {
		t.Run(m.String(), func(t *testing.T) { testStoreSIGKILL(t, m) })
	}
}

func testStoreSIGKILL(t *testing.T, method Method) {
	dir := t.TempDir()
	reported := -1
	for round, after := range []int{50, 300, 700, 1100} {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), "WINNOW_STORE_CHILD="+dir, "WINNOW_STORE_METHOD="+method.String())
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		last := -1
		for sc.Scan() {
			line := sc.Text()
			n, err := strconv.Atoi(line)
			if err != nil {
				t.Fatalf("child: %s", line)
			}
			last = n
			if n >= after {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if last < 0 {
			t.Fatalf("round %d: the child reported nothing", round)
		}
		reported = max(reported, last)
		st, err := OpenStore(dir, nil)
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		// The child restarts its numbering each round and replaces the
		// same URLs, so every i <= last must be present.
		for i := 0; i <= last; i++ {
			want := fmt.Sprintf("https://k.example/%d", i)
			found := false
			if err := st.Query(killEntry("", i), func(m Match) {
				if m.URL == want && (m.Distance == 0 || method != MethodSimHash) {
					found = true
				}
			}); err != nil {
				t.Fatal(err)
			}
			if !found {
				s, _ := st.Stats()
				t.Fatalf("round %d: document %d, reported added, is missing %+v", round, i, s)
			}
		}
		switch method {
		case MethodSimHash:
			checkStoreConsistent(t, st)
		case MethodMinHash:
			if n := checkNearKeys(t, st); n == 0 {
				t.Errorf("round %d: no neighbour keys", round)
			}
			if n := checkCrowded(t, st); n == 0 && reported >= crowdSize {
				t.Errorf("round %d: no crowded bucket", round)
			}
		default:
			other := checkSignedStore(t, st)
			d, a, del := st.TermStatsState()
			t.Logf("round %d: statistics of %d documents, %d added and %d deleted since; %d keys of a rebuild cut short", round, d, a, del, other)
		}
		st.Close()
	}
	t.Logf("up to %d documents reported before the last kill", reported)
}

// checkStoreConsistent walks every key of a store.
func checkStoreConsistent(t *testing.T, st *Store) {
	t.Helper()
	docs := map[uint64]StoredDoc{}
	urls := map[string]uint64{}
	tables := map[uint64]int{}
	it, err := st.db.NewIter(&pebble.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for it.First(); it.Valid(); it.Next() {
		k, v := it.Key(), it.Value()
		switch k[0] {
		case 'd':
			id := binary.BigEndian.Uint64(k[1:])
			d, err := st.kind.doc(id, v)
			if err != nil {
				t.Fatal(err)
			}
			docs[id] = d
		case 'u':
			id, _ := binary.Uvarint(v)
			urls[string(k[1:])] = id
		case 't':
			id := keyID(k, 10)
			tables[id]++
			if _, err := docRecord(st.db, id); err != nil {
				t.Errorf("table key of a missing document %d", id)
			}
		}
	}
	it.Close()
	for id, d := range docs {
		if urls[d.URL] != id {
			t.Errorf("document %d (%s): URL key points at %d", id, d.URL, urls[d.URL])
		}
		if tables[id] != len(st.kind.(*simKind).tables) {
			t.Errorf("document %d has %d table keys, want %d", id, tables[id], len(st.kind.(*simKind).tables))
		}
		if id >= st.next {
			t.Errorf("document %d at or past the next id %d", id, st.next)
		}
	}
	for u, id := range urls {
		if d, ok := docs[id]; !ok || d.URL != u {
			t.Errorf("URL key %s points at %d: %v", u, id, d)
		}
	}
	if len(docs) != len(urls) {
		t.Errorf("%d documents, %d URL keys", len(docs), len(urls))
	}
}
