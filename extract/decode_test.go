package extract

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/winnow-go/winnow/internal/shareddata"
)

func readGz(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var metaDecl = regexp.MustCompile(`(?is)<meta[^>]*charset[^>]*>`)

// transcode encodes a UTF-8 page in enc, replacing characters enc cannot
// represent, after removing every charset declaration. It returns the
// bytes and the text those bytes mean under enc.
func transcode(t *testing.T, page []byte, enc encoding.Encoding) (raw, want []byte) {
	page = metaDecl.ReplaceAll(page, nil)
	raw, err := encoding.ReplaceUnsupported(enc.NewEncoder()).Bytes(page)
	if err != nil {
		t.Fatal(err)
	}
	want, err = enc.NewDecoder().Bytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	return raw, want
}

// isTraditional tells a Traditional Chinese text from a Simplified one by
// which of Big5 and GB2312 can encode more of its characters.
func isTraditional(s string) bool {
	big5, gb := 0, 0
	for _, r := range s {
		if r < 0x2E80 {
			continue
		}
		if _, err := traditionalchinese.Big5.NewEncoder().String(string(r)); err == nil {
			big5++
		}
		if _, err := simplifiedchinese.HZGB2312.NewEncoder().String(string(r)); err == nil {
			gb++
		}
	}
	return big5 > gb
}

// TestDecodeTranscodedPages takes real UTF-8 pages, transcodes them to the
// legacy charsets winnow's users meet, removes their declarations and
// checks that Decode recovers the text on at least 99% of pages.
func TestDecodeTranscodedPages(t *testing.T) {
	data := shareddata.Require(t)
	type job struct {
		set, name string
		enc       encoding.Encoding
		want      func(gold string) bool // which pages of the set
	}
	all := func(string) bool { return true }
	jobs := []job{
		{"daniel-ru", "windows-1251", charmap.Windows1251, all},
		{"daniel-ru", "koi8-r", charmap.KOI8R, all},
		{"daniel-zh", "gbk", simplifiedchinese.GBK, func(g string) bool { return !isTraditional(g) }},
		{"daniel-zh", "big5", traditionalchinese.Big5, isTraditional},
	}
	for _, j := range jobs {
		t.Run(j.set+"/"+j.name, func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(data, "extract", j.set, "html", "*.html.gz"))
			if len(files) == 0 {
				t.Fatal("no pages")
			}
			pages, ok := 0, 0
			for _, f := range files {
				id := strings.TrimSuffix(filepath.Base(f), ".html.gz")
				gold, err := os.ReadFile(filepath.Join(data, "extract", j.set, "gold", id+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				if !j.want(string(gold)) {
					continue
				}
				raw, want := transcode(t, readGz(t, f), j.enc)
				pages++
				got, err := Decode(raw, "")
				if err != nil {
					t.Errorf("%s: %v", id, err)
					continue
				}
				if bytes.Equal(got.Text, want) {
					ok++
				} else {
					t.Logf("%s: decoded as %s via %s", id, got.Charset, got.Via)
				}
			}
			share := float64(ok) / float64(pages)
			t.Logf("%d of %d pages decoded exactly (%.1f%%)", ok, pages, 100*share)
			if pages < 10 || share < 0.99 {
				t.Errorf("%d of %d pages decoded exactly, want at least 99%%", ok, pages)
			}
		})
	}
}

// TestDecodeUndeclaredCleanEval checks that the CleanEval-zh pages that
// declare no charset decode without replacement characters.
func TestDecodeUndeclaredCleanEval(t *testing.T) {
	data := shareddata.Require(t)
	meta, err := os.ReadFile(filepath.Join(data, "extract", "cleaneval-zh", "meta.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(string(meta)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 || len(cols) < 5 || cols[4] != "" {
			continue
		}
		n++
		_, body := StripTextWrapper(readGz(t, filepath.Join(data, "extract", "cleaneval-zh", "html", cols[0]+".html.gz")))
		d, err := Decode(body, "")
		if err != nil {
			t.Errorf("%s: %v", cols[0], err)
			continue
		}
		if c := bytes.Count(d.Text, []byte("\uFFFD")); c > 0 {
			t.Errorf("%s: %d U+FFFD after decoding as %s via %s", cols[0], c, d.Charset, d.Via)
		}
	}
	if n < 10 {
		t.Fatalf("only %d undeclared pages found", n)
	}
}

// warcResponses is a minimal reader for the test below: it returns the
// HTTP header and body of each response record of a (multi-member) gzip
// WARC file.
func warcResponses(t *testing.T, path string) (headers []string, bodies [][]byte) {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(readGz(t, path)))
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(line, "WARC/") {
			continue
		}
		var typ string
		length := -1
		for {
			h, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			h = strings.TrimRight(h, "\r\n")
			if h == "" {
				break
			}
			k, v, _ := strings.Cut(h, ":")
			switch strings.ToLower(k) {
			case "warc-type":
				typ = strings.TrimSpace(v)
			case "content-length":
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		block := make([]byte, length)
		if _, err := io.ReadFull(r, block); err != nil {
			t.Fatal(err)
		}
		if typ != "response" {
			continue
		}
		head, body, _ := bytes.Cut(block, []byte("\r\n\r\n"))
		headers = append(headers, string(head))
		bodies = append(bodies, body)
	}
}

// TestDecodeEUCJP decodes the EUC-JP pages of the ClueWeb09 WARC, with and
// without the HTTP header, and expects no U+FFFD.
func TestDecodeEUCJP(t *testing.T) {
	data := shareddata.Require(t)
	headers, bodies := warcResponses(t, filepath.Join(data, "warc", "resiliparse", "clueweb-quirk.warc.gz"))
	if len(bodies) != 29 {
		t.Fatalf("%d responses, want 29", len(bodies))
	}
	ctRe := regexp.MustCompile(`(?im)^content-type:\s*(.+?)\s*$`)
	for i, b := range bodies {
		ct := ""
		if m := ctRe.FindStringSubmatch(headers[i]); m != nil {
			ct = m[1]
		}
		for _, header := range []string{"", ct} {
			d, err := Decode(b, header)
			if err != nil {
				t.Fatalf("page %d: %v", i, err)
			}
			if d.Charset != "euc-jp" || !utf8.Valid(d.Text) || bytes.Contains(d.Text, []byte("\uFFFD")) {
				t.Errorf("page %d (header %q): decoded as %s via %s, %d U+FFFD", i, header, d.Charset, d.Via, bytes.Count(d.Text, []byte("\uFFFD")))
			}
		}
	}
}

func TestDecodeOrder(t *testing.T) {
	cp1251, _ := charmap.Windows1251.NewEncoder().String("Привет, мир! Это проверка декодирования текста.")
	tests := []struct {
		name, ct string
		in       []byte
		charset  string
		via      string
	}{
		{"bom", "text/html; charset=iso-8859-1", append([]byte{0xEF, 0xBB, 0xBF}, "<p>héllo</p>"...), "utf-8", ViaBOM},
		{"header", "text/html; charset=windows-1251", []byte("<p>" + cp1251 + "</p>"), "windows-1251", ViaHeader},
		{"utf8 body beats a wrong meta", "", []byte(`<meta charset="gb2312"><p>héllo wörld</p>`), "utf-8", ViaUTF8},
		{"meta after 1024 bytes", "", []byte("<head>" + strings.Repeat("<!-- pad -->", 200) + `<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><p>` + cp1251), "windows-1251", ViaMeta},
		{"declared utf-8 that is not", "text/html; charset=utf-8", []byte("<p>" + cp1251 + "</p>"), "windows-1251", ViaDetection},
		{"gb2312 widened", "", []byte(`<meta charset="gb2312"><p>` + gbk(t, "中文测试，镕") + "</p>"), "gb18030", ViaMeta},
		{"ascii", "", []byte("<p>plain</p>"), "utf-8", ViaASCII},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decode(tc.in, tc.ct)
			if err != nil {
				t.Fatal(err)
			}
			if d.Charset != tc.charset || d.Via != tc.via {
				t.Errorf("got %s via %s, want %s via %s", d.Charset, d.Via, tc.charset, tc.via)
			}
			if !utf8.Valid(d.Text) {
				t.Error("output is not UTF-8")
			}
		})
	}
	if _, err := DecodeAs([]byte("x"), "no-such-charset"); err == nil {
		t.Error("DecodeAs accepted an unknown charset")
	}
}

func gbk(t *testing.T, s string) string {
	out, err := simplifiedchinese.GBK.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
