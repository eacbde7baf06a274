package warc

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// ErrNotHTTP is returned by ParseResponse for a block that does not start
// with an HTTP status line.
var ErrNotHTTP = errors.New("warc: not an HTTP response")

// Response is the HTTP response inside a response record.
type Response struct {
	StatusCode int
	Status     string               // the status line after the protocol, e.g. "200 OK"
	Header     textproto.MIMEHeader // canonical header names
	Body       []byte               // de-chunked, and decoded when its Content-Encoding is real
	// Decoded tells whether a Content-Encoding was undone; a header that
	// claims an encoding the body does not have (ClueWeb09 says gzip for
	// plain bodies) leaves the body as it is, with Decoded false.
	Decoded bool
}

// ParseResponse reads an HTTP response from a record block: the status
// line, the headers, and the body, de-chunked when Transfer-Encoding is
// chunked and decompressed when Content-Encoding is gzip or deflate and the
// body really is. A body cut short is returned as far as it goes. The body
// is a buffer of its own: the block may be reused.
func ParseResponse(block []byte) (*Response, error) {
	return parseResponse(block, true)
}

// ParseResponseOwned is ParseResponse for a block the caller owns (see
// Reader.SetOwnBlocks): a body that needs no decoding is a slice of the
// block, not a copy.
func ParseResponseOwned(block []byte) (*Response, error) {
	return parseResponse(block, false)
}

func parseResponse(block []byte, copyBody bool) (*Response, error) {
	rd := bytes.NewReader(block)
	br := bufio.NewReader(rd)
	line, err := br.ReadString('\n')
	if err != nil && line == "" {
		return nil, ErrNotHTTP
	}
	line = strings.TrimRight(line, "\r\n")
	proto, status, _ := strings.Cut(line, " ")
	if !strings.HasPrefix(proto, "HTTP/") {
		return nil, fmt.Errorf("%w: %q", ErrNotHTTP, truncate(line, 40))
	}
	codeStr, _, _ := strings.Cut(status, " ")
	code, err := strconv.Atoi(codeStr)
	if err != nil || code < 100 || code > 999 {
		return nil, fmt.Errorf("%w: status %q", ErrNotHTTP, truncate(status, 40))
	}
	tp := textproto.NewReader(br)
	hdr, err := tp.ReadMIMEHeader()
	if err != nil && len(hdr) == 0 && err != io.EOF {
		hdr = textproto.MIMEHeader{}
	}
	// The body is the rest of the block: what the buffer holds and what
	// it has not read yet.
	rest := br.Buffered() + rd.Len()
	body := block[len(block)-rest:]
	resp := &Response{StatusCode: code, Status: status, Header: hdr, Body: body}
	if strings.Contains(strings.ToLower(hdr.Get("Transfer-Encoding")), "chunked") {
		if dechunked, ok := dechunk(body); ok {
			resp.Body = dechunked
		}
	}
	switch strings.ToLower(strings.TrimSpace(hdr.Get("Content-Encoding"))) {
	case "gzip", "x-gzip":
		if zr, err := gzip.NewReader(bytes.NewReader(resp.Body)); err == nil {
			if out, err := io.ReadAll(zr); err == nil || len(out) > 0 {
				resp.Body, resp.Decoded = out, true
			}
		}
	case "deflate":
		if zr, err := zlib.NewReader(bytes.NewReader(resp.Body)); err == nil {
			if out, err := io.ReadAll(zr); err == nil || len(out) > 0 {
				resp.Body, resp.Decoded = out, true
			}
		} else if out, err := io.ReadAll(flate.NewReader(bytes.NewReader(resp.Body))); err == nil && len(out) > 0 {
			resp.Body, resp.Decoded = out, true
		}
	}
	if copyBody && len(resp.Body) > 0 && &resp.Body[0] == &body[0] {
		// Still a slice of the block, which the reader reuses: copied at
		// its size. A de-chunked or decoded body is a buffer of its own.
		resp.Body = bytes.Clone(resp.Body)
	}
	return resp, nil
}

// dechunk undoes chunked transfer encoding; ok is false when the body is
// not chunked after all (some archivers store it de-chunked with the
// header kept).
func dechunk(b []byte) ([]byte, bool) {
	var out []byte
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return out, len(out) > 0
		}
		sizeLine := strings.TrimSpace(string(b[:i]))
		if j := strings.IndexByte(sizeLine, ';'); j >= 0 {
			sizeLine = sizeLine[:j]
		}
		n, err := strconv.ParseInt(sizeLine, 16, 64)
		if err != nil || n < 0 {
			return nil, false
		}
		b = b[i+1:]
		if n == 0 {
			return out, true
		}
		if int64(len(b)) < n {
			return append(out, b...), true // cut short: keep what there is
		}
		out = append(out, b[:n]...)
		b = bytes.TrimLeft(b[n:], "\r")
		b = bytes.TrimPrefix(b, []byte("\n"))
	}
}
