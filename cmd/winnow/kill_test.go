package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/internal/synth"
	"github.com/winnow-go/winnow/pipeline"
)

// TestMain lets the tests run the real command in a child process: with
// WINNOW_MAIN=1 the test binary is winnow.
func TestMain(m *testing.M) {
	if os.Getenv("WINNOW_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// bigWARC writes a WARC of n pages made from the gold texts, enough for a
// run that lasts a few seconds.
func bigWARC(t *testing.T, path string, n int) {
	texts, err := synth.GoldTexts(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if err := synth.WriteWARC(fh, texts, n); err != nil {
		t.Fatal(err)
	}
}

// TestResumeAfterSIGKILL kills a real run with SIGKILL at several moments,
// resumes it, and compares with an uninterrupted run byte for byte; with
// --dedup too, where the kill may also hit the last stage.
func TestResumeAfterSIGKILL(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "crawl.warc")
	bigWARC(t, in, 6000)
	winnow := func(args ...string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		// A killed run leaves its temporary files: in the test's folder.
		cmd.Env = append(os.Environ(), "WINNOW_MAIN=1", "TMPDIR="+dir)
		return cmd
	}
	for _, c := range []struct {
		name  string
		extra []string
	}{{"plain", nil}, {"dedup", []string{"--dedup"}}} {
		t.Run(c.name, func(t *testing.T) {
			full := filepath.Join(dir, c.name+"-full.jsonl")
			if out, err := winnow(append([]string{"run", in, "--out", full}, c.extra...)...).CombinedOutput(); err != nil {
				t.Fatalf("full run: %v\n%s", err, out)
			}
			want, _ := os.ReadFile(full)
			killed := 0
			for _, after := range []time.Duration{300 * time.Millisecond, 800 * time.Millisecond, 1500 * time.Millisecond, 2500 * time.Millisecond} {
				part := filepath.Join(dir, fmt.Sprintf("%s-part-%d.jsonl", c.name, after.Milliseconds()))
				cmd := winnow(append([]string{"run", in, "--out", part}, c.extra...)...)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(after)
				if err := cmd.Process.Signal(syscall.SIGKILL); err == nil {
					killed++
				}
				cmd.Wait()
				if out, err := winnow(append([]string{"run", in, "--out", part, "--resume"}, c.extra...)...).CombinedOutput(); err != nil {
					t.Fatalf("resume after %v: %v\n%s", after, err, out)
				}
				got, _ := os.ReadFile(part)
				if !bytes.Equal(got, want) {
					t.Errorf("killed after %v and resumed: %d bytes, want %d identical bytes", after, len(got), len(want))
				}
				if _, err := os.Stat(part + pipeline.SpoolSuffix); !os.IsNotExist(err) {
					t.Errorf("killed after %v and resumed: the spool is left behind (%v)", after, err)
				}
			}
			if killed == 0 {
				t.Error("every run finished before the kill: the test killed nothing")
			}
		})
	}
}
