package formats

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestStreamCompressed: a plane stream says it decompresses its samples for
// gzipped NIfTI and NRRD, and not for plain NIfTI, NRRD and .npy.
func TestStreamCompressed(t *testing.T) {
	dir := t.TempDir()
	ref := uint8Volume(2, 2, 2, 0, 1, 1, 0, 1, 0, 0, 1)
	labels := [][]uint32{{0, 1, 1, 0, 1, 0, 0, 1}}
	rawNRRD := filepath.Join(dir, "raw.nrrd")
	head := "NRRD0004\ntype: uint8\ndimension: 3\nsizes: 2 2 2\nencoding: raw\n\n"
	if err := os.WriteFile(rawNRRD, append([]byte(head), 0, 1, 1, 0, 1, 0, 0, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want bool
	}{
		{"a.nii.gz", true}, {"a.nrrd", true}, {"a.nii", false}, {"a.npy", false}, {"raw.nrrd", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if path != rawNRRD {
				if err := WriteVolumeLabels(path, ref, labels, "auto"); err != nil {
					t.Fatal(err)
				}
			}
			s, _, err := OpenVolumeStream(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Compressed != c.want {
				t.Errorf("Compressed = %v, want %v", s.Compressed, c.want)
			}
		})
	}
}

// TestReadTime: a compressed stream takes its samples' bytes at
// DecompressRate (300 MB/s), a plain one nothing.
func TestReadTime(t *testing.T) {
	for _, c := range []struct {
		name       string
		kind       imagegraph.SampleKind
		compressed bool
		want       time.Duration
	}{
		{"uint8, compressed", imagegraph.Uint8, true, 447392 * time.Microsecond},
		{"float32, compressed", imagegraph.Float32, true, 1789569 * time.Microsecond},
		{"uint8, plain", imagegraph.Uint8, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := raw.Stream{Width: 512, Height: 512, Depth: 512, Kind: c.kind, Compressed: c.compressed}
			if got := s.ReadTime().Truncate(time.Microsecond); got != c.want {
				t.Errorf("ReadTime = %v, want %v", got, c.want)
			}
		})
	}
}
