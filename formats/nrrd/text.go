package nrrd

import (
	"bufio"
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
func nrrdASCII(r io.Reader, kind imagegraph.SampleKind, n int) (any, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1024)
	sc.Split(nrrdSplitValues)
	switch kind {
	case imagegraph.Uint8:
		return nrrdDecodeASCII(sc, n, kind, nrrdUintParser[uint8](8))
	case imagegraph.Uint16:
		return nrrdDecodeASCII(sc, n, kind, nrrdUintParser[uint16](16))
	case imagegraph.Uint32:
		return nrrdDecodeASCII(sc, n, kind, nrrdUintParser[uint32](32))
	case imagegraph.Uint64:
		return nrrdDecodeASCII(sc, n, kind, nrrdUintParser[uint64](64))
	case imagegraph.Int8:
		return nrrdDecodeASCII(sc, n, kind, nrrdIntParser[int8](8))
	case imagegraph.Int16:
		return nrrdDecodeASCII(sc, n, kind, nrrdIntParser[int16](16))
	case imagegraph.Int32:
		return nrrdDecodeASCII(sc, n, kind, nrrdIntParser[int32](32))
	case imagegraph.Int64:
		return nrrdDecodeASCII(sc, n, kind, nrrdIntParser[int64](64))
	case imagegraph.Float32:
		return nrrdDecodeASCII(sc, n, kind, func(s string) (float32, bool) {
			v, err := strconv.ParseFloat(s, 32)
			return float32(v), err == nil
		})
	case imagegraph.Float64:
		return nrrdDecodeASCII(sc, n, kind, func(s string) (float64, bool) {
			v, err := strconv.ParseFloat(s, 64)
			return v, err == nil
		})
	}
	return nil, fileio.Unsupportedf("nrrd: unsupported sample kind %v", kind)
}

// nrrdDecodeASCII parses exactly n values from sc.
func nrrdDecodeASCII[T any](sc *bufio.Scanner, n int, kind imagegraph.SampleKind, parse func(string) (T, bool)) ([]T, error) {
	out := make([]T, 0, min(n, 1<<16))
	for len(out) < n {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, nrrdScanError(err)
			}
			return nil, fmt.Errorf("nrrd: ascii data holds %d values, the sizes need %d", len(out), n)
		}
		v, ok := parse(sc.Text())
		if !ok {
			return nil, fmt.Errorf("nrrd: ascii data: %s is not a valid %s value", nrrdQuote(sc.Text()), kind)
		}
		if len(out) == cap(out) {
			grown := make([]T, len(out), min(n, 2*cap(out)))
			copy(grown, out)
			out = grown
		}
		out = append(out, v)
	}
	if sc.Scan() {
		return nil, fmt.Errorf("nrrd: ascii data holds more than the %d values the sizes give", n)
	}
	if err := sc.Err(); err != nil {
		return nil, nrrdScanError(err)
	}
	return out, nil
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
func nrrdIntParser[T int8 | int16 | int32 | int64](bits int) func(string) (T, bool) {
	return func(s string) (T, bool) {
		if v, err := strconv.ParseInt(s, 10, bits); err == nil {
			return T(v), true
		}
		f, err := strconv.ParseFloat(s, 64)
		limit := math.Ldexp(1, bits-1)
		if err != nil || f != math.Trunc(f) || f < -limit || f >= limit {
			return 0, false
		}
		return T(f), true
	}
}

// nrrdUintParser parses unsigned integers of the given bits.
func nrrdUintParser[T uint8 | uint16 | uint32 | uint64](bits int) func(string) (T, bool) {
	return func(s string) (T, bool) {
		if v, err := strconv.ParseUint(s, 10, bits); err == nil {
			return T(v), true
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f != math.Trunc(f) || f < 0 || f >= math.Ldexp(1, bits) {
			return 0, false
		}
		return T(f), true
	}
}
