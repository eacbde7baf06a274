package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnow-go/winnow/extract"
	"github.com/winnow-go/winnow/pipeline"
	"github.com/winnow-go/winnow/serve"
)

type serveFlags struct {
	listen, templates, rules, index, tokenFile string
	indexCache                                 string
	maxBody                                    int64
	maxInflight, maxQueue                      int
	allowFetch                                 []string
	shutdown                                   time.Duration
}

// signalEnds marks a command for which SIGINT and SIGTERM are its normal
// end (main exits 0 when it returns no error).
const signalEnds = "winnow/signal-ends"

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "An HTTP service for crawlers: extraction with site templates and rules, near-duplicate checks",
		Long: `Serves POST /v1/extract (one page: the record winnow run writes for it),
POST /v1/duplicates (the held documents a text, page or record matches;
add=true adds it), POST /v1/batch (JSONL pages in, records out, streamed),
GET /healthz, /readyz, /metrics (Prometheus) and /openapi.json.

Safe by default: it listens on loopback, and on any other address only with
--token-file (every request but /healthz and /readyz must then carry
"Authorization: Bearer TOKEN"); bodies over --max-body-bytes are answered
413; past --max-inflight requests at once, up to --max-queue more wait for
a worker (a second at most) and the rest are answered 503 with Retry-After;
it fetches no URL unless --allow-fetch names the host, and never from a
loopback, private or link-local address. SIGHUP reloads the templates
folder. SIGTERM or SIGINT stops it: it
stops accepting, lets requests in progress finish (--shutdown-timeout),
then syncs and closes the index. Logs are JSON lines on stderr.`,
		Example: `  winnow serve
  winnow serve --templates tpl/ --rules rules/ --index idx/
  winnow serve --listen 0.0.0.0:8080 --token-file /etc/winnow/token --allow-fetch example.com,.example.org`,
		Args:        exactArgs(0),
		Annotations: map[string]string{signalEnds: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			// The collector as a run sets it: a request parses a tree
			// and drops it, as a run's page does, and with Go's default
			// the service answered 0.6-0.7 of the pages a second the
			// library labels in process, 0.8 with it (loadgen).
			batchGC()
			return runServe(cmd.Context(), f, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:8080", "address to listen on; other than loopback needs --token-file")
	fl.StringVar(&f.templates, "templates", "", "folder of saved site templates (winnow run --templates)")
	fl.StringVar(&f.rules, "rules", "", "per-site XPath/CSS rules: a YAML or FiveFilters file, or a folder of them")
	fl.StringVar(&f.index, "index", "", "near-duplicate index folder, created when missing (see winnow index); needed by /v1/duplicates")
	fl.StringVar(&f.indexCache, "index-cache", defaultIndexCache, indexCacheUsage)
	fl.StringVar(&f.tokenFile, "token-file", "", "file holding the bearer token that requests must carry")
	fl.Int64Var(&f.maxBody, "max-body-bytes", serve.DefaultMaxBodyBytes, "largest request body (a batch may be 64 times larger); larger ones get 413")
	fl.IntVar(&f.maxInflight, "max-inflight", 0, "most requests worked on at once (default: 1 per core)")
	fl.IntVar(&f.maxQueue, "max-queue", 0, "most requests waiting for a worker when all are busy, more get 503 (default: as many as --max-inflight; -1: none wait)")
	fl.StringSliceVar(&f.allowFetch, "allow-fetch", nil, "hosts whose pages may be fetched when a request gives a URL alone (example.com; .example.com with subdomains)")
	fl.DurationVar(&f.shutdown, "shutdown-timeout", 30*time.Second, "how long requests in progress may take to finish on SIGTERM")
	return cmd
}

// config checks the flags (usage errors) and reads the token and the
// rules.
func (f serveFlags) config(logger *slog.Logger) (serve.Config, error) {
	for _, err := range []error{atLeast("max-body-bytes", f.maxBody, 1), atLeast("max-inflight", f.maxInflight, 0),
		atLeast("max-queue", f.maxQueue, -1), atLeast("shutdown-timeout", f.shutdown, 0)} {
		if err != nil {
			return serve.Config{}, err
		}
	}
	indexCache, err := parseBytes(f.indexCache)
	if err != nil {
		return serve.Config{}, usagef("--index-cache: %v", err)
	}
	token, err := serve.ReadTokenFile(f.tokenFile)
	if err != nil {
		return serve.Config{}, err
	}
	if err := serve.CheckListen(f.listen, token); err != nil {
		return serve.Config{}, usagef("%v", err)
	}
	rules, err := loadRules(f.rules)
	if err != nil {
		return serve.Config{}, err
	}
	return serve.Config{
		Stages:          pipeline.Stages{Extract: extract.Options{MaxPageBytes: int(f.maxBody)}, Rules: rules},
		TemplatesDir:    f.templates,
		IndexDir:        f.index,
		IndexCacheBytes: indexCache,
		Token:           token,
		MaxBodyBytes:    f.maxBody,
		MaxInflight:     f.maxInflight,
		MaxQueue:        f.maxQueue,
		AllowFetch:      f.allowFetch,
		Logger:          logger,
	}, nil
}

// runServe serves until ctx is cancelled (SIGTERM, SIGINT), then shuts
// down gracefully (serve.Server.ListenAndServe); every SIGHUP reloads
// the templates.
func runServe(ctx context.Context, f serveFlags, stderr io.Writer) error {
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	cfg, err := f.config(logger)
	if err != nil {
		return err
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return err
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	reload, done := make(chan struct{}), make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-hup:
				select {
				case reload <- struct{}{}:
				case <-done:
					return
				}
			case <-done:
				return
			}
		}
	}()
	return srv.ListenAndServe(ctx, f.listen, f.shutdown, reload)
}
