package warc

// How the reader finds the next record when a Content-Length does not
// fit; the rule is in the package comment.

import (
	"bytes"
	"fmt"
	"io"
)

// source reads pend, then r. A block that ran past the next record is
// pushed back into pend, so that reading restarts inside it.
type source struct {
	pend []byte
	r    io.Reader
	err  error // the last error from r: io.EOF is a clean end
}

func (s *source) Read(p []byte) (int, error) {
	if len(s.pend) > 0 {
		n := copy(p, s.pend)
		s.pend = s.pend[n:]
		return n, nil
	}
	n, err := s.r.Read(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// pushback makes b the next bytes read, before what the reader holds
// already. b may be a block that the next call to Next overwrites: it is
// copied.
func (r *Reader) pushback(b []byte) {
	buffered, _ := r.body.Peek(r.body.Buffered())
	pend := make([]byte, 0, len(b)+len(buffered)+len(r.src.pend))
	pend = append(append(append(pend, b...), buffered...), r.src.pend...)
	r.src.pend, r.src.err = pend, nil
	r.body.Reset(r.src)
}

// Limits of a version line as versionLine reads it: so that it is
// decided within a few bytes.
const (
	maxVersionDigits = 4  // in each of the two numbers
	maxVersionBlanks = 8  // spaces, tabs and CRs before the LF
	startLookahead   = 32 // bytes that always decide a version line
)

// versionLine reports whether b starts with a WARC version line: "WARC/",
// 1 to 4 digits, ".", 1 to 4 digits, up to 8 spaces, tabs or CRs, and LF.
// This covers WARC/1.0, WARC/1.1 and WARC/0.18. more says that b ends
// before this can be decided.
func versionLine(b []byte) (ok, more bool) {
	const prefix = "WARC/"
	if n := min(len(b), len(prefix)); string(b[:n]) != prefix[:n] {
		return false, false
	}
	i := len(prefix)
	for part := range 2 {
		d := 0
		for i < len(b) && d < maxVersionDigits && b[i] >= '0' && b[i] <= '9' {
			i, d = i+1, d+1
		}
		if i >= len(b) {
			return false, true
		}
		if d == 0 {
			return false, false
		}
		if part == 0 {
			if b[i] != '.' {
				return false, false
			}
			i++
		}
	}
	for blanks := 0; i < len(b) && blanks < maxVersionBlanks && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r'); blanks++ {
		i++
	}
	if i >= len(b) {
		return false, true
	}
	return b[i] == '\n', false
}

// cutVersion reports whether b, which the end of the stream cuts, is the
// start of a version line long enough to call it one ("WARC/" at least):
// a record that is truncated, and reported as such.
func cutVersion(b []byte) bool {
	_, more := versionLine(b)
	return more && len(b) >= len("WARC/")
}

// findStart returns the index in b of the first version line that follows
// a blank line (an empty line, or one holding only CR), or -1. lineStart
// says whether b[0] starts a line; next is what follows b in the stream,
// to decide on a version line that the end of b cuts.
func findStart(b []byte, lineStart bool, next []byte) int {
	prev := -1 // the last LF seen
	if !lineStart {
		prev = -2 // no line start known before the first LF
	}
	for {
		j := bytes.IndexByte(b[max(prev+1, 0):], '\n')
		if j < 0 {
			return -1
		}
		nl := max(prev+1, 0) + j
		blank := prev >= -1 && (nl == prev+1 || nl == prev+2 && b[nl-1] == '\r')
		prev = nl
		k := nl + 1
		if !blank || k >= len(b) {
			continue
		}
		ok, more := versionLine(b[k:])
		if more && len(next) > 0 {
			ok, _ = versionLine(append(b[k:len(b):len(b)], next...))
		}
		if ok {
			return k
		}
	}
}

// skipToRecord discards bytes up to the next version line at the start of
// a line (lineStart says whether the reader is at one), adding them to
// skipped. At the end of the stream it stops there; it returns an error
// only when the stream is broken.
func (r *Reader) skipToRecord(lineStart bool) error {
	for {
		p, err := r.body.Peek(r.body.Size())
		if err != nil && err != io.EOF {
			return err
		}
		i, decided := 0, true
		if !lineStart {
			i = -1
		}
		for i < len(p) {
			if i >= 0 {
				ok, more := versionLine(p[i:])
				if ok || err != nil && cutVersion(p[i:]) {
					r.discard(i)
					return nil
				}
				if more && err == nil {
					decided = false // the buffer ends too soon: read on from i
					break
				}
			}
			j := bytes.IndexByte(p[i+1:], '\n')
			if j < 0 {
				i = len(p)
				break
			}
			i += j + 2
		}
		if !decided {
			r.discard(i)
			lineStart = true
			continue
		}
		r.discard(len(p))
		lineStart = len(p) > 0 && p[len(p)-1] == '\n'
		if err != nil {
			return nil // the end
		}
	}
}

// discard skips n buffered bytes that belong to no record.
func (r *Reader) discard(n int) {
	r.body.Discard(n)
	r.skipped += int64(n)
}

// ending looks past a block: it returns the length of the run of line
// ends there, and whether a version line or the clean end of the stream
// follows the run.
func (r *Reader) ending() (run int, ok bool, err error) {
	size := r.body.Size()
	for n := 64; ; n = min(2*n, size) {
		p, perr := r.body.Peek(n)
		if perr != nil && perr != io.EOF {
			return 0, false, perr
		}
		run = 0
		for run < len(p) && (p[run] == '\r' || p[run] == '\n') {
			run++
		}
		switch {
		case run == len(p) && perr == io.EOF:
			return run, true, nil
		case run < len(p):
			vok, more := versionLine(p[run:])
			if !more || perr == io.EOF || n == size {
				return run, vok || perr == io.EOF && cutVersion(p[run:]), nil
			}
		case n == size: // a buffer of line ends
			return run, false, nil
		}
	}
}

// checkEnd looks past a block of n bytes, read to its declared end, and
// moves to the next record. restart returns the bytes of the block from
// where a record starts inside it, or nil. checkEnd returns good when the
// record stands (its length fits, or no record starts inside its block
// and stray bytes follow it), else a *RecordError.
func (r *Reader) checkEnd(start, n int64, restart func() []byte, good error) error {
	run, ok, err := r.ending()
	switch {
	case err != nil:
		return r.fail(start, fmt.Errorf("%w: after the block: %v", ErrTruncated, err))
	case ok:
		r.body.Discard(run)
		return good
	}
	if b := restart(); b != nil {
		r.pushback(b)
		return &RecordError{start, fmt.Errorf("%w: Content-Length %d runs past the next record", ErrMalformed, n)}
	}
	// The length was too short, or stray bytes follow the record. The
	// line ends right after the block are not counted as stray. The bytes
	// after them are no version line, so whether they start a line does
	// not matter. A broken stream shows again on the next call to Next.
	r.body.Discard(run)
	r.skipToRecord(false)
	return good
}

// pastEnd reports a block of n bytes that its stream ended in, with the
// read error rerr. restart is the bytes of the block from the first record
// start inside it, or nil. When the stream ended cleanly, reading restarts
// there, or goes on with the next gzip member: the length was wrong.
func (r *Reader) pastEnd(start, n int64, restart []byte, rerr error) error {
	if r.src.err == io.EOF {
		switch {
		case restart != nil:
			r.pushback(restart)
			return &RecordError{start, fmt.Errorf("%w: Content-Length %d runs past the next record", ErrMalformed, n)}
		case r.gzipped:
			r.inMember = false
			return &RecordError{start, fmt.Errorf("%w: Content-Length %d runs past the end of the gzip member", ErrMalformed, n)}
		}
	}
	return r.cut(start, rerr, fmt.Errorf("%w: block of %d bytes: %v", ErrTruncated, n, rerr))
}

// blockFits reads past a block held in block and moves to the next
// record. It returns nil when the record stands.
func (r *Reader) blockFits(start int64, block []byte) error {
	return r.checkEnd(start, int64(len(block)), func() []byte {
		next, _ := r.body.Peek(startLookahead)
		if i := findStart(block, true, next); i >= 0 {
			return block[i:]
		}
		return nil
	}, nil)
}

// skipLarge reads past a block of n bytes, over the limit, without keeping
// it; the record is an ErrTooLarge error. In case the length is wrong, it
// keeps the bytes of the block from the first record start inside it (see
// findStart), up to the limit: if they reach the limit, reading restarts
// at that record start without reading the block to its declared end.
func (r *Reader) skipLarge(start, n int64) error {
	tooLarge := &RecordError{start, fmt.Errorf("%w: %d bytes", ErrTooLarge, n)}
	if r.scratch == nil {
		r.scratch = make([]byte, 32<<10)
	}
	// A window is the last bytes of the chunk before (enough to hold a
	// blank line and a version line) and the chunk.
	const carry = 3 + startLookahead
	window := make([]byte, 0, carry+len(r.scratch))
	var hold []byte
	for left := n; left > 0; {
		k, err := io.ReadFull(r.body, r.scratch[:min(left, int64(len(r.scratch)))])
		left -= int64(k)
		chunk := r.scratch[:k]
		if hold != nil {
			hold = append(hold, chunk...)
		} else {
			lineStart := len(window) == 0 // the block starts a line
			window = append(window, chunk...)
			var next []byte // what follows the block, for a version line it cuts
			if left == 0 && err == nil {
				next, _ = r.body.Peek(startLookahead)
			}
			if i := findStart(window, lineStart, next); i >= 0 {
				hold = append([]byte(nil), window[i:]...)
			}
			window = append(window[:0], window[max(0, len(window)-carry):]...)
		}
		if err != nil {
			return r.pastEnd(start, n, hold, err)
		}
		if left > 0 && int64(len(hold)) > r.maxBytes {
			r.pushback(hold)
			return &RecordError{start, fmt.Errorf("%w: %d bytes, with a record start inside", ErrTooLarge, n)}
		}
	}
	return r.checkEnd(start, n, func() []byte { return hold }, tooLarge)
}
