// Package warc reads WARC files (ISO 28500: WARC/1.0 and 1.1, and the
// older WARC/0.18 of ClueWeb09), plain or gzip-compressed with one gzip
// member per record, as a stream: memory is bounded by the largest record
// kept, not by the file.
//
// A malformed record or a truncated gzip member is reported as a
// *RecordError with its byte offset, and reading goes on with the next
// record where that is possible.
package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// DefaultMaxRecordBytes is the default for Reader.SetMaxRecordBytes.
const DefaultMaxRecordBytes = 64 << 20

// Errors wrapped by RecordError.
var (
	ErrMalformed = errors.New("warc: malformed record")
	ErrTruncated = errors.New("warc: truncated")
	ErrTooLarge  = errors.New("warc: record larger than the limit")
)

// RecordError is a record that could not be read, at a byte offset of the
// file (the offset of its gzip member in a compressed file).
type RecordError struct {
	Offset int64
	Err    error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("warc: record at offset %d: %v", e.Offset, e.Err)
}

// Unwrap returns the cause.
func (e *RecordError) Unwrap() error { return e.Err }

// Field is one header line.
type Field struct{ Name, Value string }

// Record is one WARC record. Block is the record's content block; it is
// only valid until the next call to Next.
type Record struct {
	Offset  int64   // byte offset in the file (of the gzip member when compressed)
	Version string  // "WARC/1.0", "WARC/1.1", "WARC/0.18"
	Fields  []Field // header fields in file order
	Block   []byte
}

// Get returns the value of the first header field named name (case
// insensitive), or "".
func (r *Record) Get(name string) string {
	for _, f := range r.Fields {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Type is WARC-Type, lower-cased.
func (r *Record) Type() string { return strings.ToLower(r.Get("WARC-Type")) }

// TargetURI is WARC-Target-URI without the angle brackets some writers add.
func (r *Record) TargetURI() string {
	return strings.TrimSuffix(strings.TrimPrefix(r.Get("WARC-Target-URI"), "<"), ">")
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Reader reads records one at a time.
type Reader struct {
	cr       *countingReader
	raw      *bufio.Reader // the file
	gz       *gzip.Reader  // current member, when compressed
	body     *bufio.Reader // the decompressed stream of the current member, or raw
	gzipped  bool
	memberAt int64 // offset of the current gzip member
	inMember bool
	maxBytes int64
	done     bool
	rec      Record
	// afterRecord is set after a record was read whole, so that stray
	// bytes before the next one are skipped, not reported.
	afterRecord bool
	skipped     int64
}

// Skipped is the number of stray bytes skipped between records (after a
// record whose Content-Length was too short).
func (r *Reader) Skipped() int64 { return r.skipped }

// NewReader reads WARC records from r, which it never closes. A gzip
// stream is recognised by its magic bytes.
func NewReader(r io.Reader) (*Reader, error) {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	rd := &Reader{cr: cr, raw: br, maxBytes: DefaultMaxRecordBytes}
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("warc: %w", err)
	}
	rd.gzipped = len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if !rd.gzipped {
		rd.body = br
	}
	return rd, nil
}

// SetMaxRecordBytes limits the size of a record's block; a longer record
// is skipped with ErrTooLarge. Zero or less means DefaultMaxRecordBytes.
func (r *Reader) SetMaxRecordBytes(n int64) {
	if n <= 0 {
		n = DefaultMaxRecordBytes
	}
	r.maxBytes = n
}

// offset is the current position in the file.
func (r *Reader) offset() int64 { return r.cr.n - int64(r.raw.Buffered()) }

// Next returns the next record, io.EOF at the end, or a *RecordError for a
// record that could not be read; after a RecordError, Next may be called
// again to continue (it returns io.EOF when nothing more can be read).
func (r *Reader) Next() (*Record, error) {
	for {
		if r.done {
			return nil, io.EOF
		}
		if r.gzipped && !r.inMember {
			if _, err := r.raw.Peek(1); err == io.EOF {
				r.done = true
				return nil, io.EOF
			}
			r.memberAt = r.offset()
			if r.gz == nil {
				gz, err := gzip.NewReader(r.raw)
				if err != nil {
					r.done = true
					return nil, &RecordError{r.memberAt, fmt.Errorf("%w: gzip header: %v", ErrTruncated, err)}
				}
				r.gz = gz
			} else if err := r.gz.Reset(r.raw); err != nil {
				r.done = true
				return nil, &RecordError{r.memberAt, fmt.Errorf("%w: gzip header: %v", ErrTruncated, err)}
			}
			r.gz.Multistream(false)
			if r.body == nil {
				r.body = bufio.NewReaderSize(r.gz, 64<<10)
			} else {
				r.body.Reset(r.gz) // the last record's bytes are copied out already
			}
			r.inMember = true
		}
		start := r.memberAt
		if !r.gzipped {
			start = r.offset()
		}
		rec, err := r.readRecord(start)
		switch {
		case err == io.EOF && r.gzipped:
			r.inMember = false // the member is done: on to the next one
			continue
		case err == io.EOF:
			r.done = true
			return nil, io.EOF
		case err != nil:
			return nil, err
		}
		return rec, nil
	}
}

// readRecord reads one record from the current stream. It returns io.EOF
// when the stream ends cleanly before a record.
func (r *Reader) readRecord(start int64) (*Record, error) {
	// Skip blank lines between records.
	var line []byte
	var err error
	for {
		line, err = readLine(r.body)
		if err != nil {
			if err == io.EOF && len(line) == 0 {
				return nil, io.EOF
			}
			return nil, r.fail(start, fmt.Errorf("%w: %v", ErrTruncated, err))
		}
		if len(bytes.TrimSpace(line)) > 0 {
			break
		}
		if !r.gzipped {
			start = r.offset()
		}
	}
	version := string(bytes.TrimSpace(line))
	if !strings.HasPrefix(version, "WARC/") && !r.gzipped && r.afterRecord {
		// Stray bytes after a record: its Content-Length was too short (a
		// known fault of some writers). Skip to the next version line and
		// count what was skipped rather than fail the next record.
		r.skipped += int64(len(line)) + 1
		for {
			peek, err := r.body.Peek(5)
			if err != nil {
				r.done = true
				return nil, io.EOF
			}
			if string(peek) == "WARC/" {
				break
			}
			l, err := readLine(r.body)
			r.skipped += int64(len(l)) + 1
			if err != nil {
				r.done = true
				return nil, io.EOF
			}
		}
		start = r.offset()
		if line, err = readLine(r.body); err != nil {
			return nil, r.fail(start, fmt.Errorf("%w: %v", ErrTruncated, err))
		}
		version = string(bytes.TrimSpace(line))
	}
	r.afterRecord = false
	if !strings.HasPrefix(version, "WARC/") {
		return nil, r.resync(start, fmt.Errorf("%w: want a WARC/ version line, got %q", ErrMalformed, truncate(version, 40)))
	}
	rec := &r.rec
	*rec = Record{Offset: start, Version: version, Fields: rec.Fields[:0]}
	for {
		line, err = readLine(r.body)
		if err != nil {
			return nil, r.fail(start, fmt.Errorf("%w: in the header: %v", ErrTruncated, err))
		}
		if len(bytes.TrimSpace(line)) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			// A continuation line (WARC/0.18 and RFC 822 folding).
			if n := len(rec.Fields); n > 0 {
				rec.Fields[n-1].Value += " " + string(bytes.TrimSpace(line))
			}
			continue
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, r.resync(start, fmt.Errorf("%w: header line without a colon: %q", ErrMalformed, truncate(string(line), 40)))
		}
		rec.Fields = append(rec.Fields, Field{Name: string(bytes.TrimSpace(name)), Value: string(bytes.TrimSpace(value))})
	}
	cl := rec.Get("Content-Length")
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 {
		return nil, r.resync(start, fmt.Errorf("%w: bad Content-Length %q", ErrMalformed, cl))
	}
	if n > r.maxBytes {
		if _, err := io.CopyN(io.Discard, r.body, n); err != nil {
			return nil, r.fail(start, fmt.Errorf("%w: %v", ErrTruncated, err))
		}
		return nil, &RecordError{start, fmt.Errorf("%w: %d bytes", ErrTooLarge, n)}
	}
	if int64(cap(rec.Block)) >= n {
		rec.Block = rec.Block[:n]
	} else {
		rec.Block = make([]byte, n)
	}
	if _, err := io.ReadFull(r.body, rec.Block); err != nil {
		return nil, r.fail(start, fmt.Errorf("%w: block of %d bytes: %v", ErrTruncated, n, err))
	}
	r.afterRecord = true
	if r.gzipped {
		// Read on to the end of the member (or to the next record in it),
		// so that a member whose end is cut off is an error, not a record.
		for {
			b, err := r.body.Peek(1)
			if err == io.EOF {
				r.inMember = false // the gzip trailer checked out
				break
			}
			if err != nil {
				return nil, r.fail(start, fmt.Errorf("%w: after the block: %v", ErrTruncated, err))
			}
			if b[0] != '\r' && b[0] != '\n' {
				break // another record in the same member
			}
			r.body.ReadByte()
		}
	}
	return rec, nil
}

// fail reports an error after which nothing more can be read.
func (r *Reader) fail(start int64, err error) error {
	// A truncated member or file leaves the stream at an unknown position:
	// nothing after it can be read reliably.
	r.done = true
	return &RecordError{start, err}
}

// resync reports a malformed record and moves to where the next record
// may start: the next gzip member, or the next line that starts with
// "WARC/" in a plain file.
func (r *Reader) resync(start int64, err error) error {
	if r.gzipped {
		// Drain the member; the next call starts the next one.
		if _, cerr := io.Copy(io.Discard, r.body); cerr != nil {
			r.done = true
		}
		r.inMember = false
		return &RecordError{start, err}
	}
	for {
		peek, perr := r.body.Peek(5)
		if perr != nil {
			r.done = true
			break
		}
		if string(peek) == "WARC/" {
			break
		}
		if _, lerr := readLine(r.body); lerr != nil {
			r.done = true
			break
		}
	}
	return &RecordError{start, err}
}

// readLine reads one line with its end removed (LF or CRLF). A final line
// without a line end is returned with io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A very long line: collect it.
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = br.ReadSlice('\n')
			buf = append(buf, line...)
			if len(buf) > 1<<20 {
				return nil, fmt.Errorf("line longer than 1 MiB")
			}
		}
		line = buf
	}
	if err != nil {
		if err == io.EOF && len(line) > 0 {
			return bytes.TrimRight(line, "\r\n"), io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
