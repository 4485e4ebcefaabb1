package graphio

import (
	"bufio"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"math"
	"strconv"
)

// lineReader yields the lines of a text input without their line endings,
// counting them for error messages.
type lineReader struct {
	br   *bufio.Reader
	line int    // number of the line last returned, 1-based
	long []byte // holds a line longer than br's buffer
	err  error  // read error that ended the input, if any
}

// newLineReader returns a lineReader over r.
func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<16)}
}

// next returns the next line, or ok false at the end of the input or on a
// read error (then lr.err is set). The line aliases an internal buffer and
// is valid until the next call.
func (lr *lineReader) next() (line []byte, ok bool) {
	line, err := lr.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(lr.long) > fileio.MaxLineBytes {
				lr.err = fmt.Errorf("formats: line %d: longer than %d MiB", lr.line+1, fileio.MaxLineBytes>>20)
				return nil, false
			}
			line, err = lr.br.ReadSlice('\n')
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	if err != nil && err != io.EOF {
		lr.err = fmt.Errorf("formats: line %d: read: %w", lr.line+1, err)
		return nil, false
	}
	if len(line) == 0 {
		return nil, false
	}
	lr.line++
	if n := len(line); line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, true
}

// errorf returns an error for the current line: "formats: line N: ...".
func (lr *lineReader) errorf(format string, args ...any) error {
	return lineErrorf(lr.line, format, args...)
}

// lineErrorf returns an error for line num: "formats: line N: ...".
func lineErrorf(num int, format string, args ...any) error {
	return fmt.Errorf("formats: line %d: "+format, append([]any{num}, args...)...)
}

// isSpace reports whether c separates fields in every text format.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// isSep reports whether c separates fields: whitespace, and also commas
// when comma is true.
func isSep(c byte, comma bool) bool {
	return isSpace(c) || (comma && c == ',')
}

// fields splits line into at most len(dst) fields separated by runs of
// separators (see isSep), storing them in dst; it returns how many it
// stored. The fields alias line.
func fields(line []byte, dst [][]byte, comma bool) int {
	n, i := 0, 0
	for n < len(dst) {
		for i < len(line) && isSep(line[i], comma) {
			i++
		}
		if i == len(line) {
			break
		}
		start := i
		for i < len(line) && !isSep(line[i], comma) {
			i++
		}
		dst[n] = line[start:i]
		n++
	}
	return n
}

// firstByte returns the first byte of line that is not whitespace, or 0
// for a blank line.
func firstByte(line []byte) byte {
	for _, c := range line {
		if !isSpace(c) {
			return c
		}
	}
	return 0
}

// parseInt parses a decimal integer with an optional sign ('+' or '-')
// and reports whether b is one that fits an int64, without the string
// conversion strconv needs.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		d := uint64(c) - '0'
		if d > 9 || u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	}
	return 0, false
}

// quote returns b quoted for a one-line message, shortened when long.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}
