// Command winnow cleans crawled web pages: it extracts each page's main
// content, removes site boilerplate and finds near-duplicate pages.
//
// Usage:
//
//	winnow extract <url|file|-> [--format text|markdown|json|html]
//	winnow eval extract <dataset> [--data DIR] [--json] [--out FILE] [--vs TOOL]
//
// Exit codes: 0 when the command finished, 1 when it could not run
// (unreadable input, bad options), 2 for usage errors.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

func main() {
	// SIGINT and SIGTERM cancel the command's context: a run stops, and a
	// browser started for --render is closed with its processes before
	// winnow exits. A second signal ends winnow at once.
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var interrupted atomic.Bool
	go func() {
		<-sigs
		interrupted.Store(true)
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		cancel()
	}()
	err := newRoot().ExecuteContext(ctx)
	if err == nil && interrupted.Load() {
		err = errors.New("interrupted")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "winnow:", err)
	}
	cancel()
	os.Exit(exitCode(err))
}

// usageError marks errors in how the command was called (exit code 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return &usageError{fmt.Errorf(format, a...)} }

// exitCode maps a command's error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}
