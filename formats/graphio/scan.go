package graphio

import "bytes"

// Byte classes of the chunk parsers' fast paths.
const (
	classSpace   = 1 << iota // ' ', '\t', '\r', '\v', '\f' (isSpace)
	classComma               // ','
	classNewline             // '\n'
)

// byteClasses maps each byte to its classes.
var byteClasses = func() (t [256]uint8) {
	for _, c := range []byte(" \t\r\v\f") {
		t[c] = classSpace
	}
	t[','] = classComma
	t['\n'] = classNewline
	return t
}()

// maxFastDigits is the most digits the fast paths take: any 18-digit
// number fits in an int64, so they need no overflow checks.
const maxFastDigits = 18

// scanInt parses the decimal integer at data[i:], with a leading '-'
// when signed, that ends at the end of data or at a byte of the classes
// in stop. It returns the value and the index after it, or ok false for
// anything else (no digits, a '+' sign, more than maxFastDigits digits, a
// stray byte), which the caller hands to its line's slow path.
func scanInt(data []byte, i int, signed bool, stop uint8) (x int64, next int, ok bool) {
	neg := false
	if signed && i < len(data) && data[i] == '-' {
		neg = true
		i++
	}
	start := i
	for i < len(data) {
		d := data[i] - '0'
		if d > 9 {
			break
		}
		x = x*10 + int64(d)
		i++
	}
	if n := i - start; n == 0 || n > maxFastDigits {
		return 0, 0, false
	}
	if i < len(data) && byteClasses[data[i]]&stop == 0 {
		return 0, 0, false
	}
	if neg {
		x = -x
	}
	return x, i, true
}

// skipClass returns the index of the first byte at or after i that is not
// of the classes in skip.
func skipClass(data []byte, i int, skip uint8) int {
	for i < len(data) && byteClasses[data[i]]&skip != 0 {
		i++
	}
	return i
}

// lineEnd returns the index of the '\n' that ends the line holding
// data[i], or len(data) for the last line.
func lineEnd(data []byte, i int) int {
	if i < len(data) && data[i] == '\n' {
		return i
	}
	if e := bytes.IndexByte(data[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(data)
}

// trimCR drops a trailing '\r' from line.
func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}
