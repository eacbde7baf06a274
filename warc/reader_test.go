package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func warcFiles(t *testing.T) []string {
	dir := filepath.Join(shareddata.Require(t), "warc")
	var files []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".warc") || strings.HasSuffix(p, ".warc.gz")) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 10 {
		t.Fatalf("only %d WARC files", len(files))
	}
	return files
}

// caseName names a WARC file's subtest: its folder and file name, so
// that -run 'TestRecordCounts/iana/iana.warc.gz' reruns one file.
func caseName(path string) string {
	return filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
}

// plain returns a file's decompressed bytes.
func plain(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// headerType matches a record header's WARC-Type: a version line, then
// header lines up to the type, with no blank line in between.
var headerType = regexp.MustCompile(`(?m)^WARC/[0-9.]+\r?\n(?:[A-Za-z][^\r\n]*\r?\n)*?WARC-Type: *([a-z]+)`)

// TestRecordCounts reads every WARC file and compares the records of each
// type with a count made without the reader (a pattern over the
// decompressed bytes), and with the counts the data README gives.
func TestRecordCounts(t *testing.T) {
	known := map[string]map[string]int{
		"iana.warc.gz":          {"warcinfo": 1, "response": 48, "revisit": 123, "request": 171},
		"clueweb-quirk.warc.gz": {"warcinfo": 1, "response": 29},
	}
	for _, path := range warcFiles(t) {
		t.Run(caseName(path), func(t *testing.T) {
			want := map[string]int{}
			for _, m := range headerType.FindAllSubmatch(plain(t, path), -1) {
				want[string(m[1])]++
			}
			if k, ok := known[filepath.Base(path)]; ok {
				for typ, n := range k {
					if want[typ] != n {
						t.Fatalf("independent count of %s: %d, README says %d", typ, want[typ], n)
					}
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("record error: %v", err)
				}
				got[rec.Type()]++
				if rec.Type() == "response" && rec.TargetURI() == "" {
					t.Errorf("response at %d without a target URI", rec.Offset)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("types %v, want %v", got, want)
			}
			for typ, n := range want {
				if got[typ] != n {
					t.Errorf("%s: %d records, want %d", typ, got[typ], n)
				}
			}
		})
	}
}

// members returns the end offset of each gzip member and the number of
// records it holds, found by decompressing member by member.
func members(t *testing.T, b []byte) (ends []int64, records []int) {
	cr := &countingReader{r: bytes.NewReader(b)}
	br := bufio.NewReader(cr)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	for {
		zr.Multistream(false)
		data, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, cr.n-int64(br.Buffered()))
		records = append(records, len(headerType.FindAllIndex(data, -1)))
		if err := zr.Reset(br); err == io.EOF {
			return ends, records
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// TestTruncatedGzip cuts every .warc.gz at ten offsets: the reader returns
// every record whose gzip member ends before the cut, then one error
// (none when the cut falls exactly between members), and nothing else.
func TestTruncatedGzip(t *testing.T) {
	for _, path := range warcFiles(t) {
		if !strings.HasSuffix(path, ".gz") {
			continue
		}
		t.Run(caseName(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ends, recs := members(t, b)
			for k := 1; k <= 10; k++ {
				cut := int64(len(b)) * int64(k) / 11
				if k == 10 && len(ends) > 1 {
					cut = ends[len(ends)/2] // exactly between two members
				}
				t.Run(fmt.Sprintf("cut=%d", cut), func(t *testing.T) {
					want, boundary := 0, false
					for i, e := range ends {
						if e <= cut {
							want += recs[i]
						}
						boundary = boundary || e == cut
					}
					r, err := NewReader(bytes.NewReader(b[:cut]))
					if err != nil {
						t.Fatal(err)
					}
					got, errs := 0, 0
					for {
						_, err := r.Next()
						if err == io.EOF {
							break
						}
						if err != nil {
							var re *RecordError
							if !errors.As(err, &re) || re.Offset > cut {
								t.Errorf("%s cut at %d: bad error %v", filepath.Base(path), cut, err)
							}
							errs++
							continue
						}
						if errs > 0 {
							t.Errorf("%s cut at %d: a record after the error", filepath.Base(path), cut)
						}
						got++
					}
					wantErrs := 1
					if boundary {
						wantErrs = 0
					}
					if got != want || errs != wantErrs {
						t.Errorf("%s cut at %d of %d: %d records and %d errors, want %d and %d", filepath.Base(path), cut, len(b), got, errs, want, wantErrs)
					}
				})
			}
		})
	}
}

func TestMalformedRecordsAreSkipped(t *testing.T) {
	in := "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n" +
		"garbage line\r\nmore garbage\r\n" +
		"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: x\r\n\r\n" +
		"WARC/1.1\r\nWARC-Type: metadata\r\nContent-Length: 2\r\n\r\nok\r\n\r\n"
	r, err := NewReader(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	errs := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("unexpected error %v", err)
			}
			errs++
			continue
		}
		types = append(types, rec.Type())
	}
	// The garbage after the first record is skipped (and counted); the
	// record with a bad Content-Length is an error; reading goes on.
	if strings.Join(types, ",") != "resource,metadata" || errs != 1 || r.Skipped() == 0 {
		t.Errorf("types %v, %d errors, %d bytes skipped", types, errs, r.Skipped())
	}
}

func TestParseResponse(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("<p>zipped</p>"))
	zw.Close()
	for _, tc := range []struct {
		name, block, body string
		decoded           bool
	}{
		{"plain", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi</p>", "<p>hi</p>", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<p>h\r\n5\r\ni</p>\r\n0\r\n\r\n", "<p>hi</p>", false},
		{"stored de-chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<p>hi</p>", "<p>hi</p>", false},
		{"real gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gz.String(), "<p>zipped</p>", true},
		{"false gzip", "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n<p>plain</p>", "<p>plain</p>", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseResponse([]byte(tc.block))
			if err != nil {
				t.Fatal(err)
			}
			if r.StatusCode != 200 || string(r.Body) != tc.body || r.Decoded != tc.decoded {
				t.Errorf("status %d body %q decoded %v", r.StatusCode, r.Body, r.Decoded)
			}
		})
	}
	if _, err := ParseResponse([]byte("GET / HTTP/1.1\r\n\r\n")); !errors.Is(err, ErrNotHTTP) {
		t.Errorf("a request parsed as a response: %v", err)
	}
}

// TestRealPayloads parses every response record of the WARC files: the
// chunked iana capture and the ClueWeb09 bodies that claim gzip but are
// plain both come out as HTML.
func TestRealPayloads(t *testing.T) {
	for _, path := range warcFiles(t) {
		t.Run(caseName(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, _ := NewReader(f)
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil || rec.Type() != "response" || !strings.HasPrefix(rec.TargetURI(), "http") {
					continue
				}
				resp, err := ParseResponse(rec.Block)
				if err != nil {
					t.Errorf("%s at %d: %v", filepath.Base(path), rec.Offset, err)
					continue
				}
				ct := resp.Header.Get("Content-Type")
				if resp.StatusCode == 200 && strings.Contains(ct, "html") && !bytes.Contains(bytes.ToLower(resp.Body[:min(len(resp.Body), 4096)]), []byte("<")) {
					t.Errorf("%s at %d: HTML body without markup: %q", filepath.Base(path), rec.Offset, resp.Body[:min(len(resp.Body), 60)])
				}
			}
		})
	}
}

// BenchmarkReadGzipped reads a .warc.gz of 2000 small records, one gzip
// member each, as crawlers write them.
func BenchmarkReadGzipped(b *testing.B) {
	var file bytes.Buffer
	for i := range 2000 {
		zw := gzip.NewWriter(&file)
		body := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>Page " + strings.Repeat("text ", i%50) + "</p></body></html>"
		io.WriteString(zw, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.org/"+strings.Repeat("x", i%7)+"\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body+"\r\n\r\n")
		zw.Close()
	}
	b.SetBytes(int64(file.Len()))
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(file.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 2000 {
			b.Fatalf("%d records", n)
		}
	}
}
