// Package gz reads gzip-compressed files whole.
package gz

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// readers keeps gzip readers, and their 32 kB windows, for Decompress.
var readers sync.Pool

// Decompress returns the decompressed content of a whole gzip file (all
// its members). The buffer is sized from the trailer's length, a hint
// only (it is the size modulo 4 GiB, and the file may be several members
// or corrupt), which saves the regrowing that io.ReadAll does.
func Decompress(b []byte) ([]byte, error) {
	zr, _ := readers.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(b))
	} else {
		err = zr.Reset(bytes.NewReader(b))
	}
	if err != nil {
		return nil, err
	}
	defer readers.Put(zr)
	var buf bytes.Buffer
	if len(b) >= 18 {
		if n := int(binary.LittleEndian.Uint32(b[len(b)-4:])); n > 0 && n <= 64*len(b) && n <= 1<<30 {
			buf.Grow(n + bytes.MinRead)
		}
	}
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadFile reads a file, decompressed when its name ends in ".gz".
func ReadFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	if b, err = Decompress(b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
