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
func niftiReadSamples(r io.Reader, l niftiLayout, bigEndian, sized bool, filled func(data imagegraph.Data, done int)) (imagegraph.Data, error) {
	if l.bytes > math.MaxInt {
		return nil, fmt.Errorf("%d bytes of samples do not fit in memory on this platform", l.bytes)
	}
	n := l.voxels * l.frames
	if !sized {
		filled = nil
	}
	size := l.kind.Size()
	if l.kind == imagegraph.RGB {
		return nil, fmt.Errorf("unsupported sample kind %v", l.kind)
	}
	out, err := imagegraph.NewSamples(l.kind, niftiFirstLen(n, size, sized))
	if err != nil {
		return nil, fmt.Errorf("unsupported sample kind %v", l.kind)
	}
	// The pages fault in on a background goroutine while they are filled.
	defer parallel.Populate(out.Bytes())()
	// Bytes arrive in one read, or niftiFilledChunk at a time when told;
	// wider samples niftiChunk bytes at a time.
	per := niftiChunk / size
	if size == 1 {
		per = n
		if filled != nil {
			per = niftiFilledChunk
		}
	}
	if filled != nil {
		filled(out, 0)
	}
	for done := 0; done < n; {
		if done == out.Len() {
			grown, _ := imagegraph.NewSamples(l.kind, min(n, 2*out.Len()))
			copy(grown.Bytes(), out.Bytes())
			out = grown
		}
		k := min(per, n-done, out.Len()-done)
		b := out.Slice(done, done+k).Bytes()
		if got, err := io.ReadFull(r, b); err != nil {
			return nil, niftiDataError(err, int64(done)*int64(size)+int64(got), int64(n)*int64(size))
		}
		fileio.ToHost(b, size, bigEndian)
		done += k
		if filled != nil {
			filled(out, done)
		}
	}
	return out, nil
}

// niftiFilledChunk is how many bytes of 1-byte samples are read between
// calls of niftiReadSamples' filled function.
const niftiFilledChunk = 4 << 20

// niftiFirstLen is the length of the first allocation for n samples.
func niftiFirstLen(n, size int, sized bool) int {
	if sized {
		return n
	}
	return min(n, niftiChunk/size)
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
func niftiFrames(data imagegraph.Data, l niftiLayout) []*imagegraph.Raster {
	frames := make([]*imagegraph.Raster, l.frames)
	for t := range frames {
		var d imagegraph.Data
		if data != nil {
			d = data.Slice(t*l.voxels, (t+1)*l.voxels)
		}
		frames[t] = &imagegraph.Raster{Width: l.width, Height: l.height, Depth: l.depth, Kind: l.kind, Data: d}
	}
	return frames
}
