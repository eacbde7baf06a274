package winnowbeam

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/klauspost/compress/gzip"

	"github.com/winnow-go/winnow/pipeline"
)

// ShardName is the name of shard i of n in the output folder.
func ShardName(i, n int, gz bool) string {
	name := fmt.Sprintf("records-%05d-of-%05d.jsonl", i, n)
	if gz {
		name += ".gz"
	}
	return name
}

// writeFn writes one whole shard: its records in winnow run's order
// (with near-duplicates marked on the shard's components), to a
// temporary name renamed into place (the local filesystem must then
// import Beam's local filesystem package). The shard's content depends only
// on the input, so a retried bundle writes the same bytes, and the
// rename leaves no partial or doubled shard behind.
type writeFn struct {
	Conf   conf
	Output string
	set    Settings
}

func (f *writeFn) Setup() { f.set = f.Conf.settings() }

type idLine struct {
	id   int
	line []byte
}

func (f *writeFn) ProcessElement(ctx context.Context, shard int, _ func(*int) bool, values func(*[]byte) bool) error {
	var recs []idLine
	var v []byte
	for values(&v) {
		id, line, err := decodeIDLine(v)
		if err != nil {
			return err
		}
		recs = append(recs, idLine{id, line})
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].id < recs[j].id })
	var all bytes.Buffer
	ids := make([]int, len(recs))
	for i, r := range recs {
		all.Write(r.line)
		ids[i] = r.id
	}
	out := &all
	if f.set.Dedup != nil && len(recs) > 0 {
		out = new(bytes.Buffer)
		opts := *f.set.Dedup
		opts.Workers = 1
		if _, err := pipeline.DedupPart(bytes.NewReader(all.Bytes()), fmt.Sprintf("shard %d", shard), ids, out, opts); err != nil {
			return err
		}
	}
	name := strings.TrimSuffix(f.Output, "/") + "/" + ShardName(shard, f.set.shards(), f.set.Gzip)
	return writeAtomic(ctx, name, func(w io.Writer) error {
		if !f.set.Gzip {
			_, err := w.Write(out.Bytes())
			return err
		}
		zw := gzip.NewWriter(w)
		if _, err := zw.Write(out.Bytes()); err != nil {
			return err
		}
		return zw.Close()
	})
}

// writeAtomic writes a file through Beam's filesystems: to a temporary
// name renamed into place where the filesystem renames (local files),
// else directly (object stores, where a write becomes visible whole when
// it is closed).
func writeAtomic(ctx context.Context, name string, write func(io.Writer) error) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	rn, renames := fs.(filesystem.Renamer)
	target := name
	if renames {
		// A name of its own per attempt: two attempts at one shard (a
		// retry, a speculative copy) write the same bytes, and the last
		// rename wins.
		var r [8]byte
		rand.Read(r[:])
		target = fmt.Sprintf("%s.tmp-%x", name, r)
	}
	w, err := fs.OpenWrite(ctx, target)
	if err != nil {
		return err
	}
	if err := write(w); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if renames {
		return rn.Rename(ctx, target, name)
	}
	return nil
}
