package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/dedup"
)

// TestCandidateKeysPart checks CandidateKeyer against Dedup for both
// methods: the records linked by shared keys (and Candidates), split
// into their components, each given to DedupPart, get exactly the lines
// Dedup writes over the whole input; with SimHash the fingerprint is
// the record's simhash field and every pair within K shares a key.
func TestCandidateKeysPart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var in bytes.Buffer
	for i := range 360 {
		words := make([]string, 60)
		for w := range words {
			words[w] = fmt.Sprintf("w%d", (i/6*7919+w*31)%1999)
		}
		for range rng.IntN(8) * (i % 6) {
			words[rng.IntN(len(words))] = fmt.Sprintf("e%d", rng.IntN(50))
		}
		fmt.Fprintf(&in, `{"url":"https://x.example/%d","text":"%s","score":%d}`+"\n", i, strings.Join(words, " "), rng.IntN(5))
	}
	fmt.Fprintf(&in, "{\"url\":\"https://x.example/empty\",\"text\":\"\"}\n")
	lines := strings.SplitAfter(strings.TrimSuffix(in.String(), "\n"), "\n")
	for _, method := range []dedup.Method{dedup.MethodMinHash, dedup.MethodSimHash} {
		t.Run(method.String(), func(t *testing.T) {
			opts := DefaultDedupOptions()
			opts.Method, opts.K, opts.Workers = method, 6, 1
			// Words and word pairs: these made-up records of one
			// vocabulary come within 6 bits on them, not on 3-word
			// shingles, and the keys need pairs to bring together.
			opts.SimShingles = []int{1, 2}
			var whole bytes.Buffer
			if _, _, err := Dedup(bytes.NewReader(in.Bytes()), "in.jsonl", &whole, opts); err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSuffix(whole.String(), "\n"), "\n")
			keyer, err := NewCandidateKeyer(opts)
			if err != nil {
				t.Fatal(err)
			}
			byKey := map[uint64][]int{}
			fps := make([]uint64, len(lines))
			for i, l := range lines {
				var keys []uint64
				keys, fps[i] = keyer.Keys([]byte(l))
				for _, k := range keys {
					byKey[k] = append(byKey[k], i)
				}
				if method == dedup.MethodSimHash && len(keys) > 0 {
					var r struct{ SimHash string }
					json.Unmarshal([]byte(want[i]), &r)
					if r.SimHash != dedup.FormatFingerprint(fps[i]) {
						t.Fatalf("record %d: fingerprint %016x, Dedup wrote %q", i, fps[i], r.SimHash)
					}
				}
			}
			// Components of the links, by union-find.
			parent := make([]int, len(lines))
			for i := range parent {
				parent[i] = i
			}
			var find func(int) int
			find = func(x int) int {
				if parent[x] != x {
					parent[x] = find(parent[x])
				}
				return parent[x]
			}
			linked := map[[2]int]bool{}
			for _, ids := range byKey {
				for a, i := range ids {
					for _, j := range ids[a+1:] {
						if keyer.Candidates(fps[i], fps[j]) {
							linked[[2]int{i, j}] = true
							parent[find(j)] = find(i)
						}
					}
				}
			}
			if method == dedup.MethodSimHash {
				near := 0
				for i := range lines[:360] {
					for j := i + 1; j < 360; j++ {
						if dedup.Distance(fps[i], fps[j]) > opts.K {
							continue
						}
						near++
						if !linked[[2]int{i, j}] {
							t.Fatalf("records %d and %d are within %d bits and share no key", i, j, opts.K)
						}
					}
				}
				if near < 100 {
					t.Fatalf("%d pairs within %d bits: the input does not exercise the keys", near, opts.K)
				}
			}
			comps := map[int][]int{}
			for i := range lines {
				comps[find(i)] = append(comps[find(i)], i)
			}
			if len(comps) < 30 || len(comps) > len(lines)-30 {
				t.Fatalf("%d components of %d records: the input does not exercise the keys", len(comps), len(lines))
			}
			got := make([]string, len(lines))
			for _, ids := range comps {
				var part, out bytes.Buffer
				for _, i := range ids {
					part.WriteString(lines[i])
				}
				if _, err := DedupPart(&part, "part", ids, &out, opts); err != nil {
					t.Fatal(err)
				}
				outs := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
				for n, i := range ids {
					got[i] = outs[n]
				}
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("record %d:\nDedup:     %s\nDedupPart: %s", i, want[i], got[i])
				}
			}
			if slices.Equal(want, strings.Split(strings.TrimSuffix(in.String(), "\n"), "\n")) {
				t.Fatal("Dedup changed nothing")
			}
		})
	}
}

// TestCandidateKeyerDefaultK: SimHash keys with K unset plan for the
// default distance, as Dedup does, not for 0 bits: beyond MaxKeyedK,
// that is refused, naming the distance.
func TestCandidateKeyerDefaultK(t *testing.T) {
	opts := DefaultDedupOptions()
	opts.Method, opts.K = dedup.MethodSimHash, 0
	def := dedup.Config{}.WithDefaults().K
	_, err := NewCandidateKeyer(opts)
	if def <= MaxKeyedK {
		t.Fatalf("default k=%d within MaxKeyedK: test the keys planned with K unset", def)
	}
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("k=%d", def)) {
		t.Errorf("K unset: %v, want the refusal of k=%d", err, def)
	}
	opts.K = MaxKeyedK
	set, err := NewCandidateKeyer(opts)
	if err != nil {
		t.Fatal(err)
	}
	if set.k != MaxKeyedK || len(set.masks) == 0 {
		t.Errorf("k=%d: k %d with %d tables", MaxKeyedK, set.k, len(set.masks))
	}
}
