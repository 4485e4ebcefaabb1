package nifti

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// TestNIfTIParallelGzip checks the parallel compressor with the standard
// library's decoder, across block boundaries.
func TestNIfTIParallelGzip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 3*niftiGzipBlock+niftiGzipBlock/2)
	for i := 0; i < len(data); {
		// Runs, repeats of earlier bytes (also across blocks) and noise.
		switch k := min(len(data)-i, 1+rng.IntN(5000)); rng.IntN(3) {
		case 0:
			for j := range k {
				data[i+j] = byte(k)
			}
			i += k
		case 1:
			if i > 40000 {
				src := i - 1 - rng.IntN(40000)
				for j := range k {
					data[i+j] = data[src+j]
				}
			}
			i += k
		default:
			for j := range k {
				data[i+j] = byte(rng.Uint32())
			}
			i += k
		}
	}
	for _, n := range []int{0, 1, 1000, niftiGzipBlock, niftiGzipBlock + 1, len(data)} {
		var buf bytes.Buffer
		err := niftiWriteGzip(&buf, int64(n), func(dst []byte, off int64) { copy(dst, data[off:]) })
		if err != nil {
			t.Fatal(err)
		}
		zr, err := stdgzip.NewReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !bytes.Equal(got, data[:n]) {
			t.Fatalf("%d bytes: round trip differs", n)
		}
	}
	// A failing writer stops the compressors and returns its error.
	boom := errors.New("disk full")
	err := niftiWriteGzip(&niftiFailAfter{n: 100000, err: boom}, int64(len(data)), func(dst []byte, off int64) { copy(dst, data[off:]) })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
}

// niftiFailAfter accepts n bytes, then fails.
type niftiFailAfter struct {
	n   int
	err error
}

func (w *niftiFailAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, w.err
	}
	w.n -= len(p)
	return len(p), nil
}
