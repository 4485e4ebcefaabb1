package fileio

import (
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/image/bmp"
	xtiff "golang.org/x/image/tiff"
)

// Every error message of the format packages is one line that starts
// with "formats: ", followed by the file's path when there is one and the
// format's name when one is known: "formats: PATH: nifti: ...".

// FileError reports a failure to open, read, write or name a file. The cause
// is the system's error, or a request the file's format cannot carry out. Its
// message is "formats: PATH: ERR", without the path when Err is an
// [*fs.PathError] of the same path (which names it already).
type FileError struct {
	// Path names the file.
	Path string
	// Err is what failed, with or without the "formats: " prefix.
	Err error
}

// Error returns the message with the path after the "formats: " prefix.
func (e *FileError) Error() string {
	msg := strings.TrimPrefix(e.Err.Error(), "formats: ")
	if pe, ok := e.Err.(*fs.PathError); (ok && pe.Path == e.Path) || e.Path == "" {
		return "formats: " + msg
	}
	return "formats: " + PathText(e.Path) + ": " + msg
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// FormatError reports malformed content: a file not valid in its format. The
// file may have a bad header, truncated or corrupt data, or a line that does
// not parse.
type FormatError struct {
	// Path names the file, "" when the content has no name.
	Path string
	// Format names the format ("nifti", "nrrd", "npy", "png", ...), ""
	// when it is not known.
	Format string
	// Err says what is wrong and, where it is known, where.
	Err error
}

// Error returns the message "formats: PATH: FORMAT: ERR". It leaves out an
// empty path or format (and a "FORMAT: " that starts Err's message).
func (e *FormatError) Error() string { return message(e.Path, e.Format, e.Err) }

// Unwrap returns the underlying error.
func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a valid file or request the formats cannot serve.
// It uses a feature or sample type the format packages do not read or write
// (a NIfTI datatype, a .npy dtype, a file extension).
type UnsupportedError struct {
	// Path names the file, "" when there is none.
	Path string
	// Format names the format, "" when it is not known.
	Format string
	// Err says what is not supported.
	Err error
}

// Error returns the message "formats: PATH: FORMAT: ERR". It leaves out an
// empty path or format (and a "FORMAT: " that starts Err's message).
func (e *UnsupportedError) Error() string { return message(e.Path, e.Format, e.Err) }

// Unwrap returns the underlying error.
func (e *UnsupportedError) Unwrap() error { return e.Err }

// message builds "formats: PATH: FORMAT: ERR" without empty parts, and
// without a "formats: " or "FORMAT: " prefix of err's message.
func message(path, format string, err error) string {
	var b strings.Builder
	b.WriteString("formats: ")
	if path != "" {
		b.WriteString(PathText(path))
		b.WriteString(": ")
	}
	msg := strings.TrimPrefix(err.Error(), "formats: ")
	if format != "" {
		b.WriteString(format)
		b.WriteString(": ")
		msg = strings.TrimPrefix(msg, format+": ")
	}
	b.WriteString(msg)
	return b.String()
}

// unsupported marks an error as a valid input's unsupported feature.
type unsupported struct{ err error }

func (u *unsupported) Error() string { return u.err.Error() }
func (u *unsupported) Unwrap() error { return u.err }

// Unsupportedf returns an error marked as unsupported. [Wrap] and [WrapWrite]
// turn it into an [*UnsupportedError]; its message is [fmt.Sprintf](format,
// args...).
func Unsupportedf(format string, args ...any) error {
	return &unsupported{fmt.Errorf(format, args...)}
}

// IsUnsupported reports whether err says a format or feature is unsupported.
// That is, whether err was made by [Unsupportedf], is an [*UnsupportedError],
// or is an image decoder's report of an unknown format or an unsupported
// feature.
func IsUnsupported(err error) bool {
	var u *unsupported
	var ue *UnsupportedError
	var pu png.UnsupportedError
	var ju jpeg.UnsupportedError
	var tu xtiff.UnsupportedError
	return errors.As(err, &u) || errors.As(err, &ue) || errors.As(err, &pu) || errors.As(err, &ju) ||
		errors.As(err, &tu) || errors.Is(err, image.ErrFormat) || errors.Is(err, bmp.ErrUnsupported)
}

// isSystem reports whether err is the system's: a failed open, read,
// write or system call.
func isSystem(err error) bool {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	var errno syscall.Errno
	return errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) || errors.As(err, &errno)
}

// Wrap turns a reader's error err about the file path into a typed error. The
// message is "formats: PATH: FORMAT: ERR", and the error is an
// [*UnsupportedError] when err is marked unsupported ([Unsupportedf]), a
// [*FileError] when it is the system's, else a [*FormatError]. An empty path
// or format is left out; nil stays nil.
func Wrap(path, format string, err error) error {
	switch {
	case err == nil:
		return nil
	case IsUnsupported(err):
		return &UnsupportedError{Path: path, Format: format, Err: err}
	case isSystem(err):
		return &FileError{Path: path, Err: withFormat(format, err)}
	}
	return &FormatError{Path: path, Format: format, Err: err}
}

// WrapWrite turns a writer's error err about the file path into a typed
// error. The message is "formats: PATH: FORMAT: ERR", and the error is an
// [*UnsupportedError] when err is marked unsupported ([Unsupportedf]), else a
// [*FileError]. nil stays nil.
func WrapWrite(path, format string, err error) error {
	switch {
	case err == nil:
		return nil
	case IsUnsupported(err):
		return &UnsupportedError{Path: path, Format: format, Err: err}
	}
	return &FileError{Path: path, Err: withFormat(format, err)}
}

// withFormat puts the format's name before err's message, unless it is
// there already.
func withFormat(format string, err error) error {
	if format == "" || strings.HasPrefix(err.Error(), format+": ") {
		return err
	}
	return fmt.Errorf("%s: %w", format, err)
}

// PathText returns path for a one-line message. It quotes the path only when
// it holds control characters.
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
