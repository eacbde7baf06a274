package gz_test

import (
	"bytes"
	"compress/gzip"
	"fmt"

	"github.com/winnow-go/winnow/internal/gz"
)

// A file of several gzip members decompresses whole.
func ExampleDecompress() {
	var file bytes.Buffer
	for _, part := range []string{"<p>one</p>", "<p>two</p>"} {
		zw := gzip.NewWriter(&file)
		zw.Write([]byte(part))
		zw.Close()
	}
	b, err := gz.Decompress(file.Bytes())
	fmt.Println(string(b), err)
	// Output: <p>one</p><p>two</p> <nil>
}
