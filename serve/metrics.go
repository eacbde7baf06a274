package serve

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, in a registry of its own
// (two servers in one process do not collide). Every name starts with
// winnow_, the Go runtime's and the process's too.
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec   // route, code
	duration  *prometheus.HistogramVec // route
	inflight  prometheus.Gauge
	reqBytes  *prometheus.CounterVec // route
	respBytes *prometheus.CounterVec // route
	pages     *prometheus.CounterVec // status
	rejected  *prometheus.CounterVec // reason
}

// latencyBuckets run from 0.5 ms to about 16 s, doubling: a page takes a
// few milliseconds, a batch seconds.
var latencyBuckets = prometheus.ExponentialBuckets(0.0005, 2, 16)

func newMetrics(s *Server) *metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) prometheus.Collector { reg.MustRegister(c); return c }
	m := &metrics{reg: reg}
	m.requests = f(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "winnow_http_requests_total",
		Help: "HTTP requests answered, by route and status code."}, []string{"route", "code"})).(*prometheus.CounterVec)
	m.duration = f(prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "winnow_http_request_duration_seconds",
		Help: "Time from a request's headers to the end of its answer, by route.", Buckets: latencyBuckets},
		[]string{"route"})).(*prometheus.HistogramVec)
	m.inflight = f(prometheus.NewGauge(prometheus.GaugeOpts{Name: "winnow_http_requests_in_flight",
		Help: "Requests being answered now."})).(prometheus.Gauge)
	m.reqBytes = f(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "winnow_http_request_body_bytes_total",
		Help: "Request body bytes read, by route."}, []string{"route"})).(*prometheus.CounterVec)
	m.respBytes = f(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "winnow_http_response_body_bytes_total",
		Help: "Response body bytes written, by route."}, []string{"route"})).(*prometheus.CounterVec)
	m.pages = f(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "winnow_pages_total",
		Help: "Pages labelled, by record status (ok, error, skipped)."}, []string{"status"})).(*prometheus.CounterVec)
	m.rejected = f(prometheus.NewCounterVec(prometheus.CounterOpts{Name: "winnow_http_rejected_total",
		Help: "Requests refused before their work: overload, too_large, unauthorized."}, []string{"reason"})).(*prometheus.CounterVec)
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "winnow_index_documents",
		Help: "Documents in the near-duplicate index."}, func() float64 { return float64(s.docs.Load()) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "winnow_templates",
		Help: "Site templates loaded."}, func() float64 { return float64(s.saved.Load().Len()) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "winnow_max_inflight",
		Help: "The most requests worked on at once."}, func() float64 { return float64(s.cfg.MaxInflight) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "winnow_http_requests_waiting",
		Help: "Requests waiting for a worker now."}, func() float64 { return float64(s.waiting.Load()) }))
	wrapped := prometheus.WrapRegistererWithPrefix("winnow_", reg)
	wrapped.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, r := range []string{"extract", "duplicates", "batch"} {
		m.duration.WithLabelValues(r) // present from the start, at zero
	}
	return m
}

func (m *metrics) handler() http.HandlerFunc {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}).ServeHTTP
}

// observe counts and logs one answered request. The log line has no
// header and no query: a token never reaches the log.
func (s *Server) observe(route string, rec *recorder, in int64, r *http.Request, start time.Time, id string) {
	code := rec.code
	if !rec.wrote {
		code = http.StatusOK
	}
	d := time.Since(start)
	m := s.metrics
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
	m.reqBytes.WithLabelValues(route).Add(float64(in))
	m.respBytes.WithLabelValues(route).Add(float64(rec.bytes))
	level := slog.LevelInfo
	if code >= 500 {
		level = slog.LevelError
	}
	s.log.LogAttrs(r.Context(), level, "request", slog.String("request_id", id), slog.String("method", r.Method),
		slog.String("path", r.URL.Path), slog.Int("code", code), slog.Int64("in_bytes", in),
		slog.Int64("out_bytes", rec.bytes), slog.Duration("duration", d), slog.String("remote", r.RemoteAddr))
}
