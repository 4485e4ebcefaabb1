package nifti

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/klauspost/compress/gzip"
)

// BenchmarkReadNIfTIAtlas reads a real 182x218x182 float32 atlas
// (.nii.gz, 227 KB compressed, 29 MB of samples).
func BenchmarkReadNIfTIAtlas(b *testing.B) {
	path := testkit.Path("volumes/neuroparc_AAL_1mm.nii.gz")
	if _, err := os.Stat(path); err != nil {
		b.Skipf("shared data absent: %v", err)
	}
	b.SetBytes(182 * 218 * 182 * 4)
	for b.Loop() {
		if _, err := ReadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// niftiBenchVolumes returns 512³ uint8 volumes: random 0/1 (p = 0.3, the
// worst case for gzip) and piecewise-constant regions (like an atlas).
func niftiBenchVolumes(b *testing.B) map[string]*imagegraph.Raster {
	const side = 512
	random, err := gen.RandomRaster(side, side, side, 0.3, 1)
	if err != nil {
		b.Fatal(err)
	}
	regions := make([]uint8, side*side*side)
	for z := range side {
		for y := range side {
			row := regions[(z*side+y)*side:][:side]
			for x := range row {
				row[x] = uint8((x/37 + y/41 + z/43) % 7)
			}
		}
	}
	return map[string]*imagegraph.Raster{"random": random, "regions": {Width: side, Height: side, Depth: side, Kind: imagegraph.Uint8, Data: regions}}
}

// niftiWriteUint8 writes a uint8 raster as a gzipped NIfTI-1 file (gzip
// level 1, as nibabel writes .nii.gz).
func niftiWriteUint8(b *testing.B, path string, r *imagegraph.Raster) {
	h := niftiSpecHeader(niftiSpec{version: 1, datatype: 2, dims: []int{r.Width, r.Height, r.Depth}, slope: 1})
	head, err := h.encode(binary.LittleEndian)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(head)
	zw.Write(r.Data.([]uint8))
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	writeNIfTITestFile(b, path, buf.Bytes())
}

// BenchmarkNIfTI512 reads 512³ uint8 .nii.gz volumes and writes and reads
// their 512³ label volumes (uint16 .nii.gz).
func BenchmarkNIfTI512(b *testing.B) {
	dir := b.TempDir()
	for name, r := range niftiBenchVolumes(b) {
		src := filepath.Join(dir, name+".nii.gz")
		niftiWriteUint8(b, src, r)
		b.Run("read-uint8-"+name, func(b *testing.B) {
			b.SetBytes(int64(r.Len()))
			for b.Loop() {
				if _, err := ReadFile(src); err != nil {
					b.Fatal(err)
				}
			}
		})
		ref, err := ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		labels, err := imagegraph.Label(ref.Frames[0], imagegraph.Rule{Mode: imagegraph.Multilabel}, imagegraph.Options{Connectivity: 6}, nil)
		if err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, name+".labels.nii.gz")
		b.Run("write-labels-"+name, func(b *testing.B) {
			b.SetBytes(int64(r.Len()))
			for b.Loop() {
				if err := WriteLabels(out, ref, [][]uint32{labels.Data}, "auto"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("read-labels-"+name, func(b *testing.B) {
			b.SetBytes(int64(r.Len()))
			for b.Loop() {
				if _, err := ReadFile(out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
