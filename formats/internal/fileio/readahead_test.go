package fileio

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

func testData(n int) []byte {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func TestDeliversTheSource(t *testing.T) {
	for _, n := range []int{0, 1, 7, 4096, 100003} {
		data := testData(n)
		sources := map[string]func() io.Reader{
			"plain":    func() io.Reader { return bytes.NewReader(data) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
			"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
			"data+EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
		}
		for name, src := range sources {
			for _, size := range []int{1, 3, 1000, 1 << 16} {
				r := NewReadahead(src(), size, 3)
				if err := iotest.TestReader(r, data); err != nil {
					t.Errorf("%s, %d bytes, blocks of %d: %v", name, n, size, err)
				}
				r.Close()
			}
		}
	}
}

func TestErrorAfterTheBytesBeforeIt(t *testing.T) {
	data := testData(5000)
	boom := errors.New("boom")
	src := io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom))
	r := NewReadahead(src, 999, 2)
	defer r.Close()
	got, err := io.ReadAll(r)
	if err != boom || !bytes.Equal(got, data) {
		t.Fatalf("got %d bytes and %v, want %d and %v", len(got), err, len(data), boom)
	}
	if n, err := r.Read(make([]byte, 10)); n != 0 || err != boom {
		t.Fatalf("read after the error: %d, %v", n, err)
	}
	// io.ReadFull of more than there is reports a short read.
	r2 := NewReadahead(bytes.NewReader(data), 64, 2)
	defer r2.Close()
	if n, err := io.ReadFull(r2, make([]byte, 6000)); n != 5000 || err != io.ErrUnexpectedEOF {
		t.Fatalf("ReadFull: %d, %v", n, err)
	}
}

// stuck returns no bytes and no error forever.
type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

func TestNoProgress(t *testing.T) {
	r := NewReadahead(stuck{}, 10, 2)
	defer r.Close()
	if _, err := r.Read(make([]byte, 5)); err != io.ErrNoProgress {
		t.Fatalf("err %v, want io.ErrNoProgress", err)
	}
}

// counting counts the reads of an endless source.
type counting struct{ reads int }

func (c *counting) Read(p []byte) (int, error) {
	c.reads++
	return len(p), nil
}

func TestCloseStopsReading(t *testing.T) {
	src := &counting{}
	r := NewReadahead(src, 100, 3)
	if _, err := io.ReadFull(r, make([]byte, 250)); err != nil {
		t.Fatal(err)
	}
	r.Close()
	n := src.reads
	if n > 3+3 {
		t.Errorf("%d reads for 250 bytes in 100-byte blocks and a ring of 3", n)
	}
	if _, err := r.Read(make([]byte, 1)); err == nil {
		t.Error("read after Close succeeded")
	}
	r.Close() // twice is fine
	if src.reads != n {
		t.Error("source read after Close")
	}
}
