package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExtractRender: the fixture's boilerplate is hidden or moved only by
// CSS (display:none, visibility:hidden, off-screen, a fixed sidebar); with
// --render it is removed and the article kept, without --render it is not
// removed; the JSON record gives the layout reasons.
func TestExtractRender(t *testing.T) {
	page := "../../fixtures/render/css-hidden.html"
	hidden := []string{"Subscribe today", "Readers who liked", "Skip to the navigation", "Most read this week"}
	plain, code := run(t, "extract", page)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	rendered, code := run(t, "extract", page, "--render")
	if code != 0 {
		t.Fatalf("--render: exit %d", code)
	}
	for _, h := range hidden {
		if !strings.Contains(plain, h) {
			t.Errorf("without --render %q is already gone: the fixture tests nothing", h)
		}
		if strings.Contains(rendered, h) {
			t.Errorf("--render kept %q", h)
		}
	}
	for _, want := range []string{"Harbour bridge approved", "Supporters said", "Opponents questioned", "Work is expected"} {
		if !strings.Contains(rendered, want) {
			t.Errorf("--render lost %q", want)
		}
	}
	debug, _ := run(t, "extract", page, "--render", "--format", "html")
	if !strings.Contains(debug, "render: hidden:display-none (-1.00)") || !strings.Contains(debug, "render: in-column") {
		t.Error("the html debug view does not show the layout reasons")
	}
	js, _ := run(t, "extract", page, "--render", "--format", "json")
	for _, r := range []string{"hidden:display-none", "hidden:visibility-hidden", "hidden:off-screen", `"rule":"fixed"`, "in-column"} {
		if !strings.Contains(js, r) {
			t.Errorf("no reason %q in the JSON record", r)
		}
	}
}

// TestRenderSignals: winnow extract URL --render, stopped by SIGINT or
// SIGTERM while the page is loading, exits and leaves no browser process
// behind.
func TestRenderSignals(t *testing.T) {
	requested := make(chan struct{}, 4)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow.png" {
			requested <- struct{}{}
			<-release
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><body><p>A page whose image never arrives, so the render is still going on.</p><img src="/slow.png"></body></html>`))
	}))
	defer srv.Close()
	defer close(release)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		tmp := t.TempDir()
		cmd := exec.Command(os.Args[0], "extract", srv.URL+"/", "--render", "--timeout", "60s")
		cmd.Env = append(os.Environ(), "WINNOW_MAIN=1", "TMPDIR="+tmp)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-requested:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: the render never asked for the slow image", sig)
		}
		if n := browserProcesses(tmp); n == 0 {
			t.Fatalf("%v: no browser process found while rendering", sig)
		}
		signalAndCheck(t, cmd, sig, tmp)
	}
}

// browserProcesses counts the processes whose command line names dir
// (the browser's profile lives under the child's TMPDIR).
func browserProcesses(dir string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	n := 0
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			n++
		}
	}
	return n
}

// TestRunRenderSignal: winnow run --render over a WARC, stopped by SIGTERM
// while it renders, exits and leaves no browser process behind.
func TestRunRenderSignal(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "crawl.warc")
	bigWARC(t, in, 400)
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "run", in, "--out", filepath.Join(dir, "out.jsonl"), "--render", "--single-page")
	cmd.Env = append(os.Environ(), "WINNOW_MAIN=1", "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for browserProcesses(tmp) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if browserProcesses(tmp) == 0 {
		cmd.Process.Kill()
		t.Fatal("no browser process started")
	}
	time.Sleep(time.Second) // some pages rendered
	signalAndCheck(t, cmd, syscall.SIGTERM, tmp)
}

// signalAndCheck sends sig to a running winnow, waits for it to exit, and
// fails when a browser process with tmp in its command line is left.
func signalAndCheck(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, tmp string) {
	t.Helper()
	cmd.Process.Signal(sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v: winnow did not exit", sig)
	}
	time.Sleep(500 * time.Millisecond)
	if n := browserProcesses(tmp); n != 0 {
		t.Errorf("%v: %d browser processes left", sig, n)
	}
}
