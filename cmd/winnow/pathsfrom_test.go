package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnow-go/winnow/internal/shareddata"
)

// TestRunPathsFrom runs the mapper command line the README gives for
// Hadoop Streaming and Spark's RDD.pipe(): WARC paths in on stdin,
// records out on stdout. A path that cannot be read is an error record
// and the exit code stays 0; only a failure of the whole task (here, a
// list that cannot be read) exits non-zero.
func TestRunPathsFrom(t *testing.T) {
	data := shareddata.Require(t)
	a := filepath.Join(data, "warc", "pywb", "iana.warc.gz")
	b := filepath.Join(data, "warc", "warcio", "example.warc.gz")
	missing := filepath.Join(t.TempDir(), "gone.warc.gz")
	stdin := strings.Join([]string{a, "", missing, b}, "\n") + "\n"
	c := runChild(t, 2*time.Minute, []byte(stdin), "run", "--paths-from", "-", "--single-page")
	if c.code != 0 {
		t.Fatalf("exit code %d: %s", c.code, c.stderr)
	}
	ref := runChild(t, 2*time.Minute, nil, "run", a, b, "--single-page", "--out", "-")
	var gone []string
	var rest []string
	for _, line := range strings.Split(strings.TrimSpace(c.stdout), "\n") {
		var r struct{ Source, Status, Error string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not a record: %q", line)
		}
		if r.Source == missing {
			gone = append(gone, r.Status+": "+r.Error)
			continue
		}
		rest = append(rest, line)
	}
	if len(gone) != 1 || !strings.HasPrefix(gone[0], "error: reading "+missing) {
		t.Errorf("records of the missing file: %q", gone)
	}
	if got, want := strings.Join(rest, "\n"), strings.TrimSpace(ref.stdout); got != want {
		t.Errorf("the readable files' records differ from winnow run's on them (%d records, want %d)", len(rest), strings.Count(want, "\n")+1)
	}
	if c := runChild(t, time.Minute, nil, "run", "--paths-from", missing); c.code == 0 {
		t.Errorf("an unreadable list of paths: exit code 0, want a failure")
	}
}
