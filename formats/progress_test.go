package formats_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// TestProgressCounted checks what the readers and writers count on the
// meter watching their file: every byte of the file read, and every byte
// of the file written before compression, out of the expected total.
func TestProgressCounted(t *testing.T) {
	dir := t.TempDir()
	const w, h, d = 37, 23, 11
	n := int64(w * h * d)
	labels := make([]uint32, n)
	samples := make([]uint8, n)
	for i := range labels {
		labels[i] = uint32(i * 7919 % 300)
		samples[i] = uint8(i % 3 % 2)
	}
	r, err := imagegraph.NewRaster(w, h, d, samples)
	if err != nil {
		t.Fatal(err)
	}
	ref := imagegraph.NewVolume(r, "npy")
	watch := func(t *testing.T, path string, do func() error) (done, total int64) {
		t.Helper()
		var m fileprogress.Meter
		stop := fileprogress.WatchFile(path, &m)
		err := do()
		stop()
		if err != nil {
			t.Fatal(err)
		}
		done, total, unit := m.Progress()
		if unit != fileprogress.Bytes {
			t.Errorf("%s: counted in %q, want bytes", filepath.Base(path), unit)
		}
		return done, total
	}
	for _, c := range []struct {
		name     string
		header   int64 // bytes before the samples, in the file or its stream
		gzipped  bool
		readBack bool
	}{
		{"l.nii", 352, false, true},
		{"l.nii.gz", 352, true, true},
		{"l.npy", 128, false, false},
		{"l.nrrd", -1, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			done, total := watch(t, path, func() error { return formats.WriteVolumeLabels(path, ref, [][]uint32{labels}, "uint16") })
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			header := c.header
			if header < 0 { // NRRD: the text header, up to its blank line
				header = int64(strings.Index(string(data), "\n\n") + 2)
			}
			if want := header + 2*n; done != want || total != want {
				t.Errorf("writing counted %d of %d bytes, want %d of %d", done, total, want, want)
			}
			if !c.gzipped && int64(len(data)) != done {
				t.Errorf("writing counted %d bytes of a %d-byte file", done, len(data))
			}
			if c.readBack {
				done, total = watch(t, path, func() error { _, err := formats.ReadVolumeFile(path, nil); return err })
				if done != int64(len(data)) || total != int64(len(data)) {
					t.Errorf("reading counted %d of %d bytes of a %d-byte file", done, total, len(data))
				}
			}
		})
	}
	t.Run("labels served", func(t *testing.T) {
		read := func(dst []uint32, voxel int64) error { copy(dst, labels[voxel:]); return nil }
		for _, name := range []string{"f.nii.gz", "f.npy"} {
			path := filepath.Join(dir, name)
			done, total := watch(t, path, func() error { return formats.WriteVolumeLabelsFunc(path, ref, 299, "uint16", read) })
			if done != total || total < 2*n || total > 2*n+352 {
				t.Errorf("%s: counted %d of %d bytes for %d labels", name, done, total, n)
			}
		}
	})
	t.Run("rasters", func(t *testing.T) {
		for _, name := range []string{"r.nii", "r.npy"} {
			path := filepath.Join(dir, name)
			done, total := watch(t, path, func() error { return formats.WriteRasterFile(path, r) })
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if done != total || done < n || done > st.Size() {
				t.Errorf("%s: counted %d of %d bytes of a %d-byte file", name, done, total, st.Size())
			}
		}
	})
	t.Run("unwatched", func(t *testing.T) {
		path := filepath.Join(dir, "u.nii.gz")
		var m fileprogress.Meter
		stop := fileprogress.WatchFile(filepath.Join(dir, "other.nii.gz"), &m)
		defer stop()
		if err := formats.WriteVolumeLabels(path, ref, [][]uint32{labels}, "uint16"); err != nil {
			t.Fatal(err)
		}
		if _, err := formats.ReadVolumeFile(path, nil); err != nil {
			t.Fatal(err)
		}
		if _, total, _ := m.Progress(); total != 0 {
			t.Errorf("another file's meter counted %d bytes", total)
		}
	})
}
