package npy

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// npyShapeKey finds the shape entry of a header dictionary.
var npyShapeKey = regexp.MustCompile(`'shape':\s*`)

// parseShape reads the shape tuple of a header dictionary: "(H, W)" or
// "(Z, Y, X)", with Python's trailing comma ("(6,)") and the "L" that
// Python 2 wrote after long integers ("(3L, 4L)"). Every dimension is
// from 0 to math.MaxInt32; the errors quote the tuple and name the
// dimension at fault.
func parseShape(head string) ([]int, error) {
	loc := npyShapeKey.FindStringIndex(head)
	if loc == nil {
		return nil, errors.New("header has no 'shape'")
	}
	rest := head[loc[1]:]
	if !strings.HasPrefix(rest, "(") {
		return nil, fmt.Errorf("malformed shape %s: want a tuple such as (3, 4)", shapeText(shapeEntry(rest)))
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return nil, fmt.Errorf("malformed shape %s: no closing parenthesis", shapeText(shapeEntry(rest)))
	}
	tuple := rest[:end+1]
	inner := strings.TrimSpace(tuple[1:end])
	if inner == "" { // a 0-d array
		return nil, nil
	}
	parts := strings.Split(inner, ",")
	if len(parts) > 1 && strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1] // "(6,)"
	}
	dims := make([]int, 0, len(parts))
	for _, part := range parts {
		p := strings.TrimSuffix(strings.TrimSpace(part), "L")
		v, err := strconv.ParseInt(p, 10, 64)
		switch {
		case (err == nil || errors.Is(err, strconv.ErrRange)) && strings.HasPrefix(p, "-"):
			return nil, fmt.Errorf("shape %s: negative dimension %s", shapeText(tuple), p)
		case errors.Is(err, strconv.ErrRange) || err == nil && v > math.MaxInt32:
			return nil, fmt.Errorf("shape %s: dimension %s is too large (at most %d)", shapeText(tuple), p, math.MaxInt32)
		case err != nil:
			return nil, fmt.Errorf("malformed shape %s: %s is not a dimension", shapeText(tuple), strconv.Quote(p))
		}
		dims = append(dims, int(v))
	}
	return dims, nil
}

// shapeEntry returns the text of a shape entry that is no tuple: up to
// the end of the dictionary or the line.
func shapeEntry(rest string) string {
	if i := strings.IndexAny(rest, "}\n"); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimRight(rest, ", ")
}

// shapeText returns header text for a one-line message: at most 40 bytes
// of it, quoted when it holds control characters or is not UTF-8.
func shapeText(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return strconv.Quote(s)
	}
	return s
}
