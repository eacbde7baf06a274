package dedup

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// TestMain lets TestStoreSIGKILL run a writer in a child process: with
// WINNOW_STORE_CHILD=DIR the test binary adds documents to the store in
// DIR, printing each id once Add has returned, until it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("WINNOW_STORE_CHILD"); dir != "" {
		st, err := OpenStore(dir, 3)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		w := bufio.NewWriter(os.Stdout)
		for i := 0; ; i++ {
			batch := []StoredDoc{{URL: fmt.Sprintf("https://k.example/%d", i), Fingerprint: killFP(i)}}
			if i%10 == 0 { // some batches of several documents
				for j := 1; j < 5; j++ {
					batch = append(batch, StoredDoc{URL: fmt.Sprintf("https://k.example/%d/%d", i, j), Fingerprint: killFP(i*10 + j)})
				}
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

// TestStoreSIGKILL kills a writing process with SIGKILL at several moments
// and reopens the store each time: every document reported as added is
// there and found by a query, and the store is consistent (each document
// has its URL key and its table keys; each table key and URL key has its
// document).
func TestStoreSIGKILL(t *testing.T) {
	dir := t.TempDir()
	reported := -1
	for round, after := range []int{50, 300, 700} {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), "WINNOW_STORE_CHILD="+dir)
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
		st, err := OpenStore(dir, 3)
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		// The child restarts its numbering each round and replaces the
		// same URLs, so every i <= reported must be present.
		for i := 0; i <= last; i++ {
			want := fmt.Sprintf("https://k.example/%d", i)
			found := false
			if err := st.Query(killFP(i), func(d StoredDoc, dist int) {
				if d.URL == want && dist == 0 {
					found = true
				}
			}); err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Fatalf("round %d: document %d, reported added, is missing", round, i)
			}
		}
		checkStoreConsistent(t, st)
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
			docs[id] = StoredDoc{ID: id, Fingerprint: binary.BigEndian.Uint64(v), URL: string(v[8:])}
		case 'u':
			urls[string(k[1:])] = binary.BigEndian.Uint64(v)
		case 't':
			id := id5(k[10:])
			tables[id]++
			if _, err := st.get(id); err != nil {
				t.Errorf("table key of a missing document %d", id)
			}
		}
	}
	it.Close()
	for id, d := range docs {
		if urls[d.URL] != id {
			t.Errorf("document %d (%s): URL key points at %d", id, d.URL, urls[d.URL])
		}
		if tables[id] != len(st.tables) {
			t.Errorf("document %d has %d table keys, want %d", id, tables[id], len(st.tables))
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
