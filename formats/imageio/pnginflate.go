package imageio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// Pipeline sizes: rows travel from the inflater to the unfilterer in
// blocks of about blockBytes, through a ring of ringBlocks buffers, so
// the memory beyond the image stays near ringBlocks*blockBytes. Images
// of less than syncBytes of filtered data are inflated and unfiltered on
// one goroutine.
const (
	blockBytes = 256 << 10
	ringBlocks = 4
	syncBytes  = 1 << 20
)

// zlibStream checks a zlib header as compress/zlib does (deflate, a
// window of at most 32 KiB, a valid check, no preset dictionary) and
// returns the deflate data and the Adler-32 checksum that ends the
// stream.
func zlibStream(z []byte) ([]byte, uint32, error) {
	if len(z) < 6 {
		return nil, 0, errPNGNotFast
	}
	cmf, flg := z[0], z[1]
	if cmf&0x0f != 8 || cmf>>4 > 7 || (uint16(cmf)<<8|uint16(flg))%31 != 0 || flg&0x20 != 0 {
		return nil, 0, errPNGNotFast
	}
	return z[2 : len(z)-4], binary.BigEndian.Uint32(z[len(z)-4:]), nil
}

// inflateRows inflates the deflate data into rows of rowSize bytes (the
// filter byte and the row) and passes them to emit a block of whole
// rows at a time, in order, in buffers from get. It fails unless the
// data holds exactly height rows and ends exactly where the deflate
// stream ends.
func inflateRows(deflate []byte, rowSize, height int, get func() ([]byte, bool), emit func([]byte) bool) error {
	src := bytes.NewReader(deflate)
	fr := flate.NewReader(src)
	perBlock := max(1, blockBytes/rowSize)
	for y := 0; y < height; y += perBlock {
		buf, ok := get()
		if !ok {
			return errPNGNotFast
		}
		n := min(perBlock, height-y) * rowSize
		if _, err := io.ReadFull(fr, buf[:n]); err != nil {
			return errPNGNotFast // image/png: "not enough pixel data" or the inflater's error
		}
		if !emit(buf[:n]) {
			return errPNGNotFast
		}
	}
	var one [1]byte
	if n, err := io.ReadFull(fr, one[:]); n != 0 || err != io.EOF || src.Len() != 0 {
		return errPNGNotFast // image/png: "too much pixel data" or an error
	}
	return nil
}

// decodeRows inflates the zlib stream z into t's image, on two
// goroutines when the image is large.
func decodeRows(z []byte, t *pngTarget, height int) error {
	deflate, sum, err := zlibStream(z)
	if err != nil {
		return err
	}
	rowSize := 1 + t.rowBytes
	u := newUnfilterer(t)
	if rowSize*height < syncBytes {
		buf := make([]byte, min(height, max(1, blockBytes/rowSize))*rowSize)
		get := func() ([]byte, bool) { return buf, true }
		emit := func(b []byte) bool { return u.rows(b) == nil }
		if err := inflateRows(deflate, rowSize, height, get, emit); err != nil {
			return err
		}
	} else if err := pngPipeline(deflate, rowSize, height, u); err != nil {
		return err
	}
	if u.sum.Sum32() != sum {
		return errPNGNotFast // image/png: "zlib: invalid checksum"
	}
	return nil
}

// pipeline runs inflateRows on a second goroutine, passing blocks of rows
// to u through a ring of buffers.
func pngPipeline(deflate []byte, rowSize, height int, u *unfilterer) error {
	size := max(1, blockBytes/rowSize) * rowSize
	free := make(chan []byte, ringBlocks)
	for range ringBlocks {
		free <- make([]byte, size)
	}
	full := make(chan []byte, ringBlocks)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var inflateErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(full)
		get := func() ([]byte, bool) {
			select {
			case b := <-free:
				return b, true
			case <-done:
				return nil, false
			}
		}
		emit := func(b []byte) bool {
			select {
			case full <- b:
				return true
			case <-done:
				return false
			}
		}
		inflateErr = inflateRows(deflate, rowSize, height, get, emit)
	}()
	var err error
	for b := range full {
		if err == nil {
			err = u.rows(b)
		}
		if err != nil {
			break
		}
		free <- b[:cap(b)]
	}
	close(done)
	wg.Wait()
	if err != nil {
		return err
	}
	if inflateErr != nil {
		return fmt.Errorf("png: inflating: %w", inflateErr)
	}
	return nil
}
