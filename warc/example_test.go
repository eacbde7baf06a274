package warc_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/winnow-go/winnow/warc"
)

// A WARC file as a crawler writes it: a response record, whose block is
// the HTTP response with an HTML page, then the request record that
// fetched it. Each record is a version line, header fields, a blank
// line, Content-Length bytes of block and two line ends.
const archive = "WARC/1.1\r\n" +
	"WARC-Type: response\r\n" +
	"WARC-Record-ID: <urn:uuid:9a8c7e4e-1b8f-4e55-9d0e-2f4f6f3e2a01>\r\n" +
	"WARC-Date: 2024-05-01T12:00:00Z\r\n" +
	"WARC-Target-URI: https://example.org/\r\n" +
	"Content-Type: application/http; msgtype=response\r\n" +
	"Content-Length: 151\r\n" +
	"\r\n" +
	"HTTP/1.1 200 OK\r\n" +
	"Content-Type: text/html; charset=utf-8\r\n" +
	"Content-Length: 72\r\n" +
	"\r\n" +
	"<html><body><h1>Example</h1><p>Hello from the archive.</p></body></html>" +
	"\r\n\r\n" +
	"WARC/1.1\r\n" +
	"WARC-Type: request\r\n" +
	"WARC-Record-ID: <urn:uuid:9a8c7e4e-1b8f-4e55-9d0e-2f4f6f3e2a02>\r\n" +
	"WARC-Date: 2024-05-01T12:00:00Z\r\n" +
	"WARC-Target-URI: <https://example.org/>\r\n" +
	"Content-Type: application/http; msgtype=request\r\n" +
	"Content-Length: 65\r\n" +
	"\r\n" +
	"GET / HTTP/1.1\r\n" +
	"Host: example.org\r\n" +
	"User-Agent: winnow-example\r\n" +
	"\r\n" +
	"\r\n\r\n"

// Read every record of a WARC file and the HTTP response inside each
// response record. A .warc.gz is read the same way: NewReader recognises
// gzip by its first bytes.
func ExampleReader() {
	r, err := warc.NewReader(strings.NewReader(archive))
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A *warc.RecordError: that record is skipped, and Next
			// goes on with the next one where it can.
			fmt.Println(err)
			continue
		}
		// TargetURI drops the angle brackets some writers put round it.
		fmt.Printf("%s %s (%d bytes of block)\n", rec.Type(), rec.TargetURI(), len(rec.Block))
		if rec.Type() != "response" {
			continue
		}
		resp, err := warc.ParseResponse(rec.Block)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("  HTTP %d, %s, payload %d bytes\n", resp.StatusCode, resp.Header.Get("Content-Type"), len(resp.Body))
	}
	// Output:
	// response https://example.org/ (151 bytes of block)
	//   HTTP 200, text/html; charset=utf-8, payload 72 bytes
	// request https://example.org/ (65 bytes of block)
}
