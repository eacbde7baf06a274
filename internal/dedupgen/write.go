package dedupgen

import (
	"encoding/json"
	"io"
	"runtime"

	"github.com/winnow-go/winnow/internal/par"
)

// DocStats describes a written document file.
type DocStats struct {
	Docs  int
	Bytes int64
	Langs map[string]int // documents by language
}

func (s *DocStats) add(o DocStats) {
	s.Docs += o.Docs
	s.Bytes += o.Bytes
	s.Langs = addCounts(s.Langs, o.Langs)
}

// addCounts adds the counts of src to dst, making dst when it is nil.
func addCounts(dst, src map[string]int) map[string]int {
	if dst == nil {
		dst = map[string]int{}
	}
	for k, v := range src {
		dst[k] += v
	}
	return dst
}

// HistBins is the number of bins of the gold histograms, each 0.05 wide.
const HistBins = 20

// GoldStats describes a written gold file.
type GoldStats struct {
	Families, Copies, Pairs int
	Edits                   map[string]int // copies by edit kind
	// OrigHist and CopyHist count the Jaccard of original-copy and
	// copy-copy pairs: bin i holds [i/20, (i+1)/20), and 1 is in the last.
	OrigHist, CopyHist [HistBins]int
}

func (s *GoldStats) add(o GoldStats) {
	s.Families += o.Families
	s.Copies += o.Copies
	s.Pairs += o.Pairs
	s.Edits = addCounts(s.Edits, o.Edits)
	for i := range HistBins {
		s.OrigHist[i] += o.OrigHist[i]
		s.CopyHist[i] += o.CopyHist[i]
	}
}

// Bin returns the histogram bin of a Jaccard.
func Bin(j float64) int { return min(HistBins-1, max(0, int(j*HistBins))) }

// Pair is one line of the gold file: two documents of one planted family,
// where they are (URL and line number in the document file, from 1), the
// edits that made each from the original (none for the original itself),
// and their exact shingle overlap (see Compare).
type Pair struct {
	Family      int      `json:"family"`
	Lang        string   `json:"lang"`
	A           string   `json:"a"`
	B           string   `json:"b"`
	LineA       int      `json:"line_a"`
	LineB       int      `json:"line_b"`
	EditsA      []string `json:"edits_a"`
	EditsB      []string `json:"edits_b"`
	SizeA       int      `json:"size_a"`
	SizeB       int      `json:"size_b"`
	Inter       int      `json:"inter"`
	Union       int      `json:"union"`
	Jaccard     float64  `json:"jaccard"`
	Containment float64  `json:"containment"`
}

// chunk is the number of documents (or families) a goroutine makes at
// once.
const chunk = 256

// WriteDocs writes the collection to w as JSON lines {"url","text"}, in
// position order, on the given number of goroutines (GOMAXPROCS when 0).
// The bytes do not depend on workers.
func (g *Generator) WriteDocs(w io.Writer, workers int) (DocStats, error) {
	return g.writeDocs(w, g.opts.Docs, workers, g.Doc)
}

// WriteUnrelated writes m documents of the unrelated set (see Unrelated)
// to w as WriteDocs does.
func (g *Generator) WriteUnrelated(w io.Writer, m, workers int) (DocStats, error) {
	return g.writeDocs(w, m, workers, g.Unrelated)
}

func (g *Generator) writeDocs(w io.Writer, n, workers int, doc func(int) Doc) (DocStats, error) {
	var total DocStats
	total.Langs = map[string]int{}
	err := stream(w, n, workers, func(lo, hi int, buf []byte) ([]byte, any) {
		st := DocStats{Langs: map[string]int{}}
		for i := lo; i < hi; i++ {
			d := doc(i)
			start := len(buf)
			buf = appendDoc(buf, d)
			st.Docs++
			st.Bytes += int64(len(buf) - start)
			st.Langs[d.Lang]++
		}
		return buf, st
	}, func(part any) { total.add(part.(DocStats)) })
	return total, err
}

// WriteGold writes every pair of every planted family to w as JSON lines
// (see Pair), family by family, original-copy pairs before copy-copy
// pairs.
func (g *Generator) WriteGold(w io.Writer, workers int) (GoldStats, error) {
	var total GoldStats
	total.Edits = map[string]int{}
	err := stream(w, g.families, workers, func(lo, hi int, buf []byte) ([]byte, any) {
		st := GoldStats{Edits: map[string]int{}}
		for j := lo; j < hi; j++ {
			for _, p := range g.FamilyPairs(j) {
				b, _ := json.Marshal(p) // a Pair always marshals
				buf = append(append(buf, b...), '\n')
				st.Pairs++
				if len(p.EditsA) == 0 {
					st.OrigHist[Bin(p.Jaccard)]++
					st.Copies++
					for _, e := range p.EditsB {
						st.Edits[e]++
					}
				} else {
					st.CopyHist[Bin(p.Jaccard)]++
				}
			}
			st.Families++
		}
		return buf, st
	}, func(part any) { total.add(part.(GoldStats)) })
	return total, err
}

// FamilyPairs returns the gold pairs of family j, computed exactly.
func (g *Generator) FamilyPairs(j int) []Pair {
	c := g.copies(j)
	docs := make([]Doc, c+1)
	lines := make([]int, c+1)
	sh := make([][]string, c+1)
	for m := range docs {
		lines[m] = g.position(j, m) + 1
		docs[m] = g.Doc(lines[m] - 1)
		sh[m] = sortedShingles(docs[m].Text)
	}
	var out []Pair
	for a := range docs {
		for b := a + 1; b < len(docs); b++ {
			o := Overlap{SizeA: len(sh[a]), SizeB: len(sh[b]), Inter: intersectSorted(sh[a], sh[b])}
			out = append(out, Pair{
				Family: j, Lang: docs[a].Lang,
				A: docs[a].URL, B: docs[b].URL, LineA: lines[a], LineB: lines[b],
				EditsA: nonNil(docs[a].Edits), EditsB: nonNil(docs[b].Edits),
				SizeA: o.SizeA, SizeB: o.SizeB, Inter: o.Inter, Union: o.Union(),
				Jaccard: o.Jaccard(), Containment: o.Containment(),
			})
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// stream calls fill for the ranges [lo, hi) of [0, n), chunk by chunk, on
// workers goroutines, and writes the bytes of the chunks to w in order,
// while the next batch of chunks is being made. merge gets each chunk's
// summary in order too.
func stream(w io.Writer, n, workers int, fill func(lo, hi int, buf []byte) ([]byte, any), merge func(any)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type part struct {
		buf []byte
		sum any
	}
	perBatch := 4 * workers
	batches := make(chan []part, 1)
	done := make(chan error, 1)
	go func() {
		var err error
		for parts := range batches {
			for _, p := range parts {
				if err == nil {
					_, err = w.Write(p.buf)
				}
				merge(p.sum)
			}
		}
		done <- err
	}()
	for start := 0; start < n; start += perBatch * chunk {
		parts := make([]part, min(perBatch, (n-start+chunk-1)/chunk))
		par.Each(len(parts), workers, func(k int) {
			lo := start + k*chunk
			buf, sum := fill(lo, min(n, lo+chunk), make([]byte, 0, chunk*4096))
			parts[k] = part{buf, sum}
		})
		batches <- parts
	}
	close(batches)
	return <-done
}

// appendDoc appends {"url":...,"text":...} and a line break.
func appendDoc(buf []byte, d Doc) []byte {
	buf = append(buf, `{"url":`...)
	buf = appendJSONString(buf, d.URL)
	buf = append(buf, `,"text":`...)
	buf = appendJSONString(buf, d.Text)
	return append(buf, "}\n"...)
}

// appendJSONString appends s as a JSON string. s is valid UTF-8 (the
// pool holds no other), so only quotes, backslashes and control
// characters need escapes.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\r':
			buf = append(buf, '\\', 'r')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
