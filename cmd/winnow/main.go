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
)

func main() {
	err := newRoot().ExecuteContext(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "winnow:", err)
	}
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
