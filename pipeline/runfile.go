package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
)

// FileOptions are what a batch run into a file adds to Run.
type FileOptions struct {
	// Resume continues an interrupted run after the last complete record
	// of the output (with near-duplicate detection: of its spool, the
	// records written before the last stage). The result is the bytes an
	// uninterrupted run writes. A run into a file writes its description
	// beside it (DescSuffix); resume refuses, with ErrResume, a run whose
	// description is missing or differs.
	Resume bool
	// Dedup, when set, runs near-duplicate detection as the last stage.
	Dedup *DedupOptions
	// Stdout is where the output "-" goes.
	Stdout io.Writer
}

// SpoolSuffix names the file beside the output where a run with
// near-duplicate detection keeps its records until the last stage has
// seen them all; it is removed when the run ends.
const SpoolSuffix = ".records.partial"

// RunFile runs the stages over the inputs into the file out ("-" for
// fo.Stdout): Run, then near-duplicate detection when fo.Dedup is set.
// With near-duplicate detection the records go first to out+SpoolSuffix
// (a temporary file for "-"), and out is written whole at the end
// (renamed into place), so an interrupted run leaves no partial out.
func RunFile(ctx context.Context, paths []string, out string, opts Options, fo FileOptions) (Summary, error) {
	if fo.Resume && out == "-" {
		return Summary{}, fmt.Errorf("pipeline: resume needs an output file")
	}
	if out != "-" {
		desc, err := Describe(paths, opts, fo.Dedup)
		if err != nil {
			return Summary{}, err
		}
		if fo.Resume {
			err = checkDesc(out, desc)
		} else {
			err = writeDesc(out, desc)
		}
		if err != nil {
			return Summary{}, err
		}
	}
	if fo.Dedup == nil {
		return runInto(ctx, paths, out, fo.Stdout, opts, fo.Resume)
	}
	spool := out + SpoolSuffix
	if out == "-" {
		fh, err := os.CreateTemp("", "winnow-run-*.jsonl")
		if err != nil {
			return Summary{}, err
		}
		fh.Close()
		spool = fh.Name()
		defer os.Remove(spool)
	}
	sum, err := runInto(ctx, paths, spool, nil, opts, fo.Resume)
	if err != nil {
		return sum, err
	}
	ds, err := dedupFile(spool, out, fo.Stdout, *fo.Dedup)
	if err != nil {
		return sum, err
	}
	sum.Dedup = &ds
	return sum, os.Remove(spool)
}

// runInto is Run into a file, appending after its complete records when
// resuming.
func runInto(ctx context.Context, paths []string, out string, stdout io.Writer, opts Options, resume bool) (Summary, error) {
	var w io.Writer
	var closeFn func() error
	var err error
	if resume {
		opts.Skip, w, closeFn, err = resumeOut(out)
	} else {
		w, closeFn, err = CreateOutput(out, stdout)
	}
	if err != nil {
		return Summary{}, err
	}
	sum, err := Run(ctx, paths, w, opts)
	if cerr := closeFn(); cerr != nil && err == nil {
		err = cerr
	}
	return sum, err
}

// dedupFile runs near-duplicate detection over the records in spool into
// out, written to out+".tmp" and renamed into place ("-" is stdout).
func dedupFile(spool, out string, stdout io.Writer, opts DedupOptions) (DedupSummary, error) {
	in, err := os.Open(spool)
	if err != nil {
		return DedupSummary{}, err
	}
	defer in.Close()
	target := out
	if out != "-" {
		target = out + ".tmp"
	}
	w, closeFn, err := CreateOutput(target, stdout)
	if err != nil {
		return DedupSummary{}, err
	}
	sum, _, err := Dedup(in, spool, w, opts)
	if cerr := closeFn(); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil || out == "-" {
		return sum, err
	}
	return sum, os.Rename(target, out)
}

// CreateOutput opens a file for writing ("-" or "" is stdout) behind a
// buffer; the returned function flushes it and closes the file.
func CreateOutput(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "-" || path == "" {
		bw := bufio.NewWriter(stdout)
		return bw, bw.Flush, nil
	}
	fh, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return flushClose(fh)
}

func flushClose(fh *os.File) (io.Writer, func() error, error) {
	bw := bufio.NewWriterSize(fh, 1<<20)
	return bw, func() error {
		if err := bw.Flush(); err != nil {
			fh.Close()
			return err
		}
		return fh.Close()
	}, nil
}

// resumeOut opens an interrupted run's output for appending: it keeps the
// complete records (lines ending in a line break), cuts a partial last
// line, and returns how many records are already there. A missing file
// is created: nothing was written yet.
func resumeOut(path string) (int, io.Writer, func() error, error) {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return 0, nil, nil, err
	}
	keep := bytes.LastIndexByte(b, '\n') + 1
	n := bytes.Count(b[:keep], []byte{'\n'})
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return 0, nil, nil, err
	}
	if err := fh.Truncate(int64(keep)); err != nil {
		fh.Close()
		return 0, nil, nil, err
	}
	if _, err := fh.Seek(int64(keep), io.SeekStart); err != nil {
		fh.Close()
		return 0, nil, nil, err
	}
	w, closeFn, _ := flushClose(fh)
	return n, w, closeFn, nil
}
