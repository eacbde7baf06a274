package dedup

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func mustNormalizer(t testing.TB, o Options) *Normalizer {
	t.Helper()
	n, err := NewNormalizer(o)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIndexMatchesBruteForce compares table queries with an exhaustive scan
// for every k, on fingerprints that include close variants of each other.
func TestIndexMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var fps []uint64
	for range 400 {
		base := rng.Uint64()
		fps = append(fps, base)
		for range 3 {
			v := base
			for range rng.IntN(10) {
				v ^= 1 << rng.IntN(64)
			}
			fps = append(fps, v)
		}
	}
	for k := 0; k <= MaxK; k++ {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			manku, err := PlanLayout(k, len(fps), 0)
			if err != nil {
				t.Fatal(err)
			}
			probe, err := PlanProbeLayout(k, len(fps), 0)
			if err != nil {
				t.Fatal(err)
			}
			if probe.Tables > DefaultMaxTables && probe != manku {
				t.Errorf("%v: more tables than %d", probe, DefaultMaxTables)
			}
			layouts := []Layout{manku, probe}
			// Every way of leading tables with some of 2 to 10 blocks,
			// with the radius leadRadius gives: short prefixes look up a
			// directory, long ones search.
			for b := 2; b <= 10; b++ {
				for lead := 1; lead < b; lead++ {
					l := Layout{K: k, Blocks: b, Tables: binom(b, lead), Lead: lead, Radius: leadRadius(b, lead, k), PrefixBits: leadRadius(b, lead, 64), N: len(fps)}
					if l.Tables <= 10 && l.probes() <= maxProbes {
						layouts = append(layouts, l)
					}
				}
			}
			for _, layout := range layouts {
				checkIndex(t, fps, layout)
			}
		})
	}
}

// checkIndex compares the layout's queries with a scan.
func checkIndex(t *testing.T, fps []uint64, layout Layout) {
	t.Helper()
	k := layout.K
	ix := NewIndex(fps, layout)
	for q := 0; q < len(fps); q += 7 {
		var got, want []int
		ix.Query(fps[q], func(id, d int) {
			if d != bits.OnesCount64(fps[id]^fps[q]) {
				t.Fatalf("wrong distance")
			}
			got = append(got, id)
		})
		for id, fp := range fps {
			if bits.OnesCount64(fp^fps[q]) <= k {
				want = append(want, id)
			}
		}
		sort.Ints(got)
		if !slices.Equal(got, want) {
			t.Fatalf("%v: query %d found %v, want %v", layout, q, got, want)
		}
	}
}

// TestPlanProbeLayout: for a large k over many fingerprints the planner
// looks up near prefixes in a few long-prefixed tables rather than
// taking Manku's many short ones.
func TestPlanProbeLayout(t *testing.T) {
	l, err := PlanProbeLayout(10, 1_000_000, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l.Tables != 4 || l.PrefixBits != 16 || l.Radius != 2 || l.probes() != 137 {
		t.Errorf("k=10, 1M: %v, want 4 tables of 16 bits, radius 2", l)
	}
	if m, _ := PlanLayout(10, 1_000_000, 0); m.PrefixBits >= 8 {
		t.Errorf("Manku k=10: %v", m)
	}
	// Small k keeps Manku's layout.
	l3, _ := PlanProbeLayout(3, 100_000, 0)
	if l3.Radius != 0 || l3.Tables != 4 {
		t.Errorf("k=3: %v, want Manku's 4 tables", l3)
	}
}

func TestSimHashProperties(t *testing.T) {
	n := mustNormalizer(t, Options{Shingles: []int{3, 5}})
	if _, ok := SimHash(n.Features("")); ok {
		t.Error("empty text has a fingerprint")
	}
	zh := "本周六，海滨小城南湾举办了首届风筝节，来自全国各地的两百多支队伍参加了比赛。"
	fp, ok := SimHash(n.Features(zh))
	if !ok || fp == ^uint64(0) || fp == 0 {
		t.Errorf("Chinese text fingerprint %x ok=%v", fp, ok)
	}
	a := strings.Repeat("The harbour town switched on its first tidal power station on Monday after a decade of planning. ", 3)
	b := strings.Replace(a, "Monday", "Tuesday", 1)
	c := "A completely different text about the growing of winter squash on an allotment near the river in autumn."
	fa, _ := SimHash(n.Features(a))
	fb, _ := SimHash(n.Features(b))
	fc, _ := SimHash(n.Features(c))
	if Distance(fa, fb) >= Distance(fa, fc) {
		t.Errorf("near copy at %d bits, unrelated text at %d", Distance(fa, fb), Distance(fa, fc))
	}
}

// TestFingerprintMatchesSimHash checks the fast path against the
// definition on real texts and a few small ones with repeats and ties.
func TestFingerprintMatchesSimHash(t *testing.T) {
	data := shareddata.Require(t)
	files, _ := filepath.Glob(filepath.Join(data, "extract", "daniel-zh", "gold", "*.txt"))
	texts := []string{"a b c", "a b c a b c", "tide tide tide tide", "x"}
	for _, f := range files[:50] {
		b, _ := os.ReadFile(f)
		texts = append(texts, string(b))
	}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"default", Options{}},
		{"shingles-3-5", Options{Shingles: []int{3, 5}}},
		{"remove-spaces", Options{Spaces: RemoveSpaces}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			n := mustNormalizer(t, o)
			for _, text := range texts {
				want, wok := SimHash(n.Features(text))
				got, gok := n.Fingerprint(text)
				if got != want || gok != wok {
					t.Fatalf("%+v %q: Fingerprint %x, SimHash %x", o, text[:min(30, len(text))], got, want)
				}
			}
		})
	}
}

// TestSimHashBitBalance checks, on real texts (the gold texts of the
// extraction sets), that every bit is set in about half of the
// fingerprints: seed 004's summed word hashes left the high bits at zero.
func TestSimHashBitBalance(t *testing.T) {
	data := shareddata.Require(t)
	var files []string
	for _, set := range []string{"daniel-ru", "daniel-zh", "cleaneval-zh"} {
		fs, _ := filepath.Glob(filepath.Join(data, "extract", set, "gold", "*.txt"))
		files = append(files, fs...)
	}
	if len(files) < 400 {
		t.Fatalf("only %d gold texts", len(files))
	}
	n := mustNormalizer(t, Options{Shingles: []int{3, 5}})
	var count [64]int
	docs := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fp, ok := SimHash(n.Features(string(b)))
		if !ok {
			continue
		}
		docs++
		for i := range 64 {
			if fp&(1<<i) != 0 {
				count[i]++
			}
		}
	}
	// Five standard deviations of a fair coin over this many documents.
	slack := 5 * math.Sqrt(0.25/float64(docs))
	for i, c := range count {
		if share := float64(c) / float64(docs); math.Abs(share-0.5) > slack {
			t.Errorf("bit %d set in %.3f of %d fingerprints", i, share, docs)
		}
	}
}

func FuzzSimhash(f *testing.F) {
	f.Add("The tide rises and falls twice a day.", "The tide rises and falls twice a night.")
	f.Add("", "本周六，海滨小城")
	n := mustNormalizer(f, Options{Shingles: []int{1, 3}})
	layout, _ := PlanLayout(3, 2, 0)
	f.Fuzz(func(t *testing.T, a, b string) {
		fa, _ := SimHash(n.Features(a))
		fb, _ := SimHash(n.Features(b))
		if Distance(fa, fa) != 0 || Distance(fa, fb) != Distance(fb, fa) {
			t.Fatal("distance is not a metric")
		}
		ix := NewIndex([]uint64{fa, fb}, layout)
		found := false
		ix.Query(fa, func(id, d int) { found = found || id == 0 && d == 0 })
		if !found {
			t.Fatal("a fingerprint does not find itself")
		}
	})
}

// TestNFKCStableRanges checks nfkcStable's claim rune by rune: NFKC either
// leaves the rune alone or maps punctuation to punctuation.
func TestNFKCStableRanges(t *testing.T) {
	for r := rune(0); r < 0x10000; r++ {
		s := string(r)
		if !utf8.ValidString(s) || !nfkcStable(s) {
			continue
		}
		got := norm.NFKC.String(s)
		if got == s {
			continue
		}
		for _, g := range got {
			if unicode.IsLetter(g) || unicode.IsDigit(g) || unicode.Is(unicode.Mn, g) {
				t.Errorf("U+%04X %q becomes %q under NFKC", r, s, got)
			}
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			t.Errorf("U+%04X %q is a letter that NFKC changes to %q", r, s, got)
		}
	}
}

// TestTableMasks: every pair of fingerprints within k bits agrees under
// one of the layout's masks, for every k and collection size planned
// for, and a pair agreeing under no mask is farther than k.
func TestTableMasks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k <= MaxK; k++ {
		for _, n := range []int{10, 1 << 20, 1 << 30} {
			layout, err := PlanLayout(k, n, 0)
			if err != nil {
				t.Fatal(err)
			}
			masks := layout.TableMasks()
			if len(masks) != layout.Tables {
				t.Fatalf("%v: %d masks, want %d", layout, len(masks), layout.Tables)
			}
			for range 2000 {
				a := rng.Uint64()
				b := a
				for range rng.IntN(2*k + 2) {
					b ^= 1 << rng.IntN(64)
				}
				agree := false
				for _, m := range masks {
					agree = agree || a&m == b&m
				}
				if d := Distance(a, b); d <= k && !agree {
					t.Fatalf("%v: %016x and %016x are %d apart and agree under no mask", layout, a, b, d)
				}
			}
		}
	}
}
