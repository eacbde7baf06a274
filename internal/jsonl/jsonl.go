// Package jsonl reads JSON Lines.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// MaxLine is the longest line Scan reads.
const MaxLine = 256 << 20

// Scan calls fn with the number (from 1) and the bytes, trimmed, of every
// non-empty line of r. b is valid only during the call. It stops at the
// first error of fn, returned as it is, or of reading, returned after
// name (the file's).
func Scan(r io.Reader, name string, fn func(line int, b []byte) error) error {
	return ScanLimit(r, name, MaxLine, func(line int, b []byte, long bool) error {
		if long {
			return fmt.Errorf("%s: line %d: %w", name, line, bufio.ErrTooLong)
		}
		return fn(line, b)
	})
}

// ScanLimit is Scan with a bound on a line: a line longer than limit
// bytes (counted before trimming) is not kept: fn gets its number
// and a nil b with long set, and reading goes on at the next line, so
// memory stays within limit whatever the input. limit <= 0 means MaxLine.
func ScanLimit(r io.Reader, name string, limit int, fn func(line int, b []byte, long bool) error) error {
	return ScanOffsets(r, name, limit, func(line int, _ int64, _ int, b []byte, long bool) error {
		return fn(line, b, long)
	})
}

// ScanOffsets is ScanLimit that also gives where each line is: the
// offset of its first byte in r and its length without the line break
// (untrimmed), so that a reader of the same bytes can read it back.
func ScanOffsets(r io.Reader, name string, limit int, fn func(line int, off int64, n int, b []byte, long bool) error) error {
	if limit <= 0 {
		limit = MaxLine
	}
	br := bufio.NewReaderSize(r, 1<<16)
	var buf []byte
	var off int64
	for line := 1; ; line++ {
		buf = buf[:0]
		long := false
		start, size := off, 0
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			off += int64(len(chunk))
			n := len(chunk)
			if n > 0 && chunk[n-1] == '\n' {
				n-- // the line break is no part of the line
			}
			size += n
			if !long {
				if len(buf)+n > limit {
					long, buf = true, buf[:0]
				} else {
					buf = append(buf, chunk[:n]...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: %w", name, err)
		}
		switch b := bytes.TrimSpace(buf); {
		case long:
			if ferr := fn(line, start, size, nil, true); ferr != nil {
				return ferr
			}
		case len(b) > 0:
			if ferr := fn(line, start, size, b, false); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// ReadFile decodes every non-empty line of a JSONL file into a new T.
func ReadFile[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read[T](f, path)
}

// Read decodes every non-empty line of r into a new T; name is r's name
// in errors.
func Read[T any](r io.Reader, name string) ([]T, error) {
	var out []T
	err := Scan(r, name, func(line int, b []byte) error {
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, v)
		return nil
	})
	return out, err
}
