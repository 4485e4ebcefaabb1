// Package clix is what the cclabel commands share: the streams a command
// reads and writes, usage errors (exit status 2) and the JSON summary
// printer.
package clix

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"
)

// Stdio holds the streams a command reads and writes, so tests can run the
// CLI in process.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// UsageError marks errors that should exit with status 2.
type UsageError struct{ Err error }

// Error returns the wrapped error's text.
func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e UsageError) Unwrap() error { return e.Err }

// Usagef returns a usage error.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// OnUsageError turns flag-parsing errors into usage errors.
func OnUsageError(_ context.Context, _ *cli.Command, err error, _ bool) error {
	return UsageError{err}
}

// WriteJSON prints v as one indented JSON object.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("json summary: %w", err)
	}
	return nil
}
