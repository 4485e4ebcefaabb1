package pdeflate

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"runtime"

	"github.com/klauspost/compress/flate"
)

// Format is the container around the deflate stream.
type Format int

const (
	// Gzip writes one gzip member (RFC 1952). The member has no name, time
	// or extra fields, OS "unknown", and the CRC-32 and length in its
	// trailer.
	Gzip Format = iota
	// Zlib writes a zlib stream (RFC 1950), as PNG's IDAT data holds.
	// The stream has no preset dictionary and the Adler-32 in its trailer.
	Zlib
)

// DefaultLevel is the deflate level used when [Options].Level is 0.
//
// It is level 1, klauspost/compress's fastest LZ level. On label maps
// (colour and 16-bit PNG rows, uint16 volumes) only Huffman-only coding is
// faster, for files several times larger; levels 2 to 6 make files at most
// about a quarter smaller, in up to about twice the time.
const DefaultLevel = flate.BestSpeed

// DefaultBlockSize is the uncompressed size of the blocks compressed in
// parallel when [Options].BlockSize is 0.
const DefaultBlockSize = 1 << 20

// window is the history each block is primed with: deflate's largest
// match distance.
const window = 32 << 10

// Options tune a compressor.
//
// The zero value compresses at [DefaultLevel] in [DefaultBlockSize] blocks
// on GOMAXPROCS goroutines.
type Options struct {
	// Level is a klauspost/compress/flate level: 1 (fastest) to 9
	// (smallest), or [flate.HuffmanOnly] (-2); 0 means [DefaultLevel].
	Level int
	// BlockSize is the number of input bytes per block, at least 1; 0
	// means [DefaultBlockSize]. Each block costs a sync marker (5 bytes)
	// and re-reads 32 KiB of history, so blocks much below 256 KiB waste
	// time and space.
	BlockSize int
	// Threads is the number of blocks compressed at once; 0 or less means
	// runtime.GOMAXPROCS(0).
	Threads int
	// Written, when set, is told the input bytes of each block once its
	// compressed form is written out: in stream order, on the goroutine
	// that writes, for progress displays.
	Written func(n int64)
}

// engine compresses blocks on goroutines and writes them out in order.
type engine struct {
	w      io.Writer
	format Format
	level  int
	block  int                // input bytes per block
	limit  int                // blocks in flight at most
	comp   chan *flate.Writer // one token per thread; nil until first used
	free   []*job             // jobs not in flight, for reuse
	queue  []*job             // jobs in flight, in stream order
	header bool               // whether the header was written
	sum    uint32             // checksum of the input written out
	size   int64              // input bytes written out
	err    error              // the first error; nothing is written after it
	// written is [Options].Written, or nil.
	written func(n int64)
}

// job is one block on its way through a compressor.
type job struct {
	raw   []byte              // history, then the block (capacity window+block)
	dict  int                 // bytes of history at the start of raw
	n     int                 // bytes of block after the history
	final bool                // the stream's last block
	fill  func([]byte, int64) // WriteFunc's callback, or nil
	start int64               // stream offset of raw[0], for fill
	out   bytes.Buffer        // the compressed block
	sum   uint32              // the block's checksum
	err   error               // a compression error
	done  chan struct{}       // closed when out, sum and err are set
}

// newEngine checks the options and sets up a compressor writing to w.
func newEngine(w io.Writer, format Format, opt Options) (*engine, error) {
	if format != Gzip && format != Zlib {
		return nil, fmt.Errorf("pdeflate: unknown format %d", format)
	}
	level := opt.Level
	if level == 0 {
		level = DefaultLevel
	}
	if level != flate.HuffmanOnly && (level < flate.BestSpeed || level > flate.BestCompression) {
		return nil, fmt.Errorf("pdeflate: invalid level %d (want 1 to 9 or %d)", level, flate.HuffmanOnly)
	}
	block := opt.BlockSize
	if block == 0 {
		block = DefaultBlockSize
	}
	if block < 0 {
		return nil, fmt.Errorf("pdeflate: invalid block size %d", block)
	}
	threads := opt.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	e := &engine{w: w, format: format, level: level, block: block,
		limit: max(2, 2*threads), comp: make(chan *flate.Writer, threads), written: opt.Written}
	if format == Zlib {
		e.sum = 1 // Adler-32 of nothing
	}
	for range threads {
		e.comp <- nil
	}
	return e, nil
}

// getJob returns a job to fill, first writing out the oldest blocks while
// the most are in flight. It fails once a write or compression failed.
func (e *engine) getJob() (*job, error) {
	for len(e.queue) >= e.limit && e.err == nil {
		e.retire()
	}
	if e.err != nil {
		e.drain()
		return nil, e.err
	}
	if k := len(e.free); k > 0 {
		j := e.free[k-1]
		e.free = e.free[:k-1]
		j.dict, j.n, j.final, j.fill, j.start, j.err = 0, 0, false, nil, 0, nil
		return j, nil
	}
	return &job{raw: make([]byte, window+e.block)}, nil
}

// dispatch starts compressing a job on its own goroutine, which waits for
// a compressor token first, so at most [Options].Threads run at once.
func (e *engine) dispatch(j *job) {
	j.done = make(chan struct{})
	e.queue = append(e.queue, j)
	go e.compress(j)
}

// compress fills (for [WriteFunc]), checksums and deflates one job.
func (e *engine) compress(j *job) {
	defer close(j.done)
	zw := <-e.comp
	defer func() { e.comp <- zw }()
	if zw == nil {
		var err error
		if zw, err = flate.NewWriter(nil, e.level); err != nil {
			j.err = err
			return
		}
	}
	raw := j.raw[:j.dict+j.n]
	if j.fill != nil && len(raw) > 0 {
		j.fill(raw, j.start)
	}
	data := raw[j.dict:]
	if e.format == Gzip {
		j.sum = crc32.ChecksumIEEE(data)
	} else {
		j.sum = adler32.Checksum(data)
	}
	j.out.Reset()
	zw.ResetDict(&j.out, raw[:j.dict])
	if _, j.err = zw.Write(data); j.err != nil {
		return
	}
	if j.final {
		j.err = zw.Close()
	} else {
		j.err = zw.Flush()
	}
}

// retire waits for the oldest job in flight, writes its block out (unless
// an error came first) and recycles it.
func (e *engine) retire() {
	j := e.queue[0]
	e.queue = e.queue[1:]
	<-j.done
	e.free = append(e.free, j)
	if e.err != nil {
		return
	}
	if j.err != nil {
		e.err = fmt.Errorf("pdeflate: compress: %w", j.err)
		return
	}
	if !e.header {
		e.header = true
		if e.err = e.write(e.headerBytes()); e.err != nil {
			return
		}
	}
	if e.err = e.write(j.out.Bytes()); e.err != nil {
		return
	}
	if e.format == Gzip {
		e.sum = CRC32Combine(e.sum, j.sum, int64(j.n))
	} else {
		e.sum = Adler32Combine(e.sum, j.sum, int64(j.n))
	}
	e.size += int64(j.n)
	if e.written != nil {
		e.written(int64(j.n))
	}
}

// drain waits for every job in flight, writing out their blocks while no
// error came, so that no goroutine outlives the call.
func (e *engine) drain() {
	for len(e.queue) > 0 {
		e.retire()
	}
}

// finish writes out every block in flight, then the trailer.
func (e *engine) finish() error {
	e.drain()
	if e.err != nil {
		return e.err
	}
	var tail []byte
	if e.format == Gzip {
		tail = binary.LittleEndian.AppendUint32(tail, e.sum)
		tail = binary.LittleEndian.AppendUint32(tail, uint32(e.size))
	} else {
		tail = binary.BigEndian.AppendUint32(tail, e.sum)
	}
	e.err = e.write(tail)
	return e.err
}

// write writes p to the underlying writer, wrapping its error.
func (e *engine) write(p []byte) error {
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("pdeflate: write: %w", err)
	}
	return nil
}

// headerBytes returns the gzip or zlib header for the engine's level.
func (e *engine) headerBytes() []byte {
	if e.format == Gzip {
		xfl := byte(0)
		switch e.level {
		case flate.BestSpeed:
			xfl = 4
		case flate.BestCompression:
			xfl = 2
		}
		// Deflate, no flags, no time, then xfl and OS 255 (unknown).
		return []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255}
	}
	// CMF: deflate with a 32 KiB window; FLG: the level class, then the
	// check bits that make CMF*256+FLG a multiple of 31.
	var flevel byte
	switch {
	case e.level >= 7:
		flevel = 3
	case e.level == 6:
		flevel = 2
	case e.level >= 2:
		flevel = 1
	}
	cmf, flg := byte(0x78), flevel<<6
	flg += byte(31 - (uint16(cmf)<<8|uint16(flg))%31)
	return []byte{cmf, flg}
}
