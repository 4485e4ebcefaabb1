package npy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// putPieces hands labels to put in pieces of piece labels, on goroutines
// goroutines, the last pieces first.
func putPieces(put PutLabels16, labels []uint16, piece, goroutines int) error {
	var wg sync.WaitGroup
	errs := make([]error, goroutines)
	pieces := (len(labels) + piece - 1) / piece
	for g := range goroutines {
		wg.Go(func() {
			for p := pieces - 1 - g; p >= 0; p -= goroutines {
				lo := p * piece
				buf := append([]uint16(nil), labels[lo:min(lo+piece, len(labels))]...)
				if err := put(int64(lo), buf); err != nil {
					errs[g] = err
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// TestWriteLabels16File checks that the file WriteLabels16File writes from
// pieces handed over out of order is byte for byte what WriteLabelsOrder
// streams as uint16, in both axis orders and for empty arrays.
func TestWriteLabels16File(t *testing.T) {
	for _, shape := range [][]int{{0}, {1}, {7, 13}, {3, 1000, 701}, {5, 0}} {
		for _, fortran := range []bool{false, true} {
			for _, goroutines := range []int{1, 4} {
				t.Run(fmt.Sprintf("%v-%v-%d", shape, fortran, goroutines), func(t *testing.T) {
					n := 1
					for _, d := range shape {
						n *= d
					}
					labels16 := make([]uint16, n)
					labels := make([]uint32, n)
					for i := range labels {
						labels16[i] = uint16(i * 40503)
						labels[i] = uint32(labels16[i])
					}
					var want bytes.Buffer
					if err := WriteLabelsOrder(&want, labels, shape, "uint16", fortran); err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(t.TempDir(), "l.npy")
					if err := WriteLabels16File(path, shape, fortran, func(put PutLabels16) error {
						return putPieces(put, labels16, 997, goroutines)
					}); err != nil {
						t.Fatal(err)
					}
					got, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want.Bytes()) {
						t.Fatalf("file of %d bytes differs from WriteLabelsOrder's %d", len(got), want.Len())
					}
				})
			}
		}
	}
}

// TestWriteLabels16FileFails checks that a failing write, labels outside
// the array, labels missing and a bad shape leave no file and the old one
// as it was.
func TestWriteLabels16FileFails(t *testing.T) {
	boom := errors.New("boom")
	labels := make([]uint16, 100)
	for _, tc := range []struct {
		name  string
		shape []int
		write func(put PutLabels16) error
		want  error
	}{
		{"write fails", []int{10, 10}, func(put PutLabels16) error { return boom }, boom},
		{"past the end", []int{10, 10}, func(put PutLabels16) error { return put(95, labels[:10]) }, nil},
		{"negative index", []int{10, 10}, func(put PutLabels16) error { return put(-1, labels[:1]) }, nil},
		{"labels missing", []int{10, 10}, func(put PutLabels16) error { return put(0, labels[:99]) }, nil},
		{"negative dimension", []int{10, -10}, func(put PutLabels16) error { return nil }, nil},
		{"too many values", []int{1 << 40, 1 << 40}, func(put PutLabels16) error { return nil }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "l.npy")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := WriteLabels16File(path, tc.shape, false, tc.write)
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want an error (%v)", err, tc.want)
			}
			if got, _ := os.ReadFile(path); string(got) != "old" {
				t.Fatalf("old file changed to %q", got)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Fatalf("%d files left in the folder, want 1", len(entries))
			}
		})
	}
}
