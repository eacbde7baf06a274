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
