package batch

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// maxListLine is the longest line ReadList accepts, in bytes.
const maxListLine = 64 << 10

// ReadList reads an input list, the file named by an @list.txt argument. The
// list holds one path per line. Leading and trailing white space is dropped,
// blank lines and lines starting with '#' are skipped, and CRLF line ends are
// accepted. A line that is not UTF-8, holds a NUL byte or is longer than 64
// KiB is an error naming its line number.
func ReadList(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxListLine)
	var paths []string
	n := 0 // the line number
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case !utf8.ValidString(line):
			return nil, fmt.Errorf("batch: list line %d: not UTF-8", n)
		case strings.ContainsRune(line, 0):
			return nil, fmt.Errorf("batch: list line %d: holds a NUL byte", n)
		}
		paths = append(paths, line)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("batch: list line %d: longer than %d bytes", n+1, maxListLine)
		}
		return nil, fmt.Errorf("batch: list: %w", err)
	}
	return paths, nil
}
