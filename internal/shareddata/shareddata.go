// Package shareddata finds the evaluation data that lives outside the module,
// in ../shared/data beside the repository, for the eval commands and the tests.
package shareddata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/winnow-go/winnow/internal/gz"
)

// EnvVar names the environment variable that overrides the data location.
const EnvVar = "WINNOW_DATA"

// ErrNotFound is returned by Dir when no data folder can be located.
var ErrNotFound = errors.New("shareddata: ../shared/data not found (set WINNOW_DATA or pass --data)")

// Dir returns the shared data folder: $WINNOW_DATA when set, else
// ../shared/data beside a module root found by walking up from the
// working directory: the nearest go.mod that has one, so that a module
// nested in the repository (beam/, peers/) finds the data beside the
// repository's. It checks that the folder exists.
func Dir() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		return checkDir(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("shareddata: %w", err)
	}
	var firstErr error // the nearest module's, for the message
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d, err := checkDir(filepath.Join(dir, "..", "shared", "data"))
			if err == nil {
				return d, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			if firstErr != nil {
				return "", firstErr
			}
			// Not inside a module: try ../shared/data from the working directory.
			return checkDir(filepath.Join(wd, "..", "shared", "data"))
		}
		dir = parent
	}
}

func checkDir(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("shareddata: %w", err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return "", fmt.Errorf("%w: looked at %s", ErrNotFound, abs)
	}
	return abs, nil
}

// TB is the part of testing.TB that Require uses; naming it here keeps
// the testing package out of the binaries that import this package.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// Require returns the data folder for a test. When the folder is missing the
// test is skipped on a user's machine, and fails when CI=true: CI must never
// pass by skipping the evaluations.
func Require(tb TB) string {
	tb.Helper()
	d, err := Dir()
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%v (CI=true: missing data is a failure)", err)
		}
		tb.Skipf("%v", err)
	}
	return d
}

// Pages reads the gzipped HTML pages of an extraction set
// (extract/<set>/html/*.html.gz) in file-name order, with their total
// size: the pages the benchmarks measure on.
func Pages(dataDir, set string) (pages [][]byte, total int, err error) {
	files, err := filepath.Glob(filepath.Join(dataDir, "extract", set, "html", "*.html.gz"))
	if err != nil {
		return nil, 0, err
	}
	if len(files) == 0 {
		return nil, 0, fmt.Errorf("shareddata: no pages in %s", filepath.Join(dataDir, "extract", set, "html"))
	}
	for _, f := range files {
		p, err := gz.ReadFile(f)
		if err != nil {
			return nil, 0, err
		}
		pages = append(pages, p)
		total += len(p)
	}
	return pages, total, nil
}
