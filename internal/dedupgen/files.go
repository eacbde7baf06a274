package dedupgen

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// File names that WriteFiles uses in its folder.
const (
	DocsFile      = "docs.jsonl"
	GoldFile      = "gold.jsonl"
	UnrelatedFile = "unrelated.jsonl"
)

// Summary describes the files of a WriteFiles call.
type Summary struct {
	Dir                       string
	Docs, Unrelated           DocStats
	Gold                      GoldStats
	DocsTime, GoldTime, UTime time.Duration
}

// WriteFiles writes the collection to dir/docs.jsonl, its gold pairs to
// dir/gold.jsonl and, when unrelated > 0, that many unrelated documents
// to dir/unrelated.jsonl, creating dir if needed.
func (g *Generator) WriteFiles(dir string, unrelated, workers int) (Summary, error) {
	s := Summary{Dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s, err
	}
	t0 := time.Now()
	err := writeFile(filepath.Join(dir, DocsFile), func(w io.Writer) (err error) {
		s.Docs, err = g.WriteDocs(w, workers)
		return err
	})
	s.DocsTime = time.Since(t0)
	if err != nil {
		return s, err
	}
	t0 = time.Now()
	err = writeFile(filepath.Join(dir, GoldFile), func(w io.Writer) (err error) {
		s.Gold, err = g.WriteGold(w, workers)
		return err
	})
	s.GoldTime = time.Since(t0)
	if err != nil || unrelated <= 0 {
		return s, err
	}
	t0 = time.Now()
	err = writeFile(filepath.Join(dir, UnrelatedFile), func(w io.Writer) (err error) {
		s.Unrelated, err = g.WriteUnrelated(w, unrelated, workers)
		return err
	})
	s.UTime = time.Since(t0)
	return s, err
}

func writeFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// WriteTo writes the summary as text: sizes, language mix, edit kinds,
// the histogram of gold Jaccard and the times.
func (s Summary) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "docs: %d in %s, %s (%.0f bytes a document), %s; languages %s\n",
		s.Docs.Docs, filepath.Join(s.Dir, DocsFile), size(s.Docs.Bytes), float64(s.Docs.Bytes)/float64(max(1, s.Docs.Docs)),
		s.DocsTime.Round(time.Millisecond), mix(s.Docs.Langs, s.Docs.Docs))
	if s.Unrelated.Docs > 0 {
		fmt.Fprintf(&b, "unrelated: %d in %s, %s, %s\n", s.Unrelated.Docs, filepath.Join(s.Dir, UnrelatedFile),
			size(s.Unrelated.Bytes), s.UTime.Round(time.Millisecond))
	}
	g := s.Gold
	fmt.Fprintf(&b, "gold: %d families, %d copies, %d pairs in %s, %s\n", g.Families, g.Copies, g.Pairs,
		filepath.Join(s.Dir, GoldFile), s.GoldTime.Round(time.Millisecond))
	fmt.Fprintf(&b, "copies by edit kind:")
	for _, k := range EditKinds {
		fmt.Fprintf(&b, " %s %d", k, g.Edits[k])
	}
	fmt.Fprintf(&b, "\n%-12s %9s %9s\n", "jaccard", "orig-copy", "copy-copy")
	for i := range HistBins {
		if g.OrigHist[i] == 0 && g.CopyHist[i] == 0 {
			continue
		}
		fmt.Fprintf(&b, "[%.2f,%.2f%s %9d %9d\n", float64(i)/HistBins, float64(i+1)/HistBins, closer(i), g.OrigHist[i], g.CopyHist[i])
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

func closer(i int) string {
	if i == HistBins-1 {
		return "]"
	}
	return ")"
}

func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// mix lists the languages by share, largest first.
func mix(langs map[string]int, total int) string {
	keys := sortedKeys(langs) // ties keep name order
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(langs[b], langs[a]) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %.1f%%", k, 100*float64(langs[k])/float64(max(1, total)))
	}
	return strings.Join(parts, ", ")
}
