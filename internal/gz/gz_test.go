package gz

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFile: a .gz file of two members reads whole, a plain file as
// it is, and a truncated one is an error that names the file.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	var z bytes.Buffer
	for _, part := range []string{"<p>first member</p>", strings.Repeat("<p>second</p>", 1000)} {
		zw := gzip.NewWriter(&z)
		zw.Write([]byte(part))
		zw.Close()
	}
	want := "<p>first member</p>" + strings.Repeat("<p>second</p>", 1000)
	os.WriteFile(filepath.Join(dir, "a.html.gz"), z.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "b.html"), []byte(want), 0o644)
	os.WriteFile(filepath.Join(dir, "c.html.gz"), z.Bytes()[:z.Len()/2], 0o644)
	for range 2 { // the second round reuses a pooled reader
		for _, name := range []string{"a.html.gz", "b.html"} {
			if got, err := ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
				t.Errorf("%s: %d bytes, err %v", name, len(got), err)
			}
		}
		if _, err := ReadFile(filepath.Join(dir, "c.html.gz")); err == nil || !strings.Contains(err.Error(), "c.html.gz") {
			t.Errorf("truncated file: err %v", err)
		}
	}
}

// TestReadFileLimit: a gzipped file and a plain one are read to at most
// limit+1 bytes of content, the gzipped one decompressed; with no limit,
// whole.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	content := bytes.Repeat([]byte("<p>page</p>"), 1000)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(content)
	zw.Close()
	plain, zipped := filepath.Join(dir, "a.html"), filepath.Join(dir, "b.html.gz")
	os.WriteFile(plain, content, 0o644)
	os.WriteFile(zipped, z.Bytes(), 0o644)
	for _, c := range []struct {
		name  string
		path  string
		limit int
		want  int
	}{{"plain-cut", plain, 100, 101}, {"gzip-cut", zipped, 100, 101}, {"plain-whole", plain, 0, len(content)}, {"gzip-whole", zipped, 0, len(content)}, {"gzip-under", zipped, 1 << 20, len(content)}} {
		t.Run(c.name, func(t *testing.T) {
			b, err := ReadFileLimit(c.path, c.limit)
			if err != nil || len(b) != c.want || !bytes.HasPrefix(content, b) {
				t.Errorf("%d bytes, err %v; want %d", len(b), err, c.want)
			}
		})
	}
}
