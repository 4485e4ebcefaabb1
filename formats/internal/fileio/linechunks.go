package fileio

import (
	"bytes"
	"fmt"
	"io"
	"sync"
)

// MaxLineBytes bounds one text line. A file without line breaks thus cannot
// make a reader hold it whole.
const MaxLineBytes = 64 << 20

// DefaultChunkBytes is the size of the blocks of parallel text parsing. A
// text body is split into blocks large enough that per-chunk overhead
// vanishes, small enough that a few in flight per core stay in memory
// cheaply.
const DefaultChunkBytes = 1 << 20

// LineChunk is a run of whole lines of a text input.
type LineChunk struct {
	Index int    // position among the chunks, from 0
	Data  []byte // whole lines; only the input's last line may lack '\n'
	Line  int    // number of lines before the chunk
	Lines int    // number of lines in the chunk
	buf   []byte // the buffer Data lies in, recycled after commit
}

// EachLine calls fn with each line of c in turn, until fn returns false. fn
// gets the line's number and text, without its line ending.
func (c *LineChunk) EachLine(fn func(num int, line []byte) bool) {
	data, num := c.Data, c.Line
	for len(data) > 0 {
		num++
		end := bytes.IndexByte(data, '\n')
		line := data
		if end >= 0 {
			line, data = data[:end], data[end+1:]
		} else {
			data = nil
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if !fn(num, line) {
			return
		}
	}
}

// lineSplitter cuts a stream into chunks of whole lines.
type lineSplitter struct {
	r          io.Reader
	chunkBytes int
	carry      []byte // the start of a line that the previous chunk cut off
	line       int    // lines in the chunks made so far
	index      int    // chunks made so far
	err        error  // the error that ended the stream, io.EOF at its end
}

// next fills buf (or a larger buffer, for a long line) with the next
// chunk. It returns the chunk, which may hold no lines, and an error once
// the stream is over: io.EOF at its end, else a "formats: line N: ..."
// error for the line after the chunk's.
func (s *lineSplitter) next(buf []byte) (*LineChunk, error) {
	buf = buf[:cap(buf)]
	if len(buf) < max(s.chunkBytes, 2*len(s.carry)) {
		buf = make([]byte, max(s.chunkBytes, 2*len(s.carry)))
	}
	n := copy(buf, s.carry)
	s.carry = s.carry[:0]
	scanned := 0 // bytes of buf known to hold no '\n'
	for {
		for empty := 0; n < len(buf) && s.err == nil; {
			k, err := s.r.Read(buf[n:])
			n += k
			if err != nil {
				s.err = err
			} else if k == 0 {
				if empty++; empty == 100 {
					s.err = io.ErrNoProgress
				}
			}
		}
		cut := bytes.LastIndexByte(buf[scanned:n], '\n')
		if s.err == io.EOF {
			cut = n - 1
		} else if cut >= 0 {
			cut += scanned
		}
		if cut >= 0 || s.err != nil {
			c := s.chunk(buf, buf[:cut+1])
			s.carry = append(s.carry, buf[cut+1:n]...)
			if s.err == nil {
				return c, nil
			}
			if s.err == io.EOF {
				return c, io.EOF
			}
			return c, fmt.Errorf("formats: line %d: read: %w", s.line+1, s.err)
		}
		// A line longer than the buffer: grow it, up to the line limit.
		if n > MaxLineBytes {
			s.err = fmt.Errorf("formats: line %d: longer than %d MiB", s.line+1, MaxLineBytes>>20)
			return s.chunk(buf, nil), s.err
		}
		scanned = n
		bigger := make([]byte, min(2*len(buf), MaxLineBytes+1))
		copy(bigger, buf[:n])
		buf = bigger
	}
}

// chunk makes the next chunk from data, which lies in buf.
func (s *lineSplitter) chunk(buf, data []byte) *LineChunk {
	lines := bytes.Count(data, []byte{'\n'})
	if n := len(data); n > 0 && data[n-1] != '\n' {
		lines++
	}
	c := &LineChunk{Index: s.index, Data: data, buf: buf, Line: s.line, Lines: lines}
	s.index++
	s.line += lines
	return c
}

// ForLineChunks parses a text input in chunks on several goroutines. It
// splits the rest of r, after its first line lines, into chunks and parses
// them on threads goroutines with parse, then hands each result to commit in
// input order on the calling goroutine. It stops at the first error, of
// commit or of reading, and returns it, else the number of lines of the whole
// input. With one thread it runs on the calling goroutine alone; otherwise
// reading (and with it any decompression) runs on one goroutine of its own.
func ForLineChunks[T any](r io.Reader, line, threads, chunkBytes int,
	parse func(c *LineChunk) T, commit func(c *LineChunk, res T) error) (int, error) {
	s := &lineSplitter{r: r, chunkBytes: max(chunkBytes, 1), line: line}
	if threads <= 1 {
		var buf []byte
		for {
			c, err := s.next(buf)
			if c.Lines > 0 {
				if cerr := commit(c, parse(c)); cerr != nil {
					return 0, cerr
				}
			}
			if err == io.EOF {
				return s.line, nil
			}
			if err != nil {
				return 0, err
			}
			buf = c.buf
		}
	}
	return forLineChunksParallel(s, threads, parse, commit)
}

// lineChunkDone is a parsed chunk on its way to commit.
type lineChunkDone[T any] struct {
	c   *LineChunk
	res T
}

// forLineChunksParallel is ForLineChunks on several goroutines: one splitter,
// threads parsers, and the in-order commit on the caller's goroutine.
// There are nbuf buffers and every chunk holds one until its commit, so
// at most nbuf chunks are ever unreceived and no parser blocks on done.
func forLineChunksParallel[T any](s *lineSplitter, threads int,
	parse func(c *LineChunk) T, commit func(c *LineChunk, res T) error) (int, error) {
	nbuf := 2*threads + 1
	free := make(chan []byte, nbuf)
	for range nbuf {
		free <- nil // allocated by the splitter on first use
	}
	work := make(chan *LineChunk, nbuf)
	done := make(chan lineChunkDone[T], nbuf)
	stop := make(chan struct{})
	var endErr error // the splitter's last error, read after end closes
	endCount := 0    // chunks the splitter made
	end := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(work)
		defer close(end)
		for {
			var buf []byte
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			c, err := s.next(buf)
			select {
			case work <- c:
			case <-stop:
				return
			}
			if err != nil {
				endErr, endCount = err, s.index
				return
			}
		}
	})
	for range threads {
		wg.Go(func() {
			for c := range work {
				var res T
				if c.Lines > 0 {
					res = parse(c)
				}
				done <- lineChunkDone[T]{c, res}
			}
		})
	}
	finish := func(lines int, err error) (int, error) {
		close(stop)
		wg.Wait()
		return lines, err
	}
	pending := make(map[int]lineChunkDone[T], nbuf)
	next := 0
	ended := false
	for {
		if ended && next == endCount {
			if endErr == io.EOF {
				return finish(s.line, nil)
			}
			return finish(0, endErr)
		}
		if d, ok := pending[next]; ok {
			delete(pending, next)
			if d.c.Lines > 0 {
				if err := commit(d.c, d.res); err != nil {
					return finish(0, err)
				}
			}
			free <- d.c.buf
			next++
			continue
		}
		select {
		case d := <-done:
			pending[d.c.Index] = d
		case <-end:
			ended, end = true, nil
		}
	}
}
