package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/winnow-go/winnow/infholder"
)

// served is a real winnow serve process started by a test.
type served struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:PORT
	mu   sync.Mutex
	logs bytes.Buffer
	done chan struct{}
}

// startServe starts winnow serve on a free loopback port with args and
// waits until it listens.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "WINNOW_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var l struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "listening" {
				addr <- l.Addr
			}
			s.mu.Lock()
			s.logs.Write(append(sc.Bytes(), '\n'))
			s.mu.Unlock()
		}
	}()
	select {
	case a := <-addr:
		s.base = "http://" + a
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("winnow serve did not listen within 60 s")
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return s
}

// wait waits for the process to end and returns its exit code.
func (s *served) wait() int {
	<-s.done
	s.cmd.Wait()
	return s.cmd.ProcessState.ExitCode()
}

func (s *served) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// killText is a text of 120 words that depends on n alone.
func killText(n int) string {
	var sb strings.Builder
	for i := range 120 {
		fmt.Fprintf(&sb, "k%d_%d ", n, (i*131+n)%997)
	}
	return sb.String()
}

// addDoc adds one document through /v1/duplicates?add=true; ok is an
// answer 200 that says it was added.
func addDoc(c *http.Client, base, u, text string) (ok bool, err error) {
	resp, err := c.Post(base+"/v1/duplicates?add=true&url="+u, "text/plain", strings.NewReader(text))
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var a struct{ Added bool }
	err = json.NewDecoder(resp.Body).Decode(&a)
	return resp.StatusCode == 200 && err == nil && a.Added, err
}

// TestServeSIGKILL kills a real winnow serve with SIGKILL while eight
// clients add documents, restarts it on the same index, and checks that
// every add answered 200 is there.
func TestServeSIGKILL(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "idx")
	s := startServe(t, "--index", idx, "--max-inflight", "16")
	client := &http.Client{Timeout: 10 * time.Second}
	var mu sync.Mutex
	var answered []int
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				n := g*100000 + i
				ok, err := addDoc(client, s.base, fmt.Sprintf("https://k.example/%d", n), killText(n))
				if err != nil {
					return // killed
				}
				if ok {
					mu.Lock()
					answered = append(answered, n)
					mu.Unlock()
				}
			}
		})
	}
	time.Sleep(1500 * time.Millisecond)
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	s.wait()
	if len(answered) < 8 {
		t.Fatalf("only %d adds answered before the kill", len(answered))
	}
	s2 := startServe(t, "--index", idx)
	missing := 0
	for _, n := range answered {
		u := fmt.Sprintf("https://k.example/%d", n)
		resp, err := client.Post(s2.base+"/v1/duplicates?url="+u, "text/plain", strings.NewReader(killText(n)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Contains(b, []byte(`"url":"`+u+`"`)) {
			missing++
			if missing < 5 {
				t.Errorf("add of %s was answered 200 and is not in the index after SIGKILL: %s", u, b)
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d answered adds missing", missing, len(answered))
	}
	t.Logf("%d adds answered before SIGKILL, all there after the restart", len(answered))
}

// TestServeSIGTERM: SIGTERM lets a request in progress finish, then the
// process exits 0 and says it stopped.
func TestServeSIGTERM(t *testing.T) {
	s := startServe(t, "--index", filepath.Join(t.TempDir(), "idx"))
	pr, pw := io.Pipe()
	type result struct {
		code  int
		lines int
		err   error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := http.Post(s.base+"/v1/batch", "application/x-ndjson", pr)
		if err != nil {
			res <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		res <- result{resp.StatusCode, bytes.Count(b, []byte("\n")), err}
	}()
	line := `{"url":"https://a.example/","html":"<html><body><p>A page sent in a batch that is still open when the server is told to stop.</p></body></html>"}` + "\n"
	pw.Write([]byte(line))
	time.Sleep(300 * time.Millisecond)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	pw.Write([]byte(line))
	pw.Close()
	r := <-res
	if r.err != nil || r.code != 200 || r.lines != 2 {
		t.Errorf("the batch in progress: %d, %d lines, %v; want 200 and 2 lines", r.code, r.lines, r.err)
	}
	if code := s.wait(); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0:\n%s", code, s.log())
	}
	if !strings.Contains(s.log(), `"msg":"stopped"`) {
		t.Errorf("no stop line:\n%s", s.log())
	}
	if _, err := http.Get(s.base + "/healthz"); err == nil {
		t.Error("still answering after the stop")
	}
}

func TestServeUsage(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"all interfaces without a token", []string{"--listen", "0.0.0.0:0"}, 2},
		{"another address without a token", []string{"--listen", ":0"}, 2},
		{"empty token file", []string{"--token-file", empty}, 1},
		{"missing token file", []string{"--token-file", filepath.Join(dir, "nope")}, 1},
		{"bad max-body-bytes", []string{"--max-body-bytes", "0"}, 2},
		{"bad index-cache", []string{"--index-cache", "lots"}, 2},
		{"bad allow-fetch", []string{"--allow-fetch", "http://a.example/"}, 1},
		{"an argument", []string{"extra"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"serve"}, c.args...)...)
			cmd.Env = append(os.Environ(), "WINNOW_MAIN=1")
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Errorf("exit %v, want %d:\n%s", err, c.code, out)
			}
		})
	}
}

// TestServeSIGHUP: SIGHUP puts templates saved after the start in force.
func TestServeSIGHUP(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "--templates", dir)
	templates := func() int {
		resp, err := http.Get(s.base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct{ Templates int }
		json.NewDecoder(resp.Body).Decode(&r)
		return r.Templates
	}
	if n := templates(); n != 0 {
		t.Fatalf("%d templates at the start", n)
	}
	tpl := &infholder.Template{Version: infholder.TemplateVersion, Group: "a.example/", Signature: infholder.SigContent, Sigs: map[uint32]float64{1: 1}}
	fh, err := os.Create(filepath.Join(dir, infholder.FileName(tpl.Group)))
	if err != nil {
		t.Fatal(err)
	}
	tpl.Save(fh)
	fh.Close()
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for i := 0; templates() != 1; i++ {
		if i == 50 {
			t.Fatalf("the template is not in force 5 s after SIGHUP:\n%s", s.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
