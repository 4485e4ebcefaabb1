package nifti

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"runtime"
	"sync"

	"github.com/klauspost/compress/flate"
)

// niftiGzipBlock is the uncompressed size of the blocks compressed in
// parallel, and niftiGzipDict the history each block is primed with.
const (
	niftiGzipBlock = 1 << 20
	niftiGzipDict  = 32 << 10
)

// niftiGzipJob is one block on its way through the compressors.
type niftiGzipJob struct {
	off, end int64  // the block's bytes in the stream
	raw      []byte // the history before the block, then the block
	dict     int    // bytes of history at the start of raw
	out      bytes.Buffer
	err      error
	done     chan struct{}
}

// niftiWriteGzip writes the n bytes that fill produces as one gzip member
// (deflate level 1), compressing 1 MiB blocks on all cores. fill(dst, off)
// must write the stream's bytes off..off+len(dst) and may run on several
// goroutines at once. Each block is compressed primed with the 32 KiB
// before it and ends in a sync flush (the last in the final block), so
// the blocks join into one ordinary deflate stream, as pigz makes them.
func niftiWriteGzip(w io.Writer, n int64, fill func(dst []byte, off int64)) error {
	blocks := (n + niftiGzipBlock - 1) / niftiGzipBlock
	workers := int(max(1, min(int64(runtime.GOMAXPROCS(0)), blocks)))
	inFlight := 2 * workers
	free := make(chan *niftiGzipJob, inFlight)
	work := make(chan *niftiGzipJob, inFlight)
	ordered := make(chan *niftiGzipJob, inFlight)
	for range inFlight {
		free <- &niftiGzipJob{raw: make([]byte, niftiGzipDict+niftiGzipBlock)}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			zw, _ := flate.NewWriter(nil, flate.BestSpeed)
			for j := range work {
				j.compress(zw, fill, n)
				close(j.done)
			}
		})
	}
	go func() {
		defer close(ordered)
		defer close(work)
		for b := range blocks {
			var j *niftiGzipJob
			select {
			case j = <-free:
			case <-stop:
				return
			}
			j.off, j.end = b*niftiGzipBlock, min(n, (b+1)*niftiGzipBlock)
			j.done = make(chan struct{})
			work <- j
			ordered <- j
		}
	}()
	// Header: deflate, no flags, no time, fastest level (xfl 4), unknown OS.
	_, err := w.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255})
	if n == 0 && err == nil {
		_, err = w.Write([]byte{3, 0}) // an empty final block
	}
	crc := uint32(0)
	for j := range ordered {
		<-j.done
		if err == nil {
			crc = crc32.Update(crc, crc32.IEEETable, j.raw[j.dict:j.dict+int(j.end-j.off)])
			if err = j.err; err == nil {
				_, err = w.Write(j.out.Bytes())
			}
			if err != nil {
				close(stop)
			}
		}
		free <- j
	}
	wg.Wait()
	if err != nil {
		return err
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:], crc)
	binary.LittleEndian.PutUint32(trailer[4:], uint32(n))
	_, err = w.Write(trailer[:])
	return err
}

// compress fills and deflates the job's block; n is the stream's length.
func (j *niftiGzipJob) compress(zw *flate.Writer, fill func([]byte, int64), n int64) {
	start := max(0, j.off-niftiGzipDict)
	j.dict = int(j.off - start)
	raw := j.raw[:j.dict+int(j.end-j.off)]
	fill(raw, start)
	j.out.Reset()
	zw.ResetDict(&j.out, raw[:j.dict])
	if _, j.err = zw.Write(raw[j.dict:]); j.err != nil {
		return
	}
	if j.end == n {
		j.err = zw.Close()
	} else {
		j.err = zw.Flush()
	}
}
