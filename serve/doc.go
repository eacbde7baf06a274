// Package serve is winnow's HTTP service (winnow serve, DESIGN.md "Beyond
// one machine, and as a service"): one long-lived process that holds the
// site templates, the rule files and the near-duplicate index, and
// answers crawlers page by page.
//
// Routes (openapi.json, served at /openapi.json, describes them):
//
//	POST /v1/extract     one page: the record winnow run writes for it
//	POST /v1/duplicates  the held documents a text, page or record matches; add=true adds it
//	POST /v1/batch       JSONL pages in, JSONL records out, streamed
//	GET  /healthz        the process answers
//	GET  /readyz         templates and index are loaded
//	GET  /metrics        Prometheus metrics, every name starting with winnow_
//	GET  /openapi.json   the API description
//
// Pages are labelled through pipeline.Stages, the one description of the
// stages and their order, so a page's answer is the record a run over
// that page alone writes; the template of the page's site group comes
// from the templates a run saved (pipeline.SavedSites).
//
// # Safety
//
// A request goes through, in order: authentication (a bearer token,
// when Config.Token is set), the body size limit (413), the method, the
// reading of the body (bounded by the server's read timeout), and then
// the concurrency limit: at most Config.MaxInflight requests are worked
// on at once, at most Config.MaxQueue more wait for a worker in order of
// arrival (for Config.QueueTimeout at most), and the others are answered
// 503 with Retry-After at once: the queue is bounded, and a core does not
// idle between one answer and the next request of a client. A slow
// client holds no worker, nor a place in the queue, while it sends its body
// (a batch takes a worker for each line once the line is read). A
// panic in a handler is a 500 and a log line. URLs are fetched only for
// hosts named in Config.AllowFetch, and never from loopback, private,
// link-local or other non-public addresses: the address is checked after
// name resolution, on the socket about to connect, for every redirect.
//
// Files: server.go (Config, New, routing, the limits), extract.go
// (/v1/extract and /v1/batch), duplicates.go, fetch.go, metrics.go,
// listen.go (the listen address and token policy).
package serve
