// Package warc reads WARC files (ISO 28500: WARC/1.0 and 1.1, and the
// older WARC/0.18 of ClueWeb09), plain or gzip-compressed with one gzip
// member per record, as a stream: memory is bounded by the largest record
// kept, not by the file.
//
// A malformed record or a truncated gzip member is reported as a
// *RecordError with its byte offset, and reading goes on with the next
// record where that is possible.
//
// # Content-Length that does not fit
//
// A record is read by its Content-Length. The length is trusted when the
// bytes after the block are a run of line ends (the "\r\n\r\n" trailer,
// or any number of CR and LF) followed by a version line ("WARC/1.0",
// "WARC/1.1", "WARC/0.18": "WARC/", digits, ".", digits, a line end) or by
// the end of the file or gzip member. A block that holds an archived WARC
// file is then read whole, since its declared end is consistent.
//
// Otherwise the length is inconsistent:
//
//  1. Too long: the first version line inside the block that follows a
//     blank line ("\r\n\r\n" or "\n\n") is the next record. The broken
//     record is a *RecordError and reading restarts at that line. The same
//     holds when the file or member ends inside the declared block (with
//     no record start inside it, the record is a truncated one).
//  2. Too short, or stray bytes between records: when no record starts
//     inside the block, the record is kept with its declared block, and
//     the bytes after it are skipped up to the next version line at the
//     start of a line ([Reader.Skipped] counts them). Some writers get
//     the length a few bytes short (pywb's example.warc has one).
//
// A Content-Length that is no number is a *RecordError, and reading skips
// forward to the next version line at the start of a line.
//
// In a gzipped file the member boundary bounds all of this: a length that
// runs past the end of its member loses that record only, and the next
// member is read as usual. So a wrong Content-Length costs at most its
// own record. These cases cannot be told apart from a right length, or
// from a short one, and are not caught: a length too long by exactly the
// size of the records that follow it (they are read as part of its
// block); a length too long whose next record does not follow a blank
// line (the record keeps the next one's bytes, and reading resumes at the
// next version line after its declared end); and a block that holds an
// archived WARC file and whose length is also wrong (the archived records
// come out). A block over the limit (see [Reader.SetMaxRecordBytes]) is
// not kept, but the bytes from the first record start inside it are, up
// to the limit, in case its length is wrong.
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
	// Size is the block's length (its Content-Length). Block is shorter
	// only when the reader skims (Reader.Skim): then it is the block's
	// first bytes.
	Size int64
}

// Partial reports whether Block is only the first bytes of the block.
func (r *Record) Partial() bool { return int64(len(r.Block)) < r.Size }

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
	src      *source       // raw or gz, after bytes pushed back
	body     *bufio.Reader // reads src
	gzipped  bool
	memberAt int64 // offset of the current gzip member
	inMember bool
	maxBytes int64
	done     bool
	rec      Record
	scratch  []byte // for blocks over the limit
	skipped  int64
	own      bool // every Block a new buffer (SetOwnBlocks)
	// Skimming (Skim): the file, its size, and how many first bytes of
	// each block are read.
	file   io.Seeker
	size   int64
	prefix int64
}

// Skim makes Next read only the first prefix bytes of each longer block
// and seek past the rest, when the reader reads a plain (not gzipped)
// file it can seek in; it reports whether it will. Records, their
// offsets and their errors stay what a full reading gives: a block whose
// declared end is not followed by the next record or the end of the
// file (see the package comment) is read whole, as always. Zero or less
// reads whole blocks again.
func (r *Reader) Skim(prefix int) bool {
	r.prefix = 0
	sk, ok := r.cr.r.(io.Seeker)
	if prefix <= 0 || !ok || r.gzipped {
		return false
	}
	cur, err := sk.Seek(0, io.SeekCurrent)
	if err != nil {
		return false
	}
	size, err := sk.Seek(0, io.SeekEnd)
	if err != nil {
		return false
	}
	if _, err := sk.Seek(cur, io.SeekStart); err != nil {
		r.done = true // the reader no longer knows where it is
		return false
	}
	r.file, r.size, r.prefix = sk, size, int64(prefix)
	return true
}

// seekTo moves a plain file's reading to the byte at pos, dropping what
// the buffers hold.
func (r *Reader) seekTo(pos int64) error {
	if _, err := r.file.Seek(pos, io.SeekStart); err != nil {
		return err
	}
	r.cr.n = pos
	r.raw.Reset(r.cr)
	*r.src = source{r: r.raw}
	r.body.Reset(r.src)
	return nil
}

// skim reads the first r.prefix bytes of a block of n bytes into rec and
// seeks past the rest; ok is false, with the reading back at the block's
// start, when the block must be read whole: its end is past the file's,
// or is not followed by the next record or the file's end.
func (r *Reader) skim(start int64, rec *Record, n int64) (ok bool, err error) {
	at := r.offset()
	if len(r.src.pend) > 0 || at+n > r.size {
		return false, nil // inside a pushed-back block, or cut short
	}
	if int64(cap(rec.Block)) >= r.prefix && !r.own {
		rec.Block = rec.Block[:r.prefix]
	} else {
		rec.Block = make([]byte, r.prefix)
	}
	if _, err := io.ReadFull(r.body, rec.Block); err != nil {
		return false, r.seekTo(at)
	}
	if err := r.seekTo(at + n); err != nil {
		return false, err
	}
	if run, fits, err := r.ending(); err == nil && fits {
		r.body.Discard(run)
		return true, nil
	}
	return false, r.seekTo(at)
}

// SetOwnBlocks makes every record's Block a new buffer that the caller
// may keep (and ParseResponseOwned alias) after the next call to Next,
// instead of a buffer reused from record to record.
func (r *Reader) SetOwnBlocks(own bool) { r.own = own }

// Skipped is the number of stray bytes skipped between records: after a
// block and its line ends, bytes that are no record (see the package
// comment), or after a malformed record while looking for the next one.
func (r *Reader) Skipped() int64 { return r.skipped }

// NewReader reads WARC records from r, which it never closes. A gzip
// stream is recognised by its magic bytes.
func NewReader(r io.Reader) (*Reader, error) {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	rd := &Reader{cr: cr, raw: br, maxBytes: DefaultMaxRecordBytes, src: &source{}}
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("warc: %w", err)
	}
	rd.gzipped = len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if !rd.gzipped {
		rd.src.r = br
	}
	rd.body = bufio.NewReaderSize(rd.src, 64<<10)
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

// offset is the current position in the file: of the next byte of the
// file in a gzipped file, and of the next byte Next reads in a plain one.
func (r *Reader) offset() int64 {
	n := r.cr.n - int64(r.raw.Buffered())
	if !r.gzipped {
		n -= int64(len(r.src.pend) + r.body.Buffered())
	}
	return n
}

// Next returns the next record, io.EOF at the end, or a *RecordError for a
// record that could not be read; after a RecordError, Next may be called
// again to continue (it returns io.EOF when nothing more can be read).
func (r *Reader) Next() (*Record, error) {
	for {
		if r.done {
			return nil, io.EOF
		}
		if r.gzipped && !r.inMember {
			if err := r.nextMember(); err != nil {
				return nil, err
			}
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

// nextMember starts reading the next gzip member.
func (r *Reader) nextMember() error {
	if _, err := r.raw.Peek(1); err == io.EOF {
		r.done = true
		return io.EOF
	}
	r.memberAt = r.offset()
	var err error
	if r.gz == nil {
		r.gz, err = gzip.NewReader(r.raw)
	} else {
		err = r.gz.Reset(r.raw)
	}
	if err != nil {
		r.done = true
		return &RecordError{r.memberAt, fmt.Errorf("%w: gzip header: %v", ErrTruncated, err)}
	}
	r.gz.Multistream(false)
	*r.src = source{r: r.gz}
	r.body.Reset(r.src) // the last record's bytes are copied out already
	r.inMember = true
	return nil
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
			return nil, r.cut(start, err, fmt.Errorf("%w: %v", ErrTruncated, err))
		}
		if len(bytes.TrimSpace(line)) > 0 {
			break
		}
		if !r.gzipped {
			start = r.offset()
		}
	}
	version := string(bytes.TrimSpace(line))
	if !strings.HasPrefix(version, "WARC/") {
		return nil, r.resync(start, fmt.Errorf("%w: want a WARC/ version line, got %q", ErrMalformed, truncate(version, 40)), true)
	}
	rec := &r.rec
	*rec = Record{Offset: start, Version: version, Fields: rec.Fields[:0]}
	for {
		line, err = readLine(r.body)
		if err != nil {
			return nil, r.cut(start, err, fmt.Errorf("%w: in the header: %v", ErrTruncated, err))
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
			return nil, r.resync(start, fmt.Errorf("%w: header line without a colon: %q", ErrMalformed, truncate(string(line), 40)), true)
		}
		rec.Fields = append(rec.Fields, Field{Name: string(bytes.TrimSpace(name)), Value: string(bytes.TrimSpace(value))})
	}
	cl := rec.Get("Content-Length")
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 {
		return nil, r.resync(start, fmt.Errorf("%w: bad Content-Length %q", ErrMalformed, cl), true)
	}
	if n > r.maxBytes {
		return nil, r.skipLarge(start, n)
	}
	rec.Size = n
	if r.prefix > 0 && n > r.prefix {
		switch ok, err := r.skim(start, rec, n); {
		case err != nil:
			return nil, r.fail(start, fmt.Errorf("warc: seeking: %w", err))
		case ok:
			return rec, nil
		}
	}
	if int64(cap(rec.Block)) >= n && !r.own {
		rec.Block = rec.Block[:n]
	} else {
		rec.Block = make([]byte, n)
	}
	if k, err := io.ReadFull(r.body, rec.Block); err != nil {
		var restart []byte
		if i := findStart(rec.Block[:k], true, nil); i >= 0 {
			restart = rec.Block[i:k]
		}
		return nil, r.pastEnd(start, n, restart, err)
	}
	if err := r.blockFits(start, rec.Block); err != nil {
		return nil, err
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

// cut reports a record that a read error rerr cut short. At the clean end
// of a gzip member, reading goes on with the next member; at the end of a
// plain file, or after a broken member, nothing more can be read. An error
// that is no end (a line too long) is malformed input: reading goes on
// at the next record.
func (r *Reader) cut(start int64, rerr, err error) error {
	ended := rerr == io.EOF || rerr == io.ErrUnexpectedEOF
	switch {
	case !ended && (r.src.err == nil || r.src.err == io.EOF):
		return r.resync(start, err, false)
	case ended && r.gzipped && r.src.err == io.EOF:
		r.inMember = false
		return &RecordError{start, err}
	}
	return r.fail(start, err)
}

// resync reports a malformed record and moves to where the next record
// may start: the next version line at the start of a line, or the end of
// the gzip member. lineStart says whether the reader is at a line start.
func (r *Reader) resync(start int64, err error, lineStart bool) error {
	if serr := r.skipToRecord(lineStart); serr != nil {
		r.done = true
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
