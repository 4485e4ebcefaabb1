package nifti

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"io"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestNIfTIGzipBlocks checks that a label volume spanning several
// compressed blocks gunzips, with the standard library, to exactly the
// bytes of the plain .nii, for each label size.
func TestNIfTIGzipBlocks(t *testing.T) {
	const w, h, d = 129, 101, 67 // 873,363 voxels: 1 to 4 blocks of 1 MiB
	ref := imagegraph.NewVolume(&imagegraph.Raster{Width: w, Height: h, Depth: d, Kind: imagegraph.Uint8, Data: imagegraph.Samples[uint8](make([]uint8, w*h*d))}, "raw")
	for _, c := range []struct {
		dtype string
		scale uint32
	}{{"uint8", 1}, {"uint16", 200}, {"uint32", 70000}} {
		labels := make([]uint32, w*h*d)
		for i := range labels {
			labels[i] = uint32(i/w%13+i/(w*h)%7) * c.scale % (c.scale * 20)
		}
		frames := [][]uint32{labels, labels[:len(labels):len(labels)]}
		hdr, err := niftiLabelHeader("x.nii", ref, frames, c.dtype)
		if err != nil {
			t.Fatal(err)
		}
		var plain, gz bytes.Buffer
		if err := niftiWriteLabels(&plain, hdr, frames, false, nil); err != nil {
			t.Fatal(err)
		}
		if err := niftiWriteLabels(&gz, hdr, frames, true, nil); err != nil {
			t.Fatal(err)
		}
		zr, err := stdgzip.NewReader(&gz)
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", c.dtype, err)
		}
		if !bytes.Equal(got, plain.Bytes()) {
			t.Fatalf("%s: the gzipped file differs from the plain one", c.dtype)
		}
		// A failing writer's error comes back.
		boom := errors.New("disk full")
		if err := niftiWriteLabels(&niftiFailAfter{n: 1000, err: boom}, hdr, frames, true, nil); !errors.Is(err, boom) {
			t.Fatalf("%s: err = %v, want %v", c.dtype, err, boom)
		}
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
