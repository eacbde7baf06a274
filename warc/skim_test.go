package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// skimResult is one result of Next with its block's first bytes only.
type skimResult struct {
	offset, size int64
	fields       string
	head         []byte
	err          string
}

// readSkim reads a plain file to its end, skimming blocks to prefix
// bytes (0 reads them whole), and keeps of each block its first prefix
// bytes; it returns the results and the stray bytes skipped.
func readSkim(t *testing.T, file []byte, maxBytes int64, prefix int) ([]skimResult, int64) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	r.SetMaxRecordBytes(maxBytes)
	if prefix > 0 && !r.Skim(prefix) {
		t.Fatal("a plain file in memory is not skimmed")
	}
	keep := prefix
	if keep == 0 {
		keep = 1 << 30
	}
	var out []skimResult
	for range len(file) + 10 {
		rec, err := r.Next()
		if err == io.EOF {
			return out, r.Skipped()
		}
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("not a RecordError: %v", err)
			}
			out = append(out, skimResult{offset: re.Offset, err: err.Error()})
			continue
		}
		if rec.Size < int64(len(rec.Block)) || rec.Partial() != (int64(len(rec.Block)) < rec.Size) {
			t.Fatalf("record at %d: block of %d bytes, size %d", rec.Offset, len(rec.Block), rec.Size)
		}
		if prefix > 0 && rec.Partial() && len(rec.Block) != prefix {
			t.Fatalf("record at %d: a partial block of %d bytes, want %d", rec.Offset, len(rec.Block), prefix)
		}
		out = append(out, skimResult{offset: rec.Offset, size: rec.Size, fields: fmt.Sprint(rec.Fields),
			head: bytes.Clone(rec.Block[:min(len(rec.Block), keep)])})
	}
	t.Fatal("the reader does not end")
	return nil, 0
}

// sameSkimmed checks that skimming a plain file gives what reading it
// whole gives: the same records, offsets, sizes and errors, each block's
// first bytes, and the same count of stray bytes.
func sameSkimmed(t *testing.T, file []byte, maxBytes int64, prefix int) {
	t.Helper()
	whole, wholeSkipped := readSkim(t, file, maxBytes, 0)
	skim, skimSkipped := readSkim(t, file, maxBytes, prefix)
	if len(whole) != len(skim) || wholeSkipped != skimSkipped {
		t.Fatalf("prefix %d: %d results, %d stray bytes; read whole: %d, %d", prefix, len(skim), skimSkipped, len(whole), wholeSkipped)
	}
	for i, w := range whole {
		s := skim[i]
		w.head = w.head[:min(len(w.head), prefix)]
		if w.offset != s.offset || w.size != s.size || w.fields != s.fields || w.err != s.err || !bytes.Equal(w.head, s.head) {
			t.Fatalf("prefix %d, result %d: skimmed %+v, whole %+v", prefix, i, s, w)
		}
	}
}

// TestSkim: skimming gives the records, offsets and errors of a whole
// reading, on the broken files of TestResync's kinds and on every real
// WARC file, for prefixes shorter and longer than their blocks.
func TestSkim(t *testing.T) {
	big := strings.Repeat("x", 3000)
	files := map[string][]part{
		"all good":                  pages(3, -1, 0),
		"too long into the next":    pages(3, 1, 10),
		"too long over two records": pages(4, 1, 500),
		"too long past the end":     pages(3, 2, 10),
		"too short":                 pages(3, 1, -7),
		"last too short":            pages(3, 2, -5),
		"stray bytes": append(pages(2, -1, 0), part{raw: "garbage\r\n\r\n"},
			page(2, 0)),
		"big block": {record("WARC/1.0", "a", big, 0), record("WARC/1.0", "b", big, 40), page(2, 0)},
	}
	for name, parts := range files {
		t.Run(name, func(t *testing.T) {
			file, _ := build(t, parts, false)
			for _, prefix := range []int{1, 16, 60, 100, 5000} {
				sameSkimmed(t, file, 0, prefix)
				sameSkimmed(t, file, 2000, prefix)
			}
			sameSkimmed(t, file[:len(file)-3], 0, 16) // cut short
		})
	}
	for _, path := range warcFiles(t) {
		if strings.HasSuffix(path, ".gz") {
			continue // gzipped files are read whole: see TestSkimGzipped
		}
		t.Run(caseName(path), func(t *testing.T) {
			file := plain(t, path)
			sameSkimmed(t, file, 0, 4096)
		})
	}
}

// TestSkimGzipped: a gzipped file is not skimmed (every byte must be
// decompressed), and a stream that cannot seek is not either.
func TestSkimGzipped(t *testing.T) {
	file, _ := build(t, pages(2, -1, 0), true)
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if r.Skim(16) {
		t.Error("a gzipped file is skimmed")
	}
	plainFile, _ := build(t, pages(2, -1, 0), false)
	r, _ = NewReader(io.MultiReader(bytes.NewReader(plainFile)))
	if r.Skim(16) {
		t.Error("a stream that cannot seek is skimmed")
	}
}

// FuzzSkim: on any input, skimming gives what a whole reading gives.
func FuzzSkim(f *testing.F) {
	f.Add([]byte("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n"), uint8(2))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 9\r\n\r\nhello\r\n\r\nWARC/1.0\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n"), uint8(3))
	f.Add([]byte("WARC/0.18\nWARC-Type: response\nContent-Length: 3\n\nabc\n\nxyz\nWARC/1.0\nContent-Length: 1\n\nq"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, prefix uint8) {
		if len(b) > 0 && b[0] == 0x1f {
			return // gzip: not skimmed
		}
		sameSkimmed(t, b, 200, int(prefix%64)+1)
	})
}
