package tiffio

import (
	"bytes"
	"io"
)

// readLimited reads r to its end or to limit bytes, into buf.
func readLimited(r io.Reader, buf []byte, limit int64) ([]byte, error) {
	w := bytes.NewBuffer(buf[:0])
	_, err := w.ReadFrom(io.LimitReader(r, limit))
	return w.Bytes(), err
}

// unpackBits decompresses PackBits data as x/image/tiff does: it stops
// at the end of the data, and fails on a truncated run or on more than
// limit bytes.
func unpackBits(src, dst []byte, limit int64) ([]byte, error) {
	dst = dst[:0]
	for i := 0; i < len(src); {
		code := int(int8(src[i]))
		i++
		switch {
		case code >= 0:
			if len(src)-i < code+1 {
				return dst, errNoSplit
			}
			dst = append(dst, src[i:i+code+1]...)
			i += code + 1
		case code == -128:
		default:
			if i >= len(src) {
				return dst, errNoSplit
			}
			for range 1 - code {
				dst = append(dst, src[i])
			}
			i++
		}
		if int64(len(dst)) > limit {
			return dst, errNoSplit
		}
	}
	return dst, nil
}
