// Command utf8inject measures how extract.Extract copes with invalid bytes
// in UTF-8 pages. It takes every page of ../shared/data that decodes as
// UTF-8 without a single ill-formed byte (the extraction sets and the site
// sets), injects 1, 10 and 100 invalid pieces at random character
// boundaries, and counts the pages whose extracted text, U+FFFD removed,
// equals the text of the clean page, U+FFFD removed. Two kinds of piece:
//
//   - stray: one byte from 0x80-0xFF, as a Latin-1 or windows-1252
//     template leaves it in a UTF-8 page;
//   - cut: the first 1 to 3 bytes of a 2- to 4-byte sequence, as a
//     truncation in the middle of a character leaves them.
//
// Positions are character boundaries, so that a piece never merges with
// the page's own bytes into another character, and distinct, so that two
// pieces never form a sequence together: each piece is ill-formed by
// itself. The random source is seeded per page, kind and count, so the
// figures do not depend on the order the pages are run in.
//
//	go run ./internal/tools/utf8inject
//	go run ./internal/tools/utf8inject -v -counts 10 -kinds cut
package main

import (
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/par"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// globs lists the page files under the data folder; the sets whose files
// start with a <text ...> wrapper line have it stripped.
var globs = []string{
	"extract/scrapinghub/html/*.gz",
	"extract/trafilatura/html/*.gz",
	"extract/daniel-ru/html/*.gz",
	"extract/daniel-zh/html/*.gz",
	"extract/cleaneval-zh/html/*.gz",
	"extract/wcxb-dev-even/html/*.gz",
	"sites/cleanportaleval/*/input/*.gz",
	"sites/swde-book/*/*.gz",
}

var kinds = map[string]func(r *rand.Rand) []byte{"stray": stray, "cut": cut}

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	countsFlag := flag.String("counts", "1,10,100", "numbers of pieces to inject, comma-separated")
	kindsFlag := flag.String("kinds", "stray,cut", "kinds of piece: stray, cut")
	verbose := flag.Bool("v", false, "list on stderr the pages whose text differs")
	explain := flag.Bool("explain", false, "with -v, also list the pieces that change the text by themselves")
	where := flag.String("in", "all", "where pieces go: all (any character boundary), text (text between tags, outside script and style) or markup (the rest)")
	flag.Parse()
	data, err := shareddata.Dir()
	if err != nil {
		fail(err)
	}
	var counts []int
	for _, f := range strings.Split(*countsFlag, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			fail(fmt.Errorf("bad count %q", f))
		}
		counts = append(counts, n)
	}
	pages, skipped := loadPages(data)
	groups := map[string]int{}
	for _, p := range pages {
		groups[p.group]++
	}
	fmt.Printf("%d UTF-8 pages %v (%d skipped: not UTF-8 or no text); seed %d\n\n", len(pages), groups, skipped, *seed)
	fmt.Println("| kind | pieces | pages | text equal | read as UTF-8 | warning exact | mean bytes |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, kind := range strings.Split(*kindsFlag, ",") {
		piece, ok := kinds[kind]
		if !ok {
			fail(fmt.Errorf("unknown kind %q", kind))
		}
		for _, n := range counts {
			runs := make([]result, len(pages))
			par.Each(len(pages), runtime.GOMAXPROCS(0), func(i int) {
				r := rand.New(rand.NewPCG(*seed, pageSeed(pages[i].name, kind, n)))
				ins := pick(boundaries(pages[i].raw, *where), n, r, piece)
				runs[i] = pages[i].run(ins)
				if *verbose && *explain && !runs[i].equal {
					runs[i].diff += pages[i].explain(ins)
				}
			})
			report(kind, n, pages, runs, *verbose)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "utf8inject:", err)
	os.Exit(1)
}

// page is a clean UTF-8 page and the text extracted from it.
type page struct {
	name, group string
	raw         []byte
	text        string // U+FFFD removed
}

var utf8Meta = regexp.MustCompile(`(?i)<meta[^>]*charset\s*=\s*["']?\s*utf-?8`)

func loadPages(data string) (pages []page, skipped int) {
	var files []string
	for _, g := range globs {
		f, _ := filepath.Glob(filepath.Join(data, g))
		files = append(files, f...)
	}
	loaded := make([]*page, len(files))
	par.Each(len(files), runtime.GOMAXPROCS(0), func(i int) {
		b, err := gz.ReadFile(files[i])
		if err != nil {
			fail(err)
		}
		if strings.Contains(files[i], "cleaneval") {
			_, b = extract.StripTextWrapper(b)
		}
		if d, err := extract.Decode(b, ""); err != nil || d.Charset != "utf-8" || d.Invalid > 0 {
			return
		}
		p, err := extract.Extract(b, extract.Options{})
		if err != nil {
			return
		}
		name, _ := filepath.Rel(data, files[i])
		loaded[i] = &page{name: name, group: group(b), raw: b, text: dropFFFD(p.Text())}
	})
	for _, p := range loaded {
		if p == nil {
			skipped++
			continue
		}
		pages = append(pages, *p)
	}
	return pages, skipped
}

// group tells how a page says it is UTF-8: a byte-order mark, a <meta>
// declaration, or nothing.
func group(b []byte) string {
	head := b[:min(len(b), 4096)]
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return "bom"
	case utf8Meta.Match(head):
		return "meta utf-8"
	}
	return "undeclared"
}

func dropFFFD(s string) string { return strings.ReplaceAll(s, "\uFFFD", "") }

func pageSeed(name, kind string, n int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d", name, kind, n)
	return h.Sum64()
}

// stray returns one byte that is ill-formed UTF-8 between two characters.
func stray(r *rand.Rand) []byte { return []byte{byte(0x80 + r.IntN(0x80))} }

// cut returns the first bytes of the UTF-8 form of a random character of
// 2 to 4 bytes, at least one byte short.
func cut(r *rand.Rand) []byte {
	var c rune
	switch r.IntN(3) {
	case 0:
		c = rune(0x80 + r.IntN(0x800-0x80))
	case 1:
		c = rune(0xE000 + r.IntN(0x10000-0xE000)) // above the surrogates
	default:
		c = rune(0x10000 + r.IntN(0x110000-0x10000))
	}
	b := utf8.AppendRune(nil, c)
	return b[:1+r.IntN(len(b)-1)]
}

// boundaries lists the character boundaries of b after a byte-order mark,
// all of them or those in text or markup only (see the -in flag).
func boundaries(b []byte, where string) []int {
	inText := make([]bool, len(b))
	if where != "all" {
		z := html.NewTokenizer(bytes.NewReader(b))
		off, script := 0, false
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			raw := len(z.Raw())
			switch tt {
			case html.StartTagToken:
				name, _ := z.TagName()
				script = string(name) == "script" || string(name) == "style"
			case html.EndTagToken:
				script = false
			case html.TextToken:
				for i := off; i < off+raw && i < len(b) && !script; i++ {
					inText[i] = true
				}
			}
			off += raw
		}
	}
	var bounds []int
	for i := 0; i < len(b); {
		if i >= 3 || !bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
			if where == "all" || inText[i] == (where == "text") {
				bounds = append(bounds, i)
			}
		}
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return bounds
}

// insertion is a piece to insert before the byte at offset at.
type insertion struct {
	at    int
	piece []byte
}

// pick draws n distinct positions from bounds and a piece for each, in
// the order of the positions.
func pick(bounds []int, n int, r *rand.Rand, piece func(*rand.Rand) []byte) []insertion {
	seen := map[int]bool{}
	var at []int
	for len(at) < min(n, len(bounds)) {
		if i := bounds[r.IntN(len(bounds))]; !seen[i] {
			seen[i] = true
			at = append(at, i)
		}
	}
	slices.Sort(at)
	ins := make([]insertion, len(at))
	for k, i := range at {
		ins[k] = insertion{i, piece(r)}
	}
	return ins
}

// apply returns b with the insertions made, and the bytes they add.
func apply(b []byte, ins []insertion) ([]byte, int) {
	out := make([]byte, 0, len(b)+4*len(ins))
	prev, added := 0, 0
	for _, in := range ins {
		out = append(append(out, b[prev:in.at]...), in.piece...)
		prev = in.at
		added += len(in.piece)
	}
	return append(out, b[prev:]...), added
}

// explain lists the insertions that change the text by themselves, each
// with the bytes around it.
func (p page) explain(ins []insertion) string {
	var sb strings.Builder
	for _, in := range ins {
		if r := p.run([]insertion{in}); !r.equal {
			fmt.Fprintf(&sb, "\n\tat %d %q|%q: %s", in.at, p.raw[max(0, in.at-24):in.at], p.raw[in.at:min(len(p.raw), in.at+24)], r.diff)
		}
	}
	return sb.String()
}

// result is what one injected page came to.
type result struct {
	equal, utf8, warned bool
	added               int
	why                 string // why the texts differ (see differ)
	diff                string // where the texts part, when they differ
}

// Reasons why the text of an injected page differs from the clean one.
const (
	whyLegacy     = "not read as UTF-8"
	whySpace      = "white space only" // a U+FFFD alone between spaces or lines
	whyEntity     = "a split entity"   // "&u\uFFFDuml;" stays literal
	whyExtraction = "other text"       // a block kept or dropped, a title lost
)

// differ tells why the injected text b differs from the clean text a.
func differ(a, b string, utf8 bool) string {
	space := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	switch {
	case !utf8:
		return whyLegacy
	case space(a) == space(b):
		return whySpace
	case space(html.UnescapeString(a)) == space(html.UnescapeString(b)):
		return whyEntity
	}
	return whyExtraction
}

func (p page) run(ins []insertion) result {
	raw, added := apply(p.raw, ins)
	res := result{added: added}
	got, err := extract.Extract(raw, extract.Options{})
	if err != nil {
		res.diff = err.Error()
		return res
	}
	res.utf8 = got.Charset == "utf-8"
	want := fmt.Sprintf("invalid-utf8: %d bytes", added)
	for _, w := range got.Warnings {
		res.warned = res.warned || w == want
	}
	text := dropFFFD(got.Text())
	res.equal = text == p.text
	if !res.equal {
		res.why = differ(p.text, text, res.utf8)
		res.diff = firstDiff(p.text, text)
	}
	return res
}

// firstDiff shows the clean and the injected text around the first place
// where they differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-30)
	return fmt.Sprintf("clean %q / injected %q", a[from:min(len(a), i+40)], b[from:min(len(b), i+40)])
}

func report(kind string, n int, pages []page, runs []result, verbose bool) {
	var equal, asUTF8, warned, added int
	failed, why := map[string]int{}, map[string]int{}
	for i, r := range runs {
		added += r.added
		if r.utf8 {
			asUTF8++
		}
		if r.warned {
			warned++
		}
		if r.equal {
			equal++
			continue
		}
		failed[pages[i].group]++
		why[r.why]++
		if verbose {
			fmt.Fprintf(os.Stderr, "%s %d %s (%s; %s): %s\n", kind, n, pages[i].name, pages[i].group, r.why, r.diff)
		}
	}
	pct := func(k int) string { return fmt.Sprintf("%.2f%%", 100*float64(k)/float64(len(runs))) }
	fmt.Printf("| %s | %d | %d | %s | %s | %s | %.1f |\n", kind, n, len(runs), pct(equal), pct(asUTF8), pct(warned),
		float64(added)/float64(len(runs)))
	if len(failed) > 0 {
		fmt.Fprintf(os.Stderr, "%s %d: pages whose text differs, by declaration: %v; by reason: %v\n", kind, n, failed, why)
	}
}
