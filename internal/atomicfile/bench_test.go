package atomicfile

import (
	"fmt"
	"io"
	"path/filepath"
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
