package atomicfile

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkWriteFile writes files of several sizes through WriteFile: the
// cost of the temporary file, its rename and the bookkeeping around them.
func BenchmarkWriteFile(b *testing.B) {
	for _, size := range []int{4 << 10, 16 << 20} {
		data := make([]byte, size)
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "out.npy")
			b.SetBytes(int64(size))
			for b.Loop() {
				if err := WriteFile(path, func(w io.Writer) error {
					_, err := w.Write(data)
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteFileAt fills a file on every core through WriteFileAt, as
// the label writers do, mapped (on tmpfs) and with one writer.
// CCLABEL_BENCH_WRITE_DIR names the folder (default: a temporary one) and
// CCLABEL_BENCH_WRITE_MB the size (default 64).
func BenchmarkWriteFileAt(b *testing.B) {
	dir := os.Getenv("CCLABEL_BENCH_WRITE_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	mb, err := strconv.Atoi(cmp.Or(os.Getenv("CCLABEL_BENCH_WRITE_MB"), "64"))
	if err != nil {
		b.Fatal(err)
	}
	size := int64(mb) << 20
	for _, way := range []string{"mapped", "one-writer"} {
		b.Run(way, func(b *testing.B) {
			mapOff.Store(way == "one-writer")
			defer mapOff.Store(false)
			path := filepath.Join(dir, "cclabel-bench.bin")
			defer os.Remove(path)
			b.SetBytes(size)
			for b.Loop() {
				os.Remove(path) // a fresh file, as each label file is
				if err := WriteFileAt(path, size, 0, func(dst []byte, off int64) error {
					clear(dst)
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
