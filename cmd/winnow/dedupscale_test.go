package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/winnow-go/winnow/evaluate"
	"github.com/winnow-go/winnow/internal/dedupgen"
	"github.com/winnow-go/winnow/internal/shareddata"
)

// scaleDocs and scaleMemoryMB are the scale test's collection and bound:
// 30,000 generated documents (100 MB of JSONL) deduplicated within 64 MB,
// about a third of the input.
const (
	scaleDocs     = 30000
	scaleMemoryMB = 64
)

// TestDedupScale runs winnow dedup on a generated collection of real
// sentences with planted near-copies (internal/dedupgen) in a child
// process with --max-memory 64MB, and checks its peak RSS against the
// bound, then its pairs against the generator's exact gold: recall at
// Jaccard >= 0.8 at least 0.97, and precision at least 0.99 in every
// language whose words are separated by spaces (for Chinese the gold's
// tokens are whole clauses where winnow shingles characters, so winnow's
// Jaccard runs higher and the gold's precision is not winnow's; see
// README). The same at 1,000,000 documents is measured by hand (README).
func TestDedupScale(t *testing.T) {
	data := shareddata.Require(t)
	dir := t.TempDir()
	pool, err := dedupgen.LoadPool(data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := dedupgen.New(pool, dedupgen.Options{Docs: scaleDocs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteFiles(dir, 0, 0); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.jsonl")
	start := time.Now()
	c := runChild(t, 2*time.Minute, nil, "dedup", filepath.Join(dir, "docs.jsonl"), "--out", out, "--max-memory", "64MB", "--tmp", dir)
	if c.code != 0 {
		t.Fatalf("exit %d: %s", c.code, c.stderr)
	}
	t.Logf("%d documents in %v, peak RSS %d MB\n%s", scaleDocs, time.Since(start).Round(time.Millisecond), c.maxRSSMB, c.stderr)
	if c.maxRSSMB > scaleMemoryMB {
		t.Errorf("peak RSS %d MB over --max-memory %d MB", c.maxRSSMB, scaleMemoryMB)
	}
	s, err := evaluate.ScoreMarked(dir, out, []float64{0.8})
	if err != nil {
		t.Fatal(err)
	}
	if s.Records != scaleDocs {
		t.Fatalf("%d records out of %d", s.Records, scaleDocs)
	}
	l := s.Levels[0]
	if l.Recall < 0.97 {
		t.Errorf("recall at Jaccard >= 0.8: %.4f (%d of %d gold pairs), want 0.97", l.Recall, l.Found, l.GoldPairs)
	}
	for _, g := range l.Langs {
		t.Logf("%s: recall %.4f of %d gold pairs, precision %.4f", g.Lang, g.Recall, g.GoldPairs, g.Precision)
		if g.Lang != "zh" && g.Precision < 0.99 {
			t.Errorf("%s: precision %.4f, want 0.99", g.Lang, g.Precision)
		}
	}

	// SimHash alone, at its defaults (3-word shingles, k=11), in the
	// same bound: the recall the issue asks of it at Jaccard >= 0.9, and
	// the precision of what it asserts at its 0.8 threshold.
	c = runChild(t, 2*time.Minute, nil, "dedup", filepath.Join(dir, "docs.jsonl"), "--out", out, "--max-memory", "64MB", "--tmp", dir, "--method", "simhash")
	if c.code != 0 {
		t.Fatalf("simhash: exit %d: %s", c.code, c.stderr)
	}
	t.Logf("simhash: peak RSS %d MB\n%s", c.maxRSSMB, c.stderr)
	if c.maxRSSMB > scaleMemoryMB {
		t.Errorf("simhash: peak RSS %d MB over --max-memory %d MB", c.maxRSSMB, scaleMemoryMB)
	}
	if s, err = evaluate.ScoreMarked(dir, out, []float64{0.8, 0.9}); err != nil {
		t.Fatal(err)
	}
	t.Logf("simhash: recall at Jaccard >= 0.9 %.4f of %d gold pairs", s.Levels[1].Recall, s.Levels[1].GoldPairs)
	if l := s.Levels[1]; l.Recall < 0.95 {
		t.Errorf("simhash: recall at Jaccard >= 0.9: %.4f (%d of %d gold pairs), want 0.95", l.Recall, l.Found, l.GoldPairs)
	}
	for _, g := range s.Levels[0].Langs {
		t.Logf("simhash: %s: recall %.4f of %d gold pairs at 0.8, precision %.4f", g.Lang, g.Recall, g.GoldPairs, g.Precision)
		if g.Lang != "zh" && g.Precision < 0.99 {
			t.Errorf("simhash: %s: precision %.4f, want 0.99", g.Lang, g.Precision)
		}
	}

	// The collection statistics of --method tfidf and --idf are counted
	// within a bound too (the counts spill), on the first 12,000
	// documents, whose texts (36 MB) are more than the quarter of the
	// bound that the statistics once held them in. What the statistics
	// keep, the terms and word pairs of two or more documents (13 bytes
	// each), needs more than 64 MB leaves them.
	const statsDocs, statsMemoryMB = 12000, 96
	part := filepath.Join(dir, "part.jsonl")
	if err := copyLines(filepath.Join(dir, "docs.jsonl"), part, statsDocs); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	c = runChild(t, 2*time.Minute, nil, "dedup", part, "--out", out, "--max-memory", fmt.Sprintf("%dMB", statsMemoryMB), "--tmp", dir, "--method", "tfidf", "--idf")
	if c.code != 0 {
		t.Fatalf("tfidf --idf: exit %d: %s", c.code, c.stderr)
	}
	t.Logf("tfidf --idf: %d documents in %v, peak RSS %d MB\n%s", statsDocs, time.Since(start).Round(time.Millisecond), c.maxRSSMB, c.stderr)
	if c.maxRSSMB > statsMemoryMB {
		t.Errorf("tfidf --idf: peak RSS %d MB over --max-memory %d MB", c.maxRSSMB, statsMemoryMB)
	}
	if !regexp.MustCompile(`\(([1-9][0-9]*) runs spilled\)`).MatchString(c.stderr) {
		t.Error("tfidf --idf: the statistics' counts did not spill")
	}
	if n := len(readJSONL(t, out)); n != statsDocs {
		t.Errorf("tfidf --idf: %d records out of %d", n, statsDocs)
	}
}

// copyLines copies the first n lines of a file.
func copyLines(from, to string, n int) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	end := 0
	for range n {
		end += bytes.IndexByte(b[end:], '\n') + 1
	}
	return os.WriteFile(to, b[:end], 0o644)
}
