// Package decimal parses the decimal integers of text inputs (graph files,
// update files) from bytes, without the string conversion strconv needs.
package decimal

import "math"

// ParseInt parses a decimal integer with an optional sign ('+' or '-')
// and reports whether b is one that fits an int64.
func ParseInt(b []byte) (int64, bool) {
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
