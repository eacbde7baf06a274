// Command loadgen measures winnow serve on loopback: it starts the given
// winnow binary as `winnow serve`, posts the Scrapinghub pages of the
// shared data to /v1/extract for a fixed time at each concurrency, and
// stops. For each level it prints the requests answered 200 per second,
// their p50 and p99 latency, the share answered 503 (and how fast), and
// the ratio of the 200s per second to the in-process throughput of the
// same pages (pipeline.Stages.Record on -workers goroutines, measured
// again just before each level while the server idles, since the machine
// may be shared). At the end it prints the
// server's peak resident memory (VmHWM). With -dup it measures
// /v1/duplicates instead: the {"url","text"} records of a JSONL file are
// posted as queries, or with -add as queries and adds under new URLs.
//
//	go build -o /tmp/winnow ./cmd/winnow
//	go run ./internal/tools/loadgen -winnow /tmp/winnow -c 1,2,8,64 -d 10s
//	go run ./internal/tools/loadgen -winnow /tmp/winnow -dup held.jsonl -c 8 -serve-flags "--index /tmp/idx --max-inflight 8"
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winnow-go/winnow/internal/gz"
	"github.com/winnow-go/winnow/internal/shareddata"
	"github.com/winnow-go/winnow/pipeline"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

type options struct {
	winnow, data, set, extra string
	dup                      string // JSONL of {"url","text"}: measure /v1/duplicates
	add                      bool
	levels                   []int
	dur                      time.Duration
	workers                  int
}

func parse(args []string) (options, error) {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	var o options
	var levels string
	fs.StringVar(&o.winnow, "winnow", "", "the winnow binary to start as winnow serve (required)")
	fs.StringVar(&o.data, "data", "", "the shared data folder (default: ../shared/data or $WINNOW_DATA)")
	fs.StringVar(&o.set, "set", "scrapinghub", "the extraction set whose pages are posted")
	fs.StringVar(&levels, "c", "1,2,8,64", "concurrency levels, comma-separated")
	fs.DurationVar(&o.dur, "d", 10*time.Second, "time at each level (and for the in-process measure)")
	fs.IntVar(&o.workers, "workers", 2, "goroutines of the in-process measure")
	fs.StringVar(&o.dup, "dup", "", `measure /v1/duplicates instead: post the {"url","text"} records of this JSONL file (give the server --index DIR in -serve-flags)`)
	fs.BoolVar(&o.add, "add", false, "with -dup: query and add (add=true), each record under a new URL")
	fs.StringVar(&o.extra, "serve-flags", "", "more flags for winnow serve, space-separated (e.g. --max-inflight 8)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.winnow == "" {
		return o, errors.New("-winnow BIN is required")
	}
	for _, s := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-c %q: want positive integers", levels)
		}
		o.levels = append(o.levels, n)
	}
	if o.dur <= 0 || o.dur > 10*time.Minute {
		return o, fmt.Errorf("-d %v: want a duration up to 10m", o.dur)
	}
	return o, nil
}

func run(args []string, out io.Writer) error {
	o, err := parse(args)
	if err != nil {
		return err
	}
	// The in-process reference gets the collector winnow run and winnow
	// serve set (cmd/winnow batchGC), unless the environment sets it.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
	if o.dup != "" {
		return runDup(o, out)
	}
	if o.data == "" {
		if o.data, err = shareddata.Dir(); err != nil {
			return err
		}
	}
	pages, err := readPages(o.data, o.set)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d pages of %s; in process: Stages.Record on %d goroutines for %v just before each level\n",
		len(pages), o.set, o.workers, o.dur)
	srv, err := startServer(o.winnow, strings.Fields(o.extra))
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Fprintf(out, "%-6s %9s %8s %8s %8s %7s %9s %6s %8s\n", "conc", "200/s", "p50 ms", "p99 ms", "503 %", "503 p99", "in-proc/s", "ratio", "p99/p99@1")
	var unloaded float64
	for _, c := range o.levels {
		// The machine may be shared: the reference is measured again
		// beside each level, while the server idles.
		inproc := inProcess(pages, o.workers, o.dur)
		lv := load(c, o.dur, func(client *http.Client, i int) (int, error) {
			return post(client, srv.base, pages[i%len(pages)])
		})
		p50, p99 := lv.ok.quantile(0.5), lv.ok.quantile(0.99)
		if unloaded == 0 {
			unloaded = p99
		}
		rate := float64(len(lv.ok)) / lv.secs
		fmt.Fprintf(out, "%-6d %9.1f %8.1f %8.1f %8.1f %7.1f %9.1f %6.2f %8.2f\n", c, rate, p50, p99,
			100*float64(len(lv.busy))/float64(max(1, len(lv.ok)+len(lv.busy))), lv.busy.quantile(0.99), inproc, rate/inproc, p99/unloaded)
		if lv.errors > 0 {
			fmt.Fprintf(out, "       %d other answers or errors (first: %s)\n", lv.errors, lv.firstErr)
		}
	}
	fmt.Fprintf(out, "server peak RSS (VmHWM): %s\n", srv.peakRSS())
	return nil
}

type page struct {
	url  string
	body []byte
}

// readPages reads the set's pages with their URLs (ground-truth.json),
// in file-name order.
func readPages(data, set string) ([]page, error) {
	files, err := filepath.Glob(filepath.Join(data, "extract", set, "html", "*.html.gz"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no pages in %s (%v)", filepath.Join(data, "extract", set, "html"), err)
	}
	var gt map[string]struct {
		URL string `json:"url"`
	}
	if b, err := os.ReadFile(filepath.Join(data, "extract", set, "ground-truth.json")); err == nil {
		json.Unmarshal(b, &gt)
	}
	var pages []page
	for _, f := range files {
		b, err := gz.ReadFile(f)
		if err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(filepath.Base(f), ".html.gz")
		u := gt[id].URL
		if u == "" {
			u = "https://" + set + ".example/" + id
		}
		pages = append(pages, page{u, b})
	}
	return pages, nil
}

// inProcess is the pages per second that Stages.Record labels on workers
// goroutines over the pages, round and round, for d.
func inProcess(pages []page, workers int, d time.Duration) float64 {
	var st pipeline.Stages
	st.Record(context.Background(), pipeline.Input{URL: pages[0].url, Body: pages[0].body}, nil, "", pipeline.RecordOptions{}) // build the language models first
	var n atomic.Int64
	secs := rounds(workers, d, func(i int) {
		p := pages[i%len(pages)]
		st.Record(context.Background(), pipeline.Input{URL: p.url, Body: p.body}, nil, "", pipeline.RecordOptions{})
		n.Add(1)
	})
	return float64(n.Load()) / secs
}

// rounds calls fn on workers goroutines, goroutine w with w, w+workers,
// w+2*workers..., until d has passed, and returns the seconds taken.
func rounds(workers int, d time.Duration, fn func(i int)) float64 {
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; time.Now().Before(deadline); i += workers {
				fn(i)
			}
		})
	}
	wg.Wait()
	return time.Since(start).Seconds()
}

// server is the winnow serve process.
type server struct {
	cmd  *exec.Cmd
	base string
}

func startServer(bin string, extra []string) (*server, error) {
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var l struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "listening" {
				addr <- l.Addr
				break
			}
		}
		// The server's log lines (one a request) are drained unread: the
		// load generator shares the cores it measures.
		io.Copy(io.Discard, stderr)
	}()
	select {
	case a := <-addr:
		return &server{cmd, "http://" + a}, nil
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, errors.New("winnow serve did not listen within a minute")
	}
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	s.cmd.Wait()
}

// peakRSS reads the server's VmHWM from /proc.
func (s *server) peakRSS() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// latencies are answer times in milliseconds.
type latencies []float64

func (l latencies) quantile(q float64) float64 {
	if len(l) == 0 {
		return 0
	}
	s := slices.Clone(l)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

type level struct {
	ok, busy latencies
	errors   int
	firstErr string
	secs     float64
}

// load sends requests (send gets the request's number) with c clients
// for d and collects the answers.
func load(c int, d time.Duration, send func(client *http.Client, i int) (int, error)) level {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c}, Timeout: time.Minute}
	var mu sync.Mutex
	var lv level
	lv.secs = rounds(c, d, func(i int) {
		t0 := time.Now()
		code, err := send(client, i)
		ms := float64(time.Since(t0).Microseconds()) / 1000
		mu.Lock()
		switch {
		case err == nil && code == http.StatusOK:
			lv.ok = append(lv.ok, ms)
		case err == nil && code == http.StatusServiceUnavailable:
			lv.busy = append(lv.busy, ms)
		default:
			if lv.errors++; lv.firstErr == "" {
				lv.firstErr = fmt.Sprintf("%d %v", code, err)
			}
		}
		mu.Unlock()
		if code == http.StatusServiceUnavailable {
			// A crawler backs off; without a pause the rejected
			// clients would spin and take the CPU.
			time.Sleep(5 * time.Millisecond)
		}
	})
	client.CloseIdleConnections()
	return lv
}

func post(client *http.Client, base string, p page) (int, error) {
	return postBody(client, base+"/v1/extract?url="+url.QueryEscape(p.url), "text/html", p.body)
}

// runDup measures /v1/duplicates: the records of o.dup posted at each
// concurrency, queried (or queried and added under new URLs with -add).
func runDup(o options, out io.Writer) error {
	var recs [][]byte
	var urls []string
	err := readJSONL(o.dup, func(b []byte) error {
		var r struct{ URL, Text string }
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		recs = append(recs, []byte(r.Text))
		urls = append(urls, r.URL)
		return nil
	})
	if err != nil || len(recs) == 0 {
		return fmt.Errorf("-dup %s: %d records (%v)", o.dup, len(recs), err)
	}
	srv, err := startServer(o.winnow, strings.Fields(o.extra))
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Fprintf(out, "%d records of %s to /v1/duplicates (add=%v)\n", len(recs), o.dup, o.add)
	fmt.Fprintf(out, "%-6s %9s %8s %8s %8s\n", "conc", "200/s", "p50 ms", "p99 ms", "errors")
	var seq atomic.Int64
	for _, c := range o.levels {
		lv := load(c, o.dur, func(client *http.Client, i int) (int, error) {
			k := i % len(recs)
			q := "?url=" + url.QueryEscape(urls[k])
			if o.add {
				q = "?add=true&url=" + url.QueryEscape(fmt.Sprintf("%s#loadgen-%d", urls[k], seq.Add(1)))
			}
			return postBody(client, srv.base+"/v1/duplicates"+q, "text/plain", recs[k])
		})
		fmt.Fprintf(out, "%-6d %9.1f %8.2f %8.2f %8d\n", c, float64(len(lv.ok))/lv.secs, lv.ok.quantile(0.5), lv.ok.quantile(0.99), lv.errors+len(lv.busy))
	}
	fmt.Fprintf(out, "server peak RSS (VmHWM): %s\n", srv.peakRSS())
	return nil
}

func readJSONL(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			if err := fn(sc.Bytes()); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

func postBody(client *http.Client, u, ctype string, body []byte) (int, error) {
	resp, err := client.Post(u, ctype, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}
