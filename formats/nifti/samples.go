package nifti

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/klauspost/compress/gzip"
)

// niftiChunk is the number of bytes converted at a time, and the first
// allocation when the input's size is unknown.
const niftiChunk = 1 << 20

// niftiReadSamples reads the samples of every frame (little-endian unless
// bigEndian) into one slice of the layout's kind. When sized is true the
// input is known to hold them and the slice is allocated at once;
// otherwise it grows (doubling) with the data that actually arrives, so a
// header that lies about a short stream costs little memory. When sized,
// filled (if not nil) is told the slice and how many samples are in place
// once it is allocated and after every chunk.
func niftiReadSamples(r io.Reader, l niftiLayout, bigEndian, sized bool, filled func(data any, done int)) (any, error) {
	if l.bytes > math.MaxInt {
		return nil, fmt.Errorf("%d bytes of samples do not fit in memory on this platform", l.bytes)
	}
	n := l.voxels * l.frames
	if !sized {
		filled = nil
	}
	switch l.kind {
	case imagegraph.Uint8:
		return niftiReadBytes(r, n, sized, filled)
	case imagegraph.Int8:
		return niftiDecode(r, n, 1, false, sized, fileio.DecodeInt8, filled)
	case imagegraph.Uint16:
		return niftiDecode(r, n, 2, bigEndian, sized, fileio.DecodeLE16[uint16], filled)
	case imagegraph.Int16:
		return niftiDecode(r, n, 2, bigEndian, sized, fileio.DecodeLE16[int16], filled)
	case imagegraph.Uint32:
		return niftiDecode(r, n, 4, bigEndian, sized, fileio.DecodeLE32[uint32], filled)
	case imagegraph.Int32:
		return niftiDecode(r, n, 4, bigEndian, sized, fileio.DecodeLE32[int32], filled)
	case imagegraph.Float32:
		return niftiDecode(r, n, 4, bigEndian, sized, fileio.DecodeLEFloat32, filled)
	case imagegraph.Uint64:
		return niftiDecode(r, n, 8, bigEndian, sized, fileio.DecodeLE64[uint64], filled)
	case imagegraph.Int64:
		return niftiDecode(r, n, 8, bigEndian, sized, fileio.DecodeLE64[int64], filled)
	case imagegraph.Float64:
		return niftiDecode(r, n, 8, bigEndian, sized, fileio.DecodeLEFloat64, filled)
	}
	return nil, fmt.Errorf("unsupported sample kind %v", l.kind)
}

// niftiFilledChunk is how many bytes niftiReadBytes reads between calls
// of its filled function.
const niftiFilledChunk = 4 << 20

// niftiReadBytes reads n bytes straight into the result, telling filled
// (if not nil) after every niftiFilledChunk bytes.
func niftiReadBytes(r io.Reader, n int, sized bool, filled func(data any, done int)) ([]byte, error) {
	out, populated := parallel.AllocPopulated[byte](niftiFirstLen(n, 1, sized))
	defer populated()
	step := n
	if filled != nil {
		filled(out, 0)
		step = niftiFilledChunk
	}
	for done := 0; done < n; {
		if done == len(out) {
			out = niftiGrow(out, n)
		}
		k, err := io.ReadFull(r, out[done:min(len(out), done+step)])
		done += k
		if err != nil {
			return nil, niftiDataError(err, int64(done), int64(n))
		}
		if filled != nil {
			filled(out, done)
		}
	}
	return out, nil
}

// niftiDecode reads n samples of size bytes each, chunk by chunk,
// swapping bytes first when the file is big-endian, and converting with
// conv (which reads little-endian); filled (if not nil) is told after
// every chunk.
func niftiDecode[T any](r io.Reader, n, size int, swap, sized bool, conv func(dst []T, src []byte), filled func(data any, done int)) ([]T, error) {
	out, populated := parallel.AllocPopulated[T](niftiFirstLen(n, size, sized))
	defer populated()
	if filled != nil {
		filled(out, 0)
	}
	buf := make([]byte, min(n*size, niftiChunk))
	per := len(buf) / size
	for done := 0; done < n; {
		k := min(per, n-done)
		for done+k > len(out) {
			out = niftiGrow(out, n)
		}
		b := buf[:k*size]
		if got, err := io.ReadFull(r, b); err != nil {
			return nil, niftiDataError(err, int64(done*size+got), int64(n*size))
		}
		if swap {
			fileio.SwapBytes(b, size)
		}
		conv(out[done:done+k], b)
		done += k
		if filled != nil {
			filled(out, done)
		}
	}
	return out, nil
}

// niftiFirstLen is the length of the first allocation for n samples.
func niftiFirstLen(n, size int, sized bool) int {
	if sized {
		return n
	}
	return min(n, niftiChunk/size)
}

// niftiGrow returns s copied into a slice twice as long, at most n.
func niftiGrow[T any](s []T, n int) []T {
	out := make([]T, min(n, 2*len(s)))
	copy(out, s)
	return out
}

// niftiDataError describes a failure to read the samples.
func niftiDataError(err error, got, want int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("data truncated: %d of %d bytes of samples present", got, want)
	}
	return niftiStreamError(err)
}

// niftiStreamError rewords the errors of reading a (gzipped) stream.
func niftiStreamError(err error) error {
	switch {
	case errors.Is(err, gzip.ErrChecksum):
		return errors.New("gzip checksum mismatch: the file is corrupt")
	case errors.Is(err, gzip.ErrHeader):
		return errors.New("corrupt gzip stream (bad member header)")
	}
	return err
}

// niftiFrames splits the samples of all frames into one raster per frame,
// each a slice of the same buffer.
func niftiFrames(data any, l niftiLayout) []*imagegraph.Raster {
	frames := make([]*imagegraph.Raster, l.frames)
	for t := range frames {
		d := fileio.SubSamples(data, t*l.voxels, (t+1)*l.voxels)
		frames[t] = &imagegraph.Raster{Width: l.width, Height: l.height, Depth: l.depth, Kind: l.kind, Data: d}
	}
	return frames
}
