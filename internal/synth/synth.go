// Package synth writes synthetic crawls from real texts, for tests and
// measurements that need more pages than the shared data holds: a WARC of
// any size whose pages carry a gold text inside a per-site template.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Sites is the number of hosts the pages are spread over.
const Sites = 7

// WriteWARC writes n WARC/1.0 response records to w. Page i carries
// texts[i%len(texts)] (lines become paragraphs) between a menu and a
// footer shared by its site (i%Sites), so a run learns one template per
// site. The output depends only on texts and n.
func WriteWARC(w io.Writer, texts []string, n int) error {
	if len(texts) == 0 {
		return fmt.Errorf("synth: no texts")
	}
	paras := make([]string, len(texts))
	for i, t := range texts {
		paras[i] = strings.ReplaceAll(t, "\n", "</p><p>")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	for i := range n {
		site := i % Sites
		body := fmt.Sprintf(`<html><head><meta charset="utf-8"><title>Story %d</title></head><body><div class="menu"><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></div><article><h1>Story %d</h1><p>%s</p></article><div class="footer">Footer of site %d</div></body></html>`,
			i, i, paras[i%len(paras)], site)
		if err := WriteRecord(bw, fmt.Sprintf("http://site%d.example/news/%d", site, i), "text/html; charset=utf-8", []byte(body)); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteRecord writes one WARC/1.0 response record: a 200 response with
// the content type (none when empty) and the body.
func WriteRecord(w io.Writer, uri, contentType string, body []byte) error {
	head := "HTTP/1.1 200 OK\r\n"
	if contentType != "" {
		head += "Content-Type: " + contentType + "\r\n"
	}
	head += "\r\n"
	if _, err := fmt.Fprintf(w, "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Length: %d\r\n\r\n%s", uri, len(head)+len(body), head); err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\r\n\r\n")
	return err
}

// GoldTexts reads the daniel-ru gold texts of the shared data folder, in
// file-name order.
func GoldTexts(dataDir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dataDir, "extract", "daniel-ru", "gold", "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("synth: no gold texts under %s", dataDir)
	}
	texts := make([]string, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		texts[i] = string(b)
	}
	return texts, nil
}
