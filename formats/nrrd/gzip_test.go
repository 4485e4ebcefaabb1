package nrrd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// TestNRRDGzipBlocks checks labels spanning several compressed blocks and
// frames: the gzip body decompresses to the little-endian samples, and a
// failing writer's error comes back.
func TestNRRDGzipBlocks(t *testing.T) {
	const n = 400_001 // per frame: 800 KB as uint16, 1.6 MB as uint32
	for _, wide := range []bool{false, true} {
		frames := make([][]uint32, 3)
		var want []byte
		for f := range frames {
			frames[f] = make([]uint32, n)
			for i := range frames[f] {
				l := uint32(i/1000%17+f) * 3001
				frames[f][i] = l
				if wide {
					want = binary.LittleEndian.AppendUint32(want, l)
				} else {
					want = binary.LittleEndian.AppendUint16(want, uint16(l))
				}
			}
		}
		var buf bytes.Buffer
		if err := writeNRRDLabels(&buf, "HEAD\n\n", frames, wide, nil); err != nil {
			t.Fatal(err)
		}
		body, ok := bytes.CutPrefix(buf.Bytes(), []byte("HEAD\n\n"))
		if !ok {
			t.Fatal("header missing")
		}
		got, err := nrrdGunzip(body)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("wide %v: %d bytes back, want %d, or they differ", wide, len(got), len(want))
		}
		boom := errors.New("disk full")
		if err := writeNRRDLabels(&nrrdFailAfter{n: 1000, err: boom}, "HEAD\n\n", frames, wide, nil); !errors.Is(err, boom) {
			t.Fatalf("wide %v: err = %v, want %v", wide, err, boom)
		}
	}
}

// nrrdFailAfter accepts n bytes, then fails.
type nrrdFailAfter struct {
	n   int
	err error
}

func (w *nrrdFailAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, w.err
	}
	w.n -= len(p)
	return len(p), nil
}
