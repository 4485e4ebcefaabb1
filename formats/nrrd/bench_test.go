package nrrd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// BenchmarkReadNRRD times reading the largest real NRRD file and a
// synthetic 256³ int16 volume, raw and gzipped (written with
// WriteLabels' gzip settings), in MB/s of decoded samples.
func BenchmarkReadNRRD(b *testing.B) {
	dir := b.TempDir()
	const side = 256
	ref := &imagegraph.Volume{Frames: []*imagegraph.Raster{{Width: side, Height: side, Depth: side, Kind: imagegraph.Uint8,
		Data: make([]uint8, side*side*side)}}, Slope: 1, Geometry: imagegraph.Geometry{Spacing: [3]float64{1, 1, 1}, Affine: imagegraph.IdentityAffine([3]float64{1, 1, 1})}, Format: "raw"}
	labels := make([]uint32, side*side*side)
	for i := range labels {
		labels[i] = uint32(i/side%17) * uint32(i%3)
	}
	gz := filepath.Join(dir, "synthetic_gzip.nrrd")
	if err := WriteLabels(gz, ref, [][]uint32{labels}, "uint16"); err != nil {
		b.Fatal(err)
	}
	raw := filepath.Join(dir, "synthetic_raw.nrrd")
	le := make([]byte, 2*len(labels))
	for i, l := range labels {
		le[2*i], le[2*i+1] = byte(l), byte(l>>8)
	}
	head := "type: ushort\ndimension: 3\nsizes: 256 256 256\nendian: little\nencoding: raw\n"
	if err := os.WriteFile(raw, nrrdAttached(head, le), 0o644); err != nil {
		b.Fatal(err)
	}
	files := map[string]string{"raw256": raw, "gzip256": gz,
		"brain1": testkit.Path("volumes/pyradiomics_brain1_label.nrrd")}
	for name, path := range files {
		b.Run(name, func(b *testing.B) {
			if _, err := os.Stat(path); err != nil {
				b.Skip("absent")
			}
			for b.Loop() {
				v, err := ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(v.Frames[0].Bytes())
			}
		})
	}
}
