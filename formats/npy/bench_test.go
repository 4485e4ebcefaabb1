package npy

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/internal/atomicfile"
)

// BenchmarkWriteLabels256MiB writes 8192x8192 labels as uint32 and uint16
// .npy files through atomicfile, as the CLI does, next to a plain write of
// the same number of bytes from one slice: the disk's (page cache's)
// speed, the floor for the label writes. MB/s are of file bytes. The
// files go to $NPY_BENCH_DIR when set (/dev/shm takes the disk out),
// else to a temporary folder.
func BenchmarkWriteLabels256MiB(b *testing.B) {
	const side = 8192
	labels := make([]uint32, side*side)
	for i := range labels {
		labels[i] = uint32(i/7%30000) * uint32(i/side%3) // at most 59998
	}
	dir := os.Getenv("NPY_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, "l.npy")
	b.Run("plain-write", func(b *testing.B) {
		data := make([]byte, 4*len(labels))
		for i := range data {
			data[i] = byte(i)
		}
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := atomicfile.WriteFile(path, func(w io.Writer) error {
				_, err := w.Write(data)
				return err
			}); err != nil {
				b.Fatal(err)
			}
			os.Remove(path)
		}
	})
	for _, c := range []struct {
		dtype string
		size  int64
	}{{"uint32", 4}, {"uint16", 2}} {
		b.Run(c.dtype, func(b *testing.B) {
			b.SetBytes(c.size * int64(len(labels)))
			for b.Loop() {
				if err := atomicfile.WriteFile(path, func(w io.Writer) error {
					return WriteLabels(w, labels, []int{side, side}, c.dtype)
				}); err != nil {
					b.Fatal(err)
				}
				os.Remove(path)
			}
		})
	}
}
