package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"testing"
)

// result is one result of Next, copied.
type result struct {
	offset int64
	block  []byte // nil for an error
	err    error
}

// readChecked reads a file to its end and checks what holds for any
// input: Next ends with io.EOF, in a bounded number of calls; every other
// error is a *RecordError; offsets increase (stay the same within a gzip
// member) and point into the file; no block is over the limit, and the
// bytes pushed back stay within the limit and the buffers.
func readChecked(t *testing.T, file []byte, maxBytes int64, calls int) []result {
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		return nil
	}
	r.SetMaxRecordBytes(maxBytes)
	var out []result
	for range calls {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if len(r.src.pend) > int(r.maxBytes)+256<<10 {
			t.Fatalf("%d bytes pushed back, limit %d", len(r.src.pend), r.maxBytes)
		}
		res := result{err: err}
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("not a RecordError: %v", err)
			}
			res.offset = re.Offset
		} else {
			if int64(len(rec.Block)) > r.maxBytes {
				t.Fatalf("block of %d bytes, limit %d", len(rec.Block), r.maxBytes)
			}
			res.offset, res.block = rec.Offset, bytes.Clone(rec.Block)
		}
		if res.offset < 0 || res.offset >= int64(max(len(file), 1)) {
			t.Fatalf("offset %d in a file of %d bytes", res.offset, len(file))
		}
		if n := len(out); n > 0 {
			if last := out[n-1].offset; res.offset < last || !r.gzipped && res.offset == last {
				t.Fatalf("offset %d after %d", res.offset, last)
			}
		}
		out = append(out, res)
	}
	t.Fatalf("the reader does not end after %d calls", calls)
	return nil
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n"))
	f.Add([]byte("WARC/0.18\nWARC-Type: response\nContent-Length: 3\n\nabc\n\n"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		// A gzip stream decompresses to at most about 1032 times its size.
		readChecked(t, b, 0, len(b)*1100+10)
	})
}

// header is where a record's Content-Length value sits in a file.
type header struct {
	offset     int64 // of the record
	valueStart int   // of the Content-Length value
	valueEnd   int
	length     int64 // the block's length, as declared
	blockStart int
}

// lengthField finds the Content-Length value of the record at off: the
// first field of that name in its header.
func lengthField(data []byte, off int64) (header, bool) {
	i := int(off)
	for first := true; i < len(data); first = false {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			return header{}, false
		}
		line := data[i : i+end]
		if len(bytes.TrimSpace(line)) == 0 && !first {
			return header{}, false
		}
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && !first && bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			v := bytes.TrimSpace(value)
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return header{}, false
			}
			vs := i + len(name) + 1 + bytes.Index(value, v)
			h := header{off, vs, vs + len(v), n, 0}
			for i += end + 1; i < len(data); i += end + 1 {
				if end = bytes.IndexByte(data[i:], '\n'); end < 0 {
					return header{}, false
				}
				if len(bytes.TrimSpace(data[i:i+end])) == 0 {
					h.blockStart = i + end + 1
					return h, true
				}
			}
			return header{}, false
		}
		i += end + 1
	}
	return header{}, false
}

// clean tells whether a file read without errors into recs has a version
// line at each record start and nowhere else, a blank line before each
// record but the first, and nothing stray: then a wrong length in one
// record can be checked against the model in FuzzCorruptLength.
func clean(data []byte, recs []result, skipped int64) bool {
	if skipped != 0 {
		return false
	}
	lines := 0
	for i := 0; ; i++ {
		j := bytes.Index(data[i:], []byte("WARC/"))
		if j < 0 {
			break
		}
		i += j
		if ok, _ := versionLine(data[i:]); ok {
			lines++
		}
	}
	if lines != len(recs) {
		return false
	}
	for k, rec := range recs {
		if rec.err != nil {
			return false
		}
		before := data[:rec.offset]
		if k > 0 && !bytes.HasSuffix(before, []byte("\n\n")) && !bytes.HasSuffix(before, []byte("\n\r\n")) {
			return false
		}
	}
	return true
}

// FuzzCorruptLength starts from real records (testdata/fuzz holds some
// from the shared WARC files) and changes the Content-Length of record
// index by delta; the file is read plain, or gzipped with one member per
// record. Beyond the invariants of readChecked, when the file is clean
// (see clean) the result must be exactly: the records before the broken
// one, one result for it at its offset, and every later record, except
// those that a too long but consistent length takes into its block.
func FuzzCorruptLength(f *testing.F) {
	f.Add([]byte(page(0, 0).raw+page(1, 0).raw+page(2, 0).raw), uint8(1), int64(10), uint16(0), false)
	f.Add([]byte(page(0, 0).raw+page(1, 0).raw+page(2, 0).raw), uint8(0), int64(-7), uint16(100), true)
	old := record("WARC/0.18", "a", "abc", 0).raw + record("WARC/0.18", "b", "defgh", 0).raw + record("WARC/1.1", "c", "ij", 0).raw
	f.Add([]byte(old), uint8(0), int64(9), uint16(0), false)
	f.Fuzz(func(t *testing.T, data []byte, index uint8, delta int64, limit uint16, gzipped bool) {
		maxBytes := int64(limit)
		if maxBytes == 0 {
			maxBytes = DefaultMaxRecordBytes
		}
		calls := 2*len(data) + 10
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return // the test gzips the records itself
		}
		orig := readChecked(t, data, maxBytes, calls)
		if len(orig) == 0 {
			return
		}
		k := int(index) % len(orig)
		h, ok := lengthField(data, orig[k].offset)
		if !ok || orig[k].err != nil {
			return
		}
		n := h.length + delta
		if delta > 0 && n < h.length || delta < 0 && n > h.length {
			return // overflow
		}
		value := strconv.FormatInt(n, 10)
		shift := int64(len(value) - (h.valueEnd - h.valueStart))
		mutated := append(append(append([]byte(nil), data[:h.valueStart]...), value...), data[h.valueEnd:]...)
		// starts are where each record starts in the mutated file; in a
		// gzipped one, each is a member that reaches to the next.
		starts := make([]int64, len(orig))
		for i, o := range orig {
			starts[i] = o.offset
			if i > k {
				starts[i] += shift
			}
		}
		file := mutated
		if gzipped {
			starts[0] = 0
			var buf bytes.Buffer
			for i, s := range starts {
				end := int64(len(mutated))
				if i+1 < len(starts) {
					end = starts[i+1]
				}
				starts[i] = int64(buf.Len())
				zw := gzip.NewWriter(&buf)
				zw.Write(mutated[s:end])
				zw.Close()
			}
			file = buf.Bytes()
		}
		got := readChecked(t, file, maxBytes, calls+len(file))
		if !clean(data, orig, skippedOf(data, maxBytes)) {
			return
		}
		// The records after the broken one that are read: all of them, or
		// when its declared end is consistent (and inside the file), those
		// from there on.
		next := k + 1
		if end := int64(h.blockStart) + shift + n; !gzipped && n >= 0 && end <= int64(len(mutated)) && fits(mutated[end:]) {
			for next < len(orig) && starts[next] < end {
				next++
			}
		}
		var want []int
		for i := range orig {
			if i < k || i >= next || i == k {
				want = append(want, i)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d results, want %d: records %v then %d on (starts %v), got %v", len(got), len(want), want, next, starts, offsetsOf(got))
		}
		for j, i := range want {
			if got[j].offset != starts[i] {
				t.Fatalf("result %d at offset %d, want %d", j, got[j].offset, starts[i])
			}
			if i != k && (got[j].err != nil || !bytes.Equal(got[j].block, orig[i].block)) {
				t.Fatalf("result %d (record %d): %v, block %.40q, want %.40q", j, i, got[j].err, got[j].block, orig[i].block)
			}
		}
	})
}

// fits tells whether the bytes after a block show that its length is
// right: line ends, then a version line or nothing.
func fits(rest []byte) bool {
	i := 0
	for i < len(rest) && (rest[i] == '\r' || rest[i] == '\n') {
		i++
	}
	ok, _ := versionLine(rest[i:])
	return ok || i == len(rest)
}

// skippedOf reads a file and returns Reader.Skipped.
func skippedOf(data []byte, maxBytes int64) int64 {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return -1
	}
	r.SetMaxRecordBytes(maxBytes)
	for range 2*len(data) + 10 {
		if _, err := r.Next(); err == io.EOF {
			break
		}
	}
	return r.Skipped()
}

func offsetsOf(rs []result) []int64 {
	var o []int64
	for _, r := range rs {
		o = append(o, r.offset)
	}
	return o
}
