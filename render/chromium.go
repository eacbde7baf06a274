package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// FindChromium picks the Chromium binary: path when given, else the
// WINNOW_CHROMIUM environment variable, else chromium, chromium-browser,
// google-chrome or google-chrome-stable on PATH. A browser is never
// downloaded.
func FindChromium(path string) (string, error) {
	if path == "" {
		path = os.Getenv("WINNOW_CHROMIUM")
	}
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrBrowser, path, err)
		}
		return path, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: no Chromium found: install one (Debian: apt-get install chromium), or name it with --chromium PATH or WINNOW_CHROMIUM", ErrBrowser)
}

// Chromium is a Browser over one headless Chromium process, rendering up
// to a fixed number of pages at a time, each in its own tab. A browser
// that crashes or hangs is started again; the page that saw it fails.
type Chromium struct {
	bin  string
	sem  chan struct{}
	mu   sync.Mutex // guards the fields below
	l    *launcher.Launcher
	b    *rod.Browser
	gen  int // incremented on every (re)start
	done bool
}

// NewChromium starts Chromium from bin for up to pages concurrent renders.
func NewChromium(bin string, pages int) (*Chromium, error) {
	if pages <= 0 {
		pages = 1
	}
	c := &Chromium{bin: bin, sem: make(chan struct{}, pages)}
	if err := c.start(); err != nil {
		return nil, err
	}
	return c, nil
}

// start launches the browser; the caller holds mu or owns c alone.
func (c *Chromium) start() error {
	dir, err := os.MkdirTemp("", "winnow-chromium-*")
	if err != nil {
		return err
	}
	l := launcher.New().
		Bin(c.bin).
		Leakless(false).
		Headless(true).
		NoSandbox(os.Geteuid() == 0). // Chromium refuses to run its sandbox as root
		UserDataDir(dir).
		Set("window-size", fmt.Sprintf("%d,%d", ViewportWidth, ViewportHeight)).
		Set("disable-gpu").
		Set("no-first-run").
		Set("disable-background-networking").
		Set("disable-component-update").
		Set("disable-sync").
		Set("disable-quic").
		Set("disable-extensions").
		Set("disable-default-apps").
		Set("mute-audio").
		// One renderer process for all frames, so the request
		// interception sees every iframe's requests too.
		Set("disable-site-isolation-trials").
		Set("disable-features", "IsolateOrigins,site-per-process,Translate,MediaRouter,OptimizationHints").
		// Belt and braces: whatever escaped the interception would go to
		// a proxy that is not there, loopback included.
		Set("proxy-server", "127.0.0.1:9").
		Set("proxy-bypass-list", "<-loopback>")
	u, err := l.Launch()
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("%w: start %s: %v", ErrBrowser, c.bin, err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		l.Cleanup()
		return fmt.Errorf("%w: connect: %v", ErrBrowser, err)
	}
	c.l, c.b = l, b
	c.gen++
	return nil
}

// stop ends the browser process group and removes its profile.
func (c *Chromium) stop() {
	if c.b != nil {
		c.b.Close()
	}
	if c.l != nil {
		c.l.Kill()
		c.l.Cleanup()
	}
	c.b, c.l = nil, nil
}

// PID is the browser's process id (0 when it is not running).
func (c *Chromium) PID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.l == nil {
		return 0
	}
	return c.l.PID()
}

// Close ends the browser and every process it started.
func (c *Chromium) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = true
	c.stop()
	return nil
}

// current returns the running browser and its generation.
func (c *Chromium) current() (*rod.Browser, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return nil, 0, fmt.Errorf("%w: closed", ErrBrowser)
	}
	if c.b == nil {
		if err := c.start(); err != nil {
			return nil, 0, err
		}
	}
	return c.b, c.gen, nil
}

// restart replaces the browser of generation gen, unless another render
// already did.
func (c *Chromium) restart(gen int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done || gen != c.gen {
		return
	}
	c.stop()
	c.start() // a failure leaves b nil: the next render tries again
}

// alive reports whether the browser answers within a second.
func alive(b *rod.Browser) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := proto.BrowserGetVersion{}.Call(b.Context(ctx))
	return err == nil
}

// Render implements Browser.
func (c *Chromium) Render(ctx context.Context, pageURL string, doc []byte, res Resources, opts Options) (*Layout, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	b, gen, err := c.current()
	if err != nil {
		return nil, err
	}
	budget := opts.Timeout
	if budget <= 0 {
		budget = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	l, err := renderPage(ctx, b, pageURL, doc, res, opts)
	if err != nil {
		if !alive(b) {
			c.restart(gen)
			return nil, fmt.Errorf("%w: crashed or hung while rendering %s (restarted): %v", ErrBrowser, pageURL, err)
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("render: %s: over the time budget of %v", pageURL, budget)
		}
		return nil, fmt.Errorf("render: %s: %w", pageURL, err)
	}
	return l, nil
}

// renderPage renders in a new tab of b, which it closes.
func renderPage(ctx context.Context, b *rod.Browser, pageURL string, doc []byte, res Resources, opts Options) (*Layout, error) {
	page, err := b.Context(ctx).Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, err
	}
	defer func() {
		// Close with a context of its own: the render's may be over.
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		page.Context(cctx).Close()
	}()
	err = proto.EmulationSetDeviceMetricsOverride{Width: ViewportWidth, Height: ViewportHeight, DeviceScaleFactor: 1}.Call(page)
	if err != nil {
		return nil, err
	}
	if err := (proto.EmulationSetScriptExecutionDisabled{Value: !opts.JS}).Call(page); err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var requests []Request
	logReq := func(r Request) {
		mu.Lock()
		requests = append(requests, r)
		mu.Unlock()
	}
	router := page.HijackRequests()
	docServed := false
	err = router.Add("*", "", func(h *rod.Hijack) {
		// A handler runs on a goroutine of its own: a panic here would
		// end the whole process, so it blocks the request instead.
		defer func() {
			if r := recover(); r != nil {
				h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
				logReq(Request{URL: "?", Why: fmt.Sprintf("blocked: %v", r)})
			}
		}()
		pu := h.Request.URL()
		if pu == nil {
			h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
			logReq(Request{URL: "?", Why: "blocked: a URL that does not parse"})
			return
		}
		u := pu.String()
		mu.Lock()
		// The page's own document is the first document the tab asks
		// for, whatever the browser made of its URL (escaping, an
		// https upgrade): iframes are asked for only after it.
		isDoc := !docServed && h.Request.Type() == proto.NetworkResourceTypeDocument
		docServed = docServed || isDoc
		mu.Unlock()
		switch {
		case isDoc:
			h.Response.SetHeader("Content-Type", "text/html; charset=utf-8")
			h.Response.SetBody(doc)
			logReq(Request{URL: u, Served: true, Why: "document"})
		case h.Request.Method() != "GET":
			h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
			logReq(Request{URL: u, Why: "blocked: " + h.Request.Method()})
		default:
			if body, ctype, ok := res.Resource(u); ok {
				if ctype != "" {
					h.Response.SetHeader("Content-Type", ctype)
				}
				h.Response.SetBody(body)
				logReq(Request{URL: u, Served: true, Why: "resource"})
				return
			}
			h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
			logReq(Request{URL: u, Why: "blocked: not in the resources"})
		}
	})
	if err != nil {
		return nil, err
	}
	go router.Run()
	defer router.Stop()
	page = page.Context(ctx)
	wait := page.WaitEvent(&proto.PageLoadEventFired{})
	if err := page.Navigate(pageURL); err != nil {
		return nil, err
	}
	wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	obj, err := page.Eval(geometryJS)
	if err != nil {
		return nil, fmt.Errorf("geometry: %w", err)
	}
	var g struct {
		W, H, VW, VH float64
		Boxes        [][]any
	}
	if err := obj.Value.Unmarshal(&g); err != nil {
		return nil, fmt.Errorf("geometry: %w", err)
	}
	l := &Layout{Boxes: make(map[int]Box, len(g.Boxes)), Width: g.W, Height: g.H, ViewportWidth: g.VW, ViewportHeight: g.VH}
	for _, row := range g.Boxes {
		if len(row) != 10 {
			continue
		}
		num := func(i int) float64 { f, _ := row[i].(float64); return f }
		str := func(i int) string { s, _ := row[i].(string); return s }
		l.Boxes[int(num(0))] = Box{X: num(1), Y: num(2), W: num(3), H: num(4), Display: str(5), Visibility: str(6),
			FontSize: num(7), Position: str(8), Rects: int(num(9))}
	}
	mu.Lock()
	l.Requests = append([]Request(nil), requests...)
	mu.Unlock()
	return l, nil
}

// geometryJS reads every tagged element's box, display, visibility, font
// size, position and number of client rects.
const geometryJS = `() => {
	const boxes = [];
	for (const el of document.querySelectorAll('[` + IDAttr + `]')) {
		const r = el.getBoundingClientRect();
		const cs = getComputedStyle(el);
		boxes.push([+el.getAttribute('` + IDAttr + `'), r.left + scrollX, r.top + scrollY, r.width, r.height,
			cs.display, cs.visibility, parseFloat(cs.fontSize) || 0, cs.position, el.getClientRects().length]);
	}
	const d = document.documentElement;
	return {w: d.scrollWidth, h: d.scrollHeight, vw: innerWidth, vh: innerHeight, boxes};
}`
