package pdeflate

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// testData returns n bytes of runs, repeats of earlier bytes (also from
// far back, across blocks) and noise.
func testData(n int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	data := make([]byte, n)
	for i := 0; i < n; {
		k := min(n-i, 1+rng.IntN(5000))
		switch rng.IntN(3) {
		case 0:
			for j := range k {
				data[i+j] = byte(k)
			}
		case 1:
			if i > 0 {
				src := i - 1 - rng.IntN(min(i, 40000))
				for j := range k {
					data[i+j] = data[src+j]
				}
			}
		default:
			for j := range k {
				data[i+j] = byte(rng.Uint32())
			}
		}
		i += k
	}
	return data
}

// decode reads one gzip member or zlib stream and checks nothing follows.
func decode(format Format, z []byte) ([]byte, error) {
	br := bytes.NewReader(z)
	var r io.Reader
	if format == Gzip {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		zr.Multistream(false)
		r = zr
	} else {
		zr, err := zlib.NewReader(br)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	got, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if br.Len() != 0 {
		return nil, fmt.Errorf("%d bytes after the stream", br.Len())
	}
	return got, nil
}

// compressBoth compresses data with Writer (in pieces of up to chunk
// bytes, 0 meaning one Write) and with WriteFunc.
func compressBoth(t *testing.T, format Format, data []byte, chunk int, opt Options) (viaWriter, viaFunc []byte) {
	t.Helper()
	var a, b bytes.Buffer
	zw, err := NewWriter(&a, format, opt)
	if err != nil {
		t.Fatal(err)
	}
	rest := data
	for i := 0; len(rest) > 0; i++ {
		k := len(rest)
		if chunk > 0 {
			k = min(k, 1+(i*7919)%chunk)
		}
		if n, err := zw.Write(rest[:k]); err != nil || n != k {
			t.Fatalf("Write(%d bytes) = %d, %v", k, n, err)
		}
		rest = rest[k:]
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	fill := func(dst []byte, off int64) {
		if off < 0 || off+int64(len(dst)) > int64(len(data)) {
			t.Errorf("fill(%d bytes at %d) outside %d bytes", len(dst), off, len(data))
			return
		}
		copy(dst, data[off:])
	}
	if err := WriteFunc(&b, format, int64(len(data)), fill, opt); err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), b.Bytes()
}

// TestRoundTrip compresses many sizes around block boundaries with both
// forms and formats and decodes them with the standard library.
func TestRoundTrip(t *testing.T) {
	data := testData(5<<20, 1)
	blocks := []int{1, 1000, window, 100 << 10, DefaultBlockSize}
	if testing.Short() { // the race detector's run: the small blocks cover the joins
		blocks = blocks[:4]
	}
	for _, block := range blocks {
		sizes := []int{0, 1, block - 1, block, block + 1, 2*block + 3, 4*block + block/2}
		if block < 1000 {
			sizes = []int{0, 1, 2, 3, 100}
		}
		for _, n := range sizes {
			if n < 0 || n > len(data) {
				continue
			}
			for _, format := range []Format{Gzip, Zlib} {
				for _, threads := range []int{1, 3} {
					opt := Options{BlockSize: block, Threads: threads}
					chunk := 0
					if n%2 == 1 {
						chunk = 3 * block / 2
					}
					zw, zf := compressBoth(t, format, data[:n], chunk, opt)
					for form, z := range map[string][]byte{"Writer": zw, "WriteFunc": zf} {
						got, err := decode(format, z)
						if err != nil {
							t.Fatalf("%s, format %d, block %d, %d bytes, %d threads: %v", form, format, block, n, threads, err)
						}
						if !bytes.Equal(got, data[:n]) {
							t.Fatalf("%s, format %d, block %d, %d bytes: round trip differs", form, format, block, n)
						}
					}
				}
			}
		}
	}
}

// TestRandomData round-trips incompressible data and long runs, whose
// compressed blocks are larger and smaller than usual.
func TestRandomData(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	noise := make([]byte, 3<<20+17)
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	runs := bytes.Repeat([]byte{9}, 3<<20+17)
	for name, data := range map[string][]byte{"noise": noise, "runs": runs} {
		for _, format := range []Format{Gzip, Zlib} {
			zw, zf := compressBoth(t, format, data, 1<<20, Options{})
			for _, z := range [][]byte{zw, zf} {
				got, err := decode(format, z)
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("%s, format %d: round trip failed (%v)", name, format, err)
				}
			}
		}
	}
}

// TestLevels round-trips every level and checks that the forms agree
// byte for byte (they cut the same blocks with the same history).
func TestLevels(t *testing.T) {
	data := testData(1<<20+5, 2)
	levels := []int{-2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if testing.Short() {
		levels = []int{-2, 1, 6, 9}
	}
	for _, level := range levels {
		for _, format := range []Format{Gzip, Zlib} {
			zw, zf := compressBoth(t, format, data, 0, Options{Level: level, BlockSize: 256 << 10})
			got, err := decode(format, zw)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("level %d, format %d: round trip failed (%v)", level, format, err)
			}
			if !bytes.Equal(zw, zf) {
				t.Fatalf("level %d, format %d: Writer and WriteFunc differ", level, format)
			}
		}
	}
}

// TestBadOptions checks that invalid options are refused up front.
func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		format Format
		opt    Options
	}{
		{Gzip, Options{Level: 10}}, {Gzip, Options{Level: -1}}, {Zlib, Options{Level: -3}},
		{Gzip, Options{BlockSize: -1}}, {Format(7), Options{}},
	} {
		if _, err := NewWriter(io.Discard, c.format, c.opt); err == nil {
			t.Errorf("NewWriter(%d, %+v) succeeded", c.format, c.opt)
		}
		if err := WriteFunc(io.Discard, c.format, 10, func([]byte, int64) {}, c.opt); err == nil {
			t.Errorf("WriteFunc(%d, %+v) succeeded", c.format, c.opt)
		}
	}
	if err := WriteFunc(io.Discard, Gzip, -1, func([]byte, int64) {}, Options{}); err == nil {
		t.Error("WriteFunc of -1 bytes succeeded")
	}
}

// failAfter accepts n bytes, then fails.
type failAfter struct {
	n   int
	err error
}

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, w.err
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteError checks that a failing underlying writer's error comes
// back from both forms, wrapped, and that no goroutine outlives them.
func TestWriteError(t *testing.T) {
	data := testData(6<<20, 3)
	boom := errors.New("disk full")
	before := runtime.NumGoroutine()
	for _, limit := range []int{0, 5, 300000} {
		for _, threads := range []int{1, 4} {
			opt := Options{BlockSize: 256 << 10, Threads: threads}
			fill := func(dst []byte, off int64) { copy(dst, data[off:]) }
			err := WriteFunc(&failAfter{n: limit, err: boom}, Gzip, int64(len(data)), fill, opt)
			if !errors.Is(err, boom) {
				t.Fatalf("WriteFunc after %d bytes: err = %v, want %v", limit, err, boom)
			}
			zw, err := NewWriter(&failAfter{n: limit, err: boom}, Zlib, opt)
			if err != nil {
				t.Fatal(err)
			}
			var werr error
			for off := 0; off < len(data) && werr == nil; off += 100 << 10 {
				_, werr = zw.Write(data[off:min(len(data), off+100<<10)])
			}
			cerr := zw.Close()
			if !errors.Is(cerr, boom) || (werr != nil && !errors.Is(werr, boom)) {
				t.Fatalf("Writer after %d bytes: Write err = %v, Close err = %v, want %v", limit, werr, cerr, boom)
			}
			if _, err := zw.Write([]byte{1}); err == nil {
				t.Fatal("Write after Close succeeded")
			}
		}
	}
	// Every compressing goroutine has finished by the time the calls
	// return; allow the scheduler a moment to reap them.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the writes, %d before", n, before)
	}
}

// TestNoLeakOnSuccess checks that a finished stream leaves no goroutine.
func TestNoLeakOnSuccess(t *testing.T) {
	data := testData(3<<20, 4)
	before := runtime.NumGoroutine()
	compressBoth(t, Gzip, data, 0, Options{BlockSize: 128 << 10, Threads: 4})
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the writes, %d before", n, before)
	}
}

// TestWrittenReportsBlocks checks Options.Written: each block's input
// bytes once written out, in stream order, summing to the stream, for
// both forms; and the bytes reported are never ahead of the output.
func TestWrittenReportsBlocks(t *testing.T) {
	data := testData(5*100<<10+777, 3)
	const block = 100 << 10
	for _, form := range []string{"Writer", "WriteFunc"} {
		var out bytes.Buffer
		var reports []int64
		var outAtReport []int
		opt := Options{BlockSize: block, Threads: 3, Written: func(n int64) {
			reports = append(reports, n)
			outAtReport = append(outAtReport, out.Len())
		}}
		if form == "Writer" {
			zw, err := NewWriter(&out, Gzip, opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := zw.Write(data); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
		} else if err := WriteFunc(&out, Gzip, int64(len(data)), func(dst []byte, off int64) { copy(dst, data[off:]) }, opt); err != nil {
			t.Fatal(err)
		}
		want := []int64{block, block, block, block, block, 777}
		if fmt.Sprint(reports) != fmt.Sprint(want) {
			t.Errorf("%s: Written told %v, want %v", form, reports, want)
		}
		for i := 1; i < len(outAtReport); i++ {
			if outAtReport[i] <= outAtReport[i-1] {
				t.Errorf("%s: report %d came before its block was written (%d output bytes, then %d)", form, i, outAtReport[i-1], outAtReport[i])
			}
		}
		if got, err := decode(Gzip, out.Bytes()); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: round trip with Written set: %v", form, err)
		}
	}
}
