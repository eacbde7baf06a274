package winnowbeam

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/winnow-go/winnow/pipeline"
)

// readFile calls fn for every input of one WARC file, with its record
// number, and returns how many there were. A file that cannot be read
// to its end gives, after the records read before the failure, one
// error record (pipeline.FileError): a bad file does not fail the job,
// and reading it again gives the same records. A path with a scheme
// (gs://, s3://) is read through Beam's filesystems, from a local copy;
// its records name the path as written.
func readFile(ctx context.Context, path string, fn func(rec int, in pipeline.Input)) int {
	n := 0
	emit := func(in pipeline.Input) error {
		fn(n, in)
		n++
		return ctx.Err()
	}
	local, cleanup, err := localCopy(ctx, path)
	if err != nil {
		emit(pipeline.FileError(path, err))
		return n
	}
	defer cleanup()
	err = pipeline.ReadInputs([]string{local}, func(in pipeline.Input) error {
		if local != path && strings.HasPrefix(in.Source, local) {
			in.Source = path + strings.TrimPrefix(in.Source, local)
		}
		return emit(in)
	})
	if err != nil && ctx.Err() == nil {
		emit(pipeline.FileError(path, err))
	}
	return n
}

// localCopy is a local file holding path: path itself when it has no
// scheme, or a temporary copy.
func localCopy(ctx context.Context, path string) (string, func(), error) {
	if !strings.Contains(path, "://") {
		return path, func() {}, nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	// The suffix keeps the format (.warc, .warc.gz) ReadInputs goes by.
	f, err := os.CreateTemp("", "winnow-beam-*-"+filepath.Base(path))
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { f.Close(); os.Remove(f.Name()) }
	if _, err := io.Copy(f, r); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copying %s: %w", path, err)
	}
	return f.Name(), cleanup, f.Close()
}
