// Command winnow cleans crawled web pages: it extracts each page's main
// content, removes site boilerplate and finds near-duplicate pages. Each
// command parses its flags and calls the library functions named beside
// it; winnow COMMAND --help documents its flags.
//
// Usage:
//
//	winnow run INPUTS... --out FILE      every page of WARC, JSONL, folders (pipeline.RunFile)
//	winnow extract URL|FILE|-            one page: text, markdown, json, html (pipeline.ProcessPages)
//	winnow dedup IN.jsonl --out OUT      mark near-duplicates (pipeline.Dedup, WriteDedupReport)
//	winnow index add|query|delete|stats  a persistent near-duplicate index (pipeline.IndexAdd, ...)
//	winnow rules check|suggest           site XPath/CSS rules (xpathrules.Load, pipeline.SuggestRules)
//	winnow eval extract|sites|dedup      measure on ../shared/data (evaluate.CompareExtract, ...)
//	winnow serve                         an HTTP service for crawlers (serve.New)
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
	"time"
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
	cmd, err := newRoot().ExecuteContextC(ctx)
	if err == nil && interrupted.Load() && cmd.Annotations[signalEnds] == "" {
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

// atLeast refuses a flag value below min (a usage error).
func atLeast[T int | int64 | time.Duration](flag string, v, min T) error {
	if v < min {
		return usagef("--%s %v: want %v or more", flag, v, min)
	}
	return nil
}

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
