package npy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteLabelsFile checks that the file WriteLabelsFile writes, its
// pieces filled in parallel, is byte for byte what WriteLabelsOrder
// streams, for every dtype, sizes around the pieces, and several frames.
func TestWriteLabelsFile(t *testing.T) {
	for _, dtype := range []string{"uint8", "uint16", "int32", "uint32"} {
		dt := npyDtypes[dtype]
		for _, n := range []int{1, 1<<20/dt.size - 3, 1<<20 + 7} {
			for _, frames := range []int{1, 3} {
				t.Run(fmt.Sprintf("%s-%d-%d", dtype, n, frames), func(t *testing.T) {
					var all []uint32
					fs := make([][]uint32, frames)
					for f := range fs {
						fs[f] = make([]uint32, n)
						for i := range fs[f] {
							fs[f][i] = uint32((f*n+i)*2654435761) % uint32(min(dt.max, 1<<31-1)+1)
						}
						all = append(all, fs[f]...)
					}
					shape := []int{frames, n}
					var want bytes.Buffer
					if err := WriteLabelsOrder(&want, all, shape, dtype, frames > 1); err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(t.TempDir(), "l.npy")
					if err := WriteLabelsFile(path, fs, shape, dtype, frames > 1); err != nil {
						t.Fatal(err)
					}
					got, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want.Bytes()) {
						t.Fatalf("file of %d bytes differs from the %d streamed", len(got), want.Len())
					}
				})
			}
		}
	}
}

// TestWriteLabelsFileRange checks that a label too large for the dtype, in
// any frame, fails with WriteLabels' message and leaves no file, and an
// existing one unchanged.
func TestWriteLabelsFileRange(t *testing.T) {
	for dtype, big := range map[string]uint32{"uint8": 256, "uint16": 65536, "int32": 1 << 31} {
		for _, at := range []int{0, 299999, 2*300000 + 5} {
			t.Run(fmt.Sprintf("%s-%d", dtype, at), func(t *testing.T) {
				fs := [][]uint32{make([]uint32, 300000), make([]uint32, 300000), make([]uint32, 300000)}
				fs[at/300000][at%300000] = big
				dir := t.TempDir()
				path := filepath.Join(dir, "l.npy")
				if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
				err := WriteLabelsFile(path, fs, []int{3, 300000}, dtype, false)
				want := fmt.Sprintf("npy: label %d at index %d does not fit %s", big, at, dtype)
				if err == nil || err.Error() != want {
					t.Fatalf("err %v, want %q", err, want)
				}
				if got, _ := os.ReadFile(path); string(got) != "old" {
					t.Fatalf("old file changed to %q", got)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					t.Fatalf("folder holds %d files, want the old one only", len(entries))
				}
			})
		}
	}
}
