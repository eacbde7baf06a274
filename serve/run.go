package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// ListenAndServe serves on addr until ctx is done, then shuts down
// gracefully: it stops accepting, lets the requests in progress finish
// within shutdown, and closes the server (the index is synced and
// closed). Every value received on reload reloads the templates folder;
// a failed reload is logged and the templates in force stay. It returns
// nil after a shutdown that ctx asked for, else the error that ended
// serving. The server is closed in every case.
func (s *Server) ListenAndServe(ctx context.Context, addr string, shutdown time.Duration, reload <-chan struct{}) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.Close()
		return err
	}
	hs := s.HTTPServer(addr)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	s.log.Info("listening", "addr", ln.Addr().String(), "templates", s.cfg.TemplatesDir, "index", s.cfg.IndexDir, "token", s.cfg.Token != "")
	if err = s.waitForStop(ctx, errc, reload); err == nil {
		s.log.Info("shutting down", "timeout", shutdown.String())
		sctx, cancel := context.WithTimeout(context.Background(), shutdown)
		err = hs.Shutdown(sctx)
		cancel()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	s.log.Info("stopped", "error", fmt.Sprint(err))
	return err
}

// waitForStop returns nil when ctx is done, or the error that ended
// serving; meanwhile every value on reload reloads the templates.
func (s *Server) waitForStop(ctx context.Context, errc <-chan error, reload <-chan struct{}) error {
	for {
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		case <-reload:
			if err := s.ReloadTemplates(); err != nil {
				s.log.Error("templates not reloaded", "error", err.Error())
			} else {
				s.log.Info("templates reloaded", "templates", s.Templates())
			}
		}
	}
}

// ReadTokenFile reads a bearer token from a file: its first line, trimmed.
// An empty path is no token; an empty token is an error, since it would
// let every request through.
func ReadTokenFile(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("serve: token file: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	token := strings.TrimSpace(line)
	if token == "" {
		return "", fmt.Errorf("serve: token file %s is empty", path)
	}
	return token, nil
}
