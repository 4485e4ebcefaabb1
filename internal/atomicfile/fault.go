package atomicfile

import (
	"errors"
	"io"
	"sync/atomic"
)

// ErrInjected is the error of a write failed by [InjectWriteFault].
var ErrInjected = errors.New("injected write fault")

// failAfter is the bytes each temporary file accepts before its writes
// fail; negative: no limit.
var failAfter atomic.Int64

func init() { failAfter.Store(-1) }

// InjectWriteFault makes temporary files fail after n bytes, for tests.
//
// Every temporary file written after the call fails with [ErrInjected]
// once n bytes were written to it, for tests of what a failing disk leaves
// behind; a negative n ends the fault. It returns the function that
// restores the previous setting.
func InjectWriteFault(n int64) (restore func()) {
	old := failAfter.Swap(n)
	return func() { failAfter.Store(old) }
}

// faultWriter returns w, or w failing after the injected byte count.
func faultWriter(w io.Writer) io.Writer {
	n := failAfter.Load()
	if n < 0 {
		return w
	}
	return &limitWriter{w: w, left: n}
}

// limitWriter writes up to left bytes, then fails.
type limitWriter struct {
	w    io.Writer
	left int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) <= l.left {
		l.left -= int64(len(p))
		return l.w.Write(p)
	}
	n, err := l.w.Write(p[:l.left])
	l.left -= int64(n)
	if err == nil {
		err = ErrInjected
	}
	return n, err
}

// faultWriterAt returns w, or w failing once the injected byte count is
// written in all.
func faultWriterAt(w io.WriterAt) io.WriterAt {
	n := failAfter.Load()
	if n < 0 {
		return w
	}
	l := &limitWriterAt{w: w}
	l.left.Store(n)
	return l
}

// limitWriterAt writes up to left bytes in all, then fails.
type limitWriterAt struct {
	w    io.WriterAt
	left atomic.Int64
}

func (l *limitWriterAt) WriteAt(p []byte, off int64) (int, error) {
	left := l.left.Add(-int64(len(p)))
	if left >= 0 {
		return l.w.WriteAt(p, off)
	}
	keep := max(0, int64(len(p))+left)
	n, err := l.w.WriteAt(p[:keep], off)
	if err == nil {
		err = ErrInjected
	}
	return n, err
}
