package serve

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/langid"
	"github.com/winnow-go/winnow/pipeline"
)

//go:embed openapi.json
var openAPI []byte

// Defaults of Config's zero fields.
const (
	DefaultMaxBodyBytes = extract.DefaultMaxPageBytes
	// DefaultBatchFactor: a batch body may be this many times
	// MaxBodyBytes.
	DefaultBatchFactor    = 64
	DefaultReadHeaderTime = 10 * time.Second
	DefaultReadTimeout    = 60 * time.Second
	DefaultWriteTimeout   = 120 * time.Second
	DefaultIdleTimeout    = 120 * time.Second
	DefaultFetchTimeout   = 30 * time.Second
	// DefaultQueueTimeout: as long as the Retry-After of a 503 asks a
	// client to wait.
	DefaultQueueTimeout    = time.Second
	DefaultMaxHeaderBytes  = 64 << 10
	defaultInflightPerCore = 1
)

// Config configures a Server. The zero value serves extraction with the
// density classifier alone, no index, no token, no fetching.
type Config struct {
	// Stages label the pages; Stages.Rules are the site rules.
	Stages pipeline.Stages
	// TemplatesDir holds the site templates a run saved (winnow run
	// --templates); "" for none. They are read once, by New.
	TemplatesDir string
	// IndexDir is the near-duplicate index (winnow index); it is created
	// when the folder holds none. "" serves no /v1/duplicates.
	IndexDir string
	// IndexOptions are a new index's settings (nil: the defaults); an
	// existing index keeps its own, and other settings are an error.
	IndexOptions *dedup.StoreOptions
	// IndexCacheBytes bounds the index's block cache; 0 means
	// dedup.DefaultCacheBytes.
	IndexCacheBytes int64
	// Token, when set, must come as "Authorization: Bearer TOKEN" with
	// every request but /healthz and /readyz. It is never logged.
	Token string
	// MaxBodyBytes caps a request body, and a batch's lines; longer
	// bodies are answered 413. 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxBatchBytes caps a /v1/batch body; 0 means DefaultBatchFactor
	// times MaxBodyBytes.
	MaxBatchBytes int64
	// MaxInflight is the most requests worked on at once; more wait in
	// the waiting room, or are answered 503 with Retry-After when it is
	// full. 0 means one per core: labelling is work for the CPU, and more
	// at once only lengthens every answer.
	MaxInflight int
	// MaxQueue is the most requests that wait, in order of arrival, for
	// a worker when all are busy: a core never idles between one answer
	// and the next request of a client, yet the wait is bounded. Past it
	// a request is refused at once (503). 0 means MaxInflight; negative,
	// none wait.
	MaxQueue int
	// QueueTimeout is the longest a request waits for a worker before
	// its 503; 0 means DefaultQueueTimeout.
	QueueTimeout time.Duration
	// AllowFetch are the hosts whose pages may be fetched when a request
	// names a URL without its page ("example.com" that host, ".example.com"
	// its subdomains too). Empty: no fetching.
	AllowFetch []string
	// FetchTimeout bounds one fetch, redirects included; 0 means
	// DefaultFetchTimeout.
	FetchTimeout time.Duration
	// The http.Server timeouts of HTTPServer; 0 means the Default...
	// constants.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// Logger gets a line per request and every failure; nil is silent.
	Logger *slog.Logger
}

func (c *Config) ensureDefaults() {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.MaxBatchBytes <= 0 {
		c.MaxBatchBytes = DefaultBatchFactor * c.MaxBodyBytes
	}
	if c.MaxInflight <= 0 {
		c.MaxInflight = defaultInflightPerCore * runtime.GOMAXPROCS(0)
	}
	switch {
	case c.MaxQueue == 0:
		c.MaxQueue = c.MaxInflight
	case c.MaxQueue < 0:
		c.MaxQueue = 0
	}
	if c.QueueTimeout <= 0 {
		c.QueueTimeout = DefaultQueueTimeout
	}
	if c.FetchTimeout <= 0 {
		c.FetchTimeout = DefaultFetchTimeout
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&c.ReadHeaderTimeout, DefaultReadHeaderTime}, {&c.ReadTimeout, DefaultReadTimeout},
		{&c.WriteTimeout, DefaultWriteTimeout}, {&c.IdleTimeout, DefaultIdleTimeout}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
}

// Server is the service: an http.Handler. Close it to sync and close
// the index.
type Server struct {
	cfg     Config
	saved   atomic.Pointer[pipeline.SavedSites]
	store   *dedup.Store
	docs    atomic.Int64   // documents in the index
	slots   chan struct{}  // worker slots: a request, or a batch line, being worked on
	waiting atomic.Int64   // requests waiting for a worker slot
	batches chan struct{}  // open batches
	stripes [64]sync.Mutex // per URL hash: a query and the add after it
	fetch   *fetcher
	metrics *metrics
	routes  map[string]route
	tokenH  [sha256.Size]byte
	ready   atomic.Bool
	log     *slog.Logger
}

// route is one path: its method, whether it needs the token, its body
// limit (0: no body) and its handler.
type route struct {
	name, method string
	auth         bool
	limit        int64
	handle       func(http.ResponseWriter, *http.Request)
}

// New loads the templates, opens (or creates) the index and builds the
// language identifier, so that the first request does not wait for them.
func New(cfg Config) (*Server, error) {
	cfg.ensureDefaults()
	s := &Server{cfg: cfg, slots: make(chan struct{}, cfg.MaxInflight), batches: make(chan struct{}, cfg.MaxInflight), log: cfg.Logger}
	if err := s.ReloadTemplates(); err != nil {
		return nil, err
	}
	if cfg.IndexDir != "" {
		if err := s.openIndex(); err != nil {
			return nil, err
		}
	}
	if cfg.Token != "" {
		s.tokenH = sha256.Sum256([]byte(cfg.Token))
	}
	var err error
	if s.fetch, err = newFetcher(cfg.AllowFetch, cfg.FetchTimeout, cfg.MaxBodyBytes); err != nil {
		s.Close()
		return nil, err
	}
	if cfg.Stages.Metadata.Identify == nil && !cfg.Stages.NoLangID {
		langid.Default()
	}
	s.metrics = newMetrics(s)
	s.routes = s.routeTable()
	s.ready.Store(true)
	return s, nil
}

// ReloadTemplates reads the templates folder again (a run may have
// learned or relearned templates since), and puts its templates in force
// for the requests that start after it. On an error the templates in
// force stay.
func (s *Server) ReloadTemplates() error {
	saved, err := pipeline.LoadSavedSites(s.cfg.TemplatesDir)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	s.saved.Store(saved)
	return nil
}

// Templates is the number of saved templates in force.
func (s *Server) Templates() int { return s.saved.Load().Len() }

// openIndex opens the index, or creates it, and counts its documents.
func (s *Server) openIndex() error {
	oo := dedup.OpenOptions{CacheBytes: s.cfg.IndexCacheBytes}
	st, err := dedup.OpenExistingStoreWith(s.cfg.IndexDir, s.cfg.IndexOptions, oo)
	if errors.Is(err, dedup.ErrNoStore) {
		st, err = dedup.OpenStoreWith(s.cfg.IndexDir, s.cfg.IndexOptions, oo)
	}
	if err != nil {
		return fmt.Errorf("serve: index %s: %w", s.cfg.IndexDir, err)
	}
	stats, err := st.Stats()
	if err != nil {
		st.Close()
		return fmt.Errorf("serve: index %s: %w", s.cfg.IndexDir, err)
	}
	s.store = st
	s.docs.Store(int64(stats.Documents))
	return nil
}

func (s *Server) routeTable() map[string]route {
	body, batch := s.cfg.MaxBodyBytes, s.cfg.MaxBatchBytes
	return map[string]route{
		"/v1/extract":    {"extract", http.MethodPost, true, body, s.handleExtract},
		"/v1/duplicates": {"duplicates", http.MethodPost, true, body, s.handleDuplicates},
		"/v1/batch":      {"batch", http.MethodPost, true, batch, s.handleBatch},
		"/healthz":       {"healthz", http.MethodGet, false, 0, s.handleHealth},
		"/readyz":        {"readyz", http.MethodGet, false, 0, s.handleReady},
		"/metrics":       {"metrics", http.MethodGet, true, 0, s.metrics.handler()},
		"/openapi.json":  {"openapi", http.MethodGet, true, 0, handleOpenAPI},
	}
}

// HTTPServer is an http.Server for the handler on addr, with the
// configured timeouts and a header size limit; its own errors (bad TLS,
// accept failures) go to the logger.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// Close syncs and closes the index. Requests must have ended.
func (s *Server) Close() error {
	s.ready.Store(false)
	if s.store == nil {
		return nil
	}
	err := s.store.Close()
	s.store = nil
	return err
}

type ctxKey struct{}

// requestID is the request's id: the client's X-Request-ID when it is a
// short plain token, else a new random one.
func requestID(r *http.Request) string {
	if id := r.Header.Get("X-Request-ID"); id != "" && len(id) <= 64 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == "" {
		return id
	}
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ServeHTTP routes a request through the limits to its handler, and
// logs and counts it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := requestID(r)
	rt, ok := s.routes[r.URL.Path]
	if !ok {
		rt = route{name: "other", auth: true, handle: func(w http.ResponseWriter, r *http.Request) {
			writeError(w, r, http.StatusNotFound, "no such route: "+r.URL.Path)
		}}
	}
	rec := &recorder{ResponseWriter: w}
	rec.Header().Set("X-Request-ID", id)
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, id))
	body := &countingReader{r: r.Body}
	r.Body = body
	s.metrics.inflight.Inc()
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.log.Error("panic", "request_id", id, "route", rt.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			if !rec.wrote {
				writeError(rec, r, http.StatusInternalServerError, "internal error")
			}
		}
		s.metrics.inflight.Dec()
		s.observe(rt.name, rec, body.n, r, start, id)
	}()
	if s.admit(rt, rec, r) {
		rt.handle(rec, r)
	}
}

// admit makes the checks every route shares, in order: the token, the
// body size (413 before anything else), the method. It answers the
// request and returns false when one fails.
func (s *Server) admit(rt route, w http.ResponseWriter, r *http.Request) bool {
	if rt.auth && !s.authorized(r) {
		s.metrics.rejected.WithLabelValues("unauthorized").Inc()
		w.Header().Set("WWW-Authenticate", `Bearer realm="winnow"`)
		writeError(w, r, http.StatusUnauthorized, "missing or wrong bearer token")
		return false
	}
	if r.ContentLength > rt.limit || (rt.limit == 0 && r.ContentLength > 0) {
		s.metrics.rejected.WithLabelValues("too_large").Inc()
		writeError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body of %d bytes: the limit is %d", r.ContentLength, rt.limit))
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, max(rt.limit, 1))
	if rt.method != "" && r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		writeError(w, r, http.StatusMethodNotAllowed, rt.method+" only")
		return false
	}
	if rt.limit > 0 && s.full() {
		s.busy(w, r)
		return false
	}
	return true
}

func (s *Server) authorized(r *http.Request) bool {
	if s.cfg.Token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	h := sha256.Sum256([]byte(strings.TrimSpace(got)))
	return subtle.ConstantTimeCompare(h[:], s.tokenH[:]) == 1
}

// acquire takes a worker slot, waiting for one in the waiting room
// (Config.MaxQueue, Config.QueueTimeout) when all are taken, or answers
// 503 with Retry-After and returns false: under overload a request is
// refused at once when the room is full, never queued without bound, so
// that the accepted ones keep their latency.
func (s *Server) acquire(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	select {
	case s.slots <- struct{}{}:
		return s.freeSlot, true
	default:
	}
	if s.waiting.Add(1) > int64(s.cfg.MaxQueue) {
		s.waiting.Add(-1)
		s.busy(w, r)
		return nil, false
	}
	t := time.NewTimer(s.cfg.QueueTimeout)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		s.waiting.Add(-1)
		return s.freeSlot, true
	case <-t.C:
	case <-r.Context().Done():
	}
	s.waiting.Add(-1)
	s.busy(w, r)
	return nil, false
}

func (s *Server) freeSlot() { <-s.slots }

// acquireBatch admits a batch, or answers 503: at most MaxInflight
// batches are open at once. A batch takes a worker slot for each of its
// lines once the line is read (waitSlot), so a batch whose client sends
// slowly holds no slot meanwhile.
func (s *Server) acquireBatch(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	return s.take(s.batches, w, r)
}

// take takes a place in sem without waiting, or answers 503.
func (s *Server) take(sem chan struct{}, w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, true
	default:
		s.busy(w, r)
		return nil, false
	}
}

// waitSlot takes a worker slot for a line of an admitted batch, waiting
// for one; the waiters are bounded by the open batches.
func (s *Server) waitSlot(ctx context.Context) (release func(), err error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// busy answers 503 with Retry-After.
func (s *Server) busy(w http.ResponseWriter, r *http.Request) {
	s.metrics.rejected.WithLabelValues("overload").Inc()
	w.Header().Set("Retry-After", "1")
	writeError(w, r, http.StatusServiceUnavailable, fmt.Sprintf("busy: %d requests in progress", s.cfg.MaxInflight))
}

// full says every worker slot is taken and the waiting room is full: a
// request that arrives then is refused before its body is read, which
// would cost the busy server time for nothing. (A request admitted on
// its way in may still find no room once its body is read, and is
// refused then: a slow client never holds a slot, nor a place in the
// room, while it sends.)
func (s *Server) full() bool {
	return len(s.slots) == cap(s.slots) && s.waiting.Load() >= int64(s.cfg.MaxQueue)
}

// stripe is the lock of a URL: a duplicate check and the add after it
// hold it, so two adds of one URL do not interleave.
func (s *Server) stripe(url string) *sync.Mutex {
	h := fnv.New32a()
	io.WriteString(h, url)
	return &s.stripes[h.Sum32()%uint32(len(s.stripes))]
}

// readBody reads the whole body; a body over the limit is answered 413
// and a failed read 400, and ok is false.
func readBody(w http.ResponseWriter, r *http.Request) (b []byte, ok bool) {
	b, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over the limit of %d bytes", tooBig.Limit))
		return nil, false
	case err != nil:
		writeError(w, r, http.StatusBadRequest, "reading the body: "+err.Error())
		return nil, false
	}
	return b, true
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "closing"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "templates": s.saved.Load().Len(),
		"index": s.store != nil, "index_documents": s.docs.Load()})
}

func handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openAPI)
}

// errorBody is every error answer.
type errorBody struct {
	Error     string `json:"error"`
	RequestID string `json:"request_id,omitempty"`
}

func writeError(w http.ResponseWriter, r *http.Request, code int, msg string) {
	id, _ := r.Context().Value(ctxKey{}).(string)
	writeJSON(w, code, errorBody{msg, id})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// recorder keeps the status and size of an answer; it passes Flush on
// (Unwrap, for http.ResponseController) so that a batch streams.
type recorder struct {
	http.ResponseWriter
	code  int
	bytes int64
	wrote bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.code, r.wrote = http.StatusOK, true
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// countingReader counts the body bytes a handler read.
type countingReader struct {
	r io.ReadCloser
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingReader) Close() error { return c.r.Close() }
