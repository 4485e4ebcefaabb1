// Package errtext shapes the error messages of the format packages: every
// message is one line that starts with "formats: ", and errors about a
// file name it right after that prefix ("formats: PATH: ...").
package errtext

import (
	"strconv"
	"strings"
)

// FileError puts a path into a reader's error: "formats: PATH: ...".
type FileError struct {
	// Path names the file.
	Path string
	// Err is the reader's error, with or without the "formats: " prefix.
	Err error
}

// Error returns the message with the path after the "formats: " prefix.
func (e *FileError) Error() string {
	return "formats: " + PathText(e.Path) + ": " + strings.TrimPrefix(e.Err.Error(), "formats: ")
}

// Unwrap returns the reader's error.
func (e *FileError) Unwrap() error { return e.Err }

// PathText returns path for a one-line message, quoted only when it holds
// control characters.
func PathText(path string) string {
	if strings.ContainsFunc(path, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return strconv.Quote(path)
	}
	return path
}

// OneLine replaces line breaks in a message by spaces.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
