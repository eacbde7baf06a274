package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// part is a piece of a test file: a record (maybe with a wrong
// Content-Length) or stray bytes. In a gzipped file each part is one
// member.
type part struct {
	raw   string
	block string // the block the reader should return for it
}

// record builds a record of the given version whose Content-Length is off
// by delta; its block, as the reader returns it when the record stands,
// is body cut to the declared length.
func record(version, id, body string, delta int) part {
	n := len(body) + delta
	raw := version + "\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:" + id + ">\r\n" +
		"Content-Length: " + strconv.Itoa(n) + "\r\n\r\n" + body + "\r\n\r\n"
	return part{raw: raw, block: body[:max(0, min(n, len(body)))]}
}

// page is a record with a small HTTP response as its body.
func page(i, delta int) part {
	body := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>page %d</p></body></html>", i)
	return record("WARC/1.0", strconv.Itoa(i), body, delta)
}

// withTrailer makes part k's expected block end with the record trailer,
// as it does when its length is too long by those 4 bytes.
func withTrailer(ps []part, k int) []part {
	ps[k].block += "\r\n\r\n"
	return ps
}

// want is one result of Next: a record made from parts[part], or an
// error wrapping err at that part's offset.
type want struct {
	part int
	err  error
}

// pages returns n pages, with the length of page k (0-based) off by delta.
func pages(n, k, delta int) []part {
	var ps []part
	for i := range n {
		d := 0
		if i == k {
			d = delta
		}
		ps = append(ps, page(i, d))
	}
	return ps
}

// goodBut lists parts 0..n-1 as records, except part k which is an error
// wrapping err.
func goodBut(n, k int, err error) []want {
	var ws []want
	for i := range n {
		if i == k {
			ws = append(ws, want{i, err})
		} else {
			ws = append(ws, want{i, nil})
		}
	}
	return ws
}

// build writes the parts as a plain or gzipped file and returns it with
// the offset of each part.
func build(t *testing.T, parts []part, gzipped bool) ([]byte, []int64) {
	var file bytes.Buffer
	var offsets []int64
	for _, p := range parts {
		offsets = append(offsets, int64(file.Len()))
		if !gzipped {
			file.WriteString(p.raw)
			continue
		}
		zw := gzip.NewWriter(&file)
		if _, err := io.WriteString(zw, p.raw); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return file.Bytes(), offsets
}

// readAll reads a file to its end: the records and errors, in order.
func readAll(t *testing.T, file []byte, maxBytes int64) (recs []Record, errs []*RecordError, order []bool) {
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	r.SetMaxRecordBytes(maxBytes)
	for range len(file) + 10 {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, errs, order
		}
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("not a RecordError: %v", err)
			}
			errs = append(errs, re)
			order = append(order, false)
			continue
		}
		c := *rec
		c.Block = bytes.Clone(rec.Block)
		recs = append(recs, c)
		order = append(order, true)
	}
	t.Fatal("the reader does not end")
	return
}

// TestResync reads files in which one Content-Length is wrong, or bytes
// are stray or missing, plain and gzipped, and checks every result: at
// most the broken record is lost, and every later record is read.
func TestResync(t *testing.T) {
	archived := "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n" +
		"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nho\r\n\r\n"
	big := strings.Repeat("x", 3000)
	for _, tc := range []struct {
		name     string
		parts    []part
		want     []want
		cut      int    // bytes cut off the end of the file
		gzWant   []want // when the gzipped file differs from the plain one
		maxBytes int64  // 0: the default
		skipped  int64  // bytes skipped in the plain file; -1: don't check
	}{
		{name: "all good", parts: pages(3, -1, 0), want: goodBut(3, -1, nil)},
		{name: "too long into the next record", parts: pages(3, 1, 10), want: goodBut(3, 1, ErrMalformed)},
		{name: "too long over two records", parts: pages(4, 1, 500), want: goodBut(4, 1, ErrMalformed)},
		{name: "too long past the end", parts: pages(3, 2, 10), want: goodBut(3, 2, ErrTruncated), gzWant: goodBut(3, 2, ErrMalformed)},
		{name: "too long by the trailer only", parts: withTrailer(pages(3, 1, 4), 1), want: goodBut(3, -1, nil)},
		{name: "too long into a header's blank line", parts: pages(3, 0, len(page(1, 0).raw)-len(page(1, 0).block)-4), want: goodBut(3, 0, ErrMalformed)},
		{name: "16 records, record 5 too long", parts: pages(16, 4, 37), want: goodBut(16, 4, ErrMalformed)},
		{name: "16 records, record 5 far too long", parts: pages(16, 4, 1<<20), want: goodBut(16, 4, ErrMalformed)},
		{name: "16 records, record 5 too short", parts: pages(16, 4, -37), want: goodBut(16, -1, nil), skipped: 37 + 4},
		{name: "too short by one", parts: pages(3, 0, -1), want: goodBut(3, -1, nil), skipped: 1 + 4},
		{name: "bad length", parts: pages(3, 1, -1000), want: goodBut(3, 1, ErrMalformed), skipped: -1},
		{
			name:    "garbage between records",
			parts:   []part{{raw: page(0, 0).raw + "garbage line\r\nWARC/x\r\n", block: page(0, 0).block}, page(1, 0)},
			want:    goodBut(2, -1, nil),
			skipped: int64(len("garbage line\r\nWARC/x\r\n")),
		},
		{name: "truncated last record", parts: pages(3, -1, 0), cut: 30, want: goodBut(3, 2, ErrTruncated)},
		{
			name:  "WARC/0.18 and WARC/1.1",
			parts: []part{record("WARC/0.18", "a", "zero eighteen", 0), record("WARC/1.1", "b", "one one", 25), record("WARC/0.18", "c", "end", 0)},
			want:  goodBut(3, 1, ErrMalformed),
		},
		{
			name:  "an archived WARC is kept whole",
			parts: []part{page(0, 0), record("WARC/1.0", "a", archived, 0), page(2, 0)},
			want:  goodBut(3, -1, nil),
		},
		{name: "over the limit", parts: []part{page(0, 0), record("WARC/1.0", "big", big, 0), page(2, 0)}, maxBytes: 1000, want: goodBut(3, 1, ErrTooLarge)},
		{name: "over the limit by a wrong length", parts: pages(16, 4, 5000), maxBytes: 1000, want: goodBut(16, 4, ErrMalformed)},
		{name: "over the limit by a length past the end", parts: pages(3, 1, 1<<40), maxBytes: 1000, want: goodBut(3, 1, ErrMalformed)},
		{name: "over the limit, ending inside the next version line", parts: pages(3, 1, 8), maxBytes: int64(len(page(1, 0).block) + 7), want: goodBut(3, 1, ErrMalformed)},
		{name: "over the limit, the rest over it too", parts: pages(200, 0, 1<<40), maxBytes: 400, want: goodBut(200, 0, ErrTooLarge), gzWant: goodBut(200, 0, ErrMalformed)},
	} {
		for _, gzipped := range []bool{false, true} {
			name := tc.name + "/plain"
			if gzipped {
				name = tc.name + "/gzip"
			}
			t.Run(name, func(t *testing.T) {
				file, offsets := build(t, tc.parts, gzipped)
				file = file[:len(file)-tc.cut]
				recs, errs, order := readAll(t, file, tc.maxBytes)
				wants := tc.want
				if gzipped && tc.gzWant != nil {
					wants = tc.gzWant
				}
				if len(order) != len(wants) {
					t.Fatalf("%d results (%d records, errors %v), want %d", len(order), len(recs), errs, len(wants))
				}
				var ri, ei int
				for i, w := range wants {
					at := offsets[w.part]
					if w.err != nil {
						if order[i] {
							t.Fatalf("result %d: record at %d, want an error for part %d", i, recs[ri].Offset, w.part)
						}
						if e := errs[ei]; e.Offset != at || !errors.Is(e, w.err) {
							t.Errorf("result %d: %v, want %v at offset %d", i, e, w.err, at)
						}
						ei++
						continue
					}
					if !order[i] {
						t.Fatalf("result %d: %v, want part %d", i, errs[ei], w.part)
					}
					if rec := recs[ri]; rec.Offset != at || string(rec.Block) != tc.parts[w.part].block {
						t.Errorf("result %d: record at %d with block %.40q, want %d, %.40q", i, rec.Offset, rec.Block, at, tc.parts[w.part].block)
					}
					ri++
				}
				if !gzipped && tc.skipped >= 0 {
					r, _ := NewReader(bytes.NewReader(file))
					r.SetMaxRecordBytes(tc.maxBytes)
					for {
						if _, err := r.Next(); err == io.EOF {
							break
						}
					}
					if r.Skipped() != tc.skipped {
						t.Errorf("skipped %d bytes, want %d", r.Skipped(), tc.skipped)
					}
				}
			})
		}
	}
}
