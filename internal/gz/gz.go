// Package gz reads gzip-compressed files whole.
package gz

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
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
	hint := 0
	if len(b) >= 18 {
		hint = sizeHint(binary.LittleEndian.Uint32(b[len(b)-4:]), len(b))
	}
	return decompress(bytes.NewReader(b), hint, 0)
}

// sizeHint is the decompressed size that a gzip file's trailer (the size
// modulo 4 GiB of its last member) gives for a file of compressed bytes,
// when it is plausible; 0 when it is not.
func sizeHint(trailer uint32, compressed int) int {
	n := int(trailer)
	if n <= 0 || n > 64*compressed || n > 1<<30 {
		return 0
	}
	return n
}

// decompress reads a gzip stream with a pooled reader: at most limit+1
// bytes of its content when limit > 0, into a buffer sized by hint.
func decompress(r io.Reader, hint, limit int) ([]byte, error) {
	zr, _ := readers.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(r)
	} else {
		err = zr.Reset(r)
	}
	if err != nil {
		return nil, err
	}
	defer readers.Put(zr)
	var src io.Reader = zr
	if limit > 0 {
		src = io.LimitReader(zr, int64(limit)+1)
		hint = min(hint, limit+1)
	}
	var buf bytes.Buffer
	if hint > 0 {
		buf.Grow(hint + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(src); err != nil {
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

// ReadFileLimit reads at most limit+1 bytes of a file's content (all of
// it when limit <= 0), decompressed when the file starts with gzip's magic
// bytes: decompression stops at the limit too, so a small file that
// expands to gigabytes costs no more than limit. A caller can tell a file
// longer than limit by the extra byte.
func ReadFileLimit(path string, limit int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var magic [2]byte
	if n, _ := f.ReadAt(magic[:], 0); n < 2 || magic != [2]byte{0x1f, 0x8b} {
		var src io.Reader = f
		if limit > 0 {
			src = io.LimitReader(f, int64(limit)+1)
		}
		return io.ReadAll(src)
	}
	hint := 0
	if st, err := f.Stat(); err == nil && st.Size() >= 18 {
		var trailer [4]byte
		if _, err := f.ReadAt(trailer[:], st.Size()-4); err == nil {
			hint = sizeHint(binary.LittleEndian.Uint32(trailer[:]), int(st.Size()))
		}
	}
	b, err := decompress(bufio.NewReader(f), hint, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}
