package nrrd

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"
	"math"
	"strconv"

	"github.com/cclabel/cclabel/imagegraph"
)

// nrrdHexReader decodes NRRD hex encoding: two hexadecimal digits a byte,
// whitespace anywhere.
type nrrdHexReader struct {
	br *bufio.Reader
	// err is the error met after the bytes already delivered.
	err error
}

// Read decodes bytes into p.
func (h *nrrdHexReader) Read(p []byte) (int, error) {
	if h.err != nil {
		return 0, h.err
	}
	for n := range p {
		hi, err := h.digit()
		if err == nil {
			var lo byte
			lo, err = h.digit()
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			p[n] = hi<<4 | lo
		}
		if err != nil {
			h.err = err
			return n, nil
		}
	}
	return len(p), nil
}

// digit returns the value of the next hexadecimal digit, skipping
// whitespace.
func (h *nrrdHexReader) digit() (byte, error) {
	for {
		c, err := h.br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch {
		case c >= '0' && c <= '9':
			return c - '0', nil
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, nil
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, nil
		case c == ' ' || (c >= '\t' && c <= '\r'):
			continue
		}
		return 0, fmt.Errorf("nrrd: hex data: invalid character %q", c)
	}
}

// nrrdASCII reads n samples of kind written as text: numbers separated by
// whitespace or commas. Integer types take integers (or integral
// floating-point values) in their range.
func nrrdASCII(r io.Reader, kind imagegraph.SampleKind, n int) (imagegraph.Data, error) {
	parse := nrrdParser(kind)
	out, err := imagegraph.NewSamples(kind, min(n, 1<<16))
	if parse == nil || err != nil {
		return nil, fileio.Unsupportedf("nrrd: unsupported sample kind %v", kind)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1024)
	sc.Split(nrrdSplitValues)
	size := kind.Size()
	for i := 0; i < n; i++ {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, nrrdScanError(err)
			}
			return nil, fmt.Errorf("nrrd: ascii data holds %d values, the sizes need %d", i, n)
		}
		v, ok := parse(sc.Text())
		if !ok {
			return nil, fmt.Errorf("nrrd: ascii data: %s is not a valid %s value", nrrdQuote(sc.Text()), kind)
		}
		if i == out.Len() {
			grown, _ := imagegraph.NewSamples(kind, min(n, 2*out.Len()))
			copy(grown.Bytes(), out.Bytes())
			out = grown
		}
		nrrdPutBits(out.Bytes()[i*size:(i+1)*size], v)
	}
	if sc.Scan() {
		return nil, fmt.Errorf("nrrd: ascii data holds more than the %d values the sizes give", n)
	}
	if err := sc.Err(); err != nil {
		return nil, nrrdScanError(err)
	}
	return out, nil
}

// nrrdParser returns the parser of the values of kind (nil for RGB): each
// parsed value comes as its bits in the kind's encoding (two's
// complement, IEEE 754), in the low bytes of a uint64.
func nrrdParser(kind imagegraph.SampleKind) func(string) (uint64, bool) {
	bits := 8 * kind.Size()
	switch {
	case kind == imagegraph.RGB:
		return nil
	case kind.IsFloat():
		return func(s string) (uint64, bool) {
			v, err := strconv.ParseFloat(s, bits)
			if bits == 32 {
				return uint64(math.Float32bits(float32(v))), err == nil
			}
			return math.Float64bits(v), err == nil
		}
	case kind.IsSigned():
		return nrrdIntParser(bits)
	}
	return nrrdUintParser(bits)
}

// nrrdPutBits stores the low len(b) bytes of v in b, in the machine's
// byte order.
func nrrdPutBits(b []byte, v uint64) {
	switch len(b) {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.NativeEndian.PutUint16(b, uint16(v))
	case 4:
		binary.NativeEndian.PutUint32(b, uint32(v))
	default:
		binary.NativeEndian.PutUint64(b, v)
	}
}

// nrrdScanError describes a scanner error.
func nrrdScanError(err error) error {
	if err == bufio.ErrTooLong {
		return fmt.Errorf("nrrd: ascii data: a value longer than 1024 characters")
	}
	return err
}

// nrrdSplitValues is a bufio.SplitFunc for numbers separated by
// whitespace or commas.
func nrrdSplitValues(data []byte, atEOF bool) (advance int, token []byte, err error) {
	sep := func(c byte) bool { return c == ',' || c == ' ' || (c >= '\t' && c <= '\r') }
	start := 0
	for start < len(data) && sep(data[start]) {
		start++
	}
	for i := start; i < len(data); i++ {
		if sep(data[i]) {
			return i + 1, data[start:i], nil
		}
	}
	if atEOF && start < len(data) {
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

// nrrdIntParser parses signed integers of the given bits.
func nrrdIntParser(bits int) func(string) (uint64, bool) {
	return func(s string) (uint64, bool) {
		if v, err := strconv.ParseInt(s, 10, bits); err == nil {
			return uint64(v), true
		}
		f, err := strconv.ParseFloat(s, 64)
		limit := math.Ldexp(1, bits-1)
		if err != nil || f != math.Trunc(f) || f < -limit || f >= limit {
			return 0, false
		}
		return uint64(int64(f)), true
	}
}

// nrrdUintParser parses unsigned integers of the given bits.
func nrrdUintParser(bits int) func(string) (uint64, bool) {
	return func(s string) (uint64, bool) {
		if v, err := strconv.ParseUint(s, 10, bits); err == nil {
			return v, true
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f != math.Trunc(f) || f < 0 || f >= math.Ldexp(1, bits) {
			return 0, false
		}
		return uint64(f), true
	}
}
