package fileio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// openTemp writes data to a temporary file and opens it for the test.
func openTemp(t *testing.T, data []byte) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestMapRegions(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("files are mapped on Linux")
	}
	data := make([]byte, 3*os.Getpagesize()+123)
	for i := range data {
		data[i] = byte(i * 7)
	}
	f := openTemp(t, data)
	page := os.Getpagesize()
	for _, r := range [][2]int{{0, len(data)}, {1, 10}, {page - 1, 2}, {page, page}, {2*page + 5, page + 118}, {len(data) - 1, 1}} {
		b, unmap, err := Map(f, int64(r[0]), int64(r[1]))
		if err != nil {
			t.Fatalf("Map(%d, %d): %v", r[0], r[1], err)
		}
		if !bytes.Equal(b, data[r[0]:r[0]+r[1]]) {
			t.Fatalf("Map(%d, %d): wrong bytes", r[0], r[1])
		}
		unmap()
		unmap()
	}
	if _, _, err := Map(f, 10, int64(len(data))); err == nil || errors.Is(err, ErrNoMap) {
		t.Errorf("a region past the end: error %v", err)
	}
	if _, _, err := Map(f, 0, 0); !errors.Is(err, ErrNoMap) {
		t.Errorf("an empty region: error %v", err)
	}
}

func TestMapRefusesNonRegularFiles(t *testing.T) {
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	if _, _, err := Map(dir, 0, 10); !errors.Is(err, ErrNoMap) {
		t.Errorf("a folder: error %v, want ErrNoMap", err)
	}
}

func TestSamples(t *testing.T) {
	if runtime.GOOS != "linux" || hostBigEndian {
		t.Skip("samples are mapped on little-endian Linux")
	}
	data := []byte{9, 1, 0, 2, 0, 3, 0, 4, 0}
	f := openTemp(t, data)
	s, unmap, err := MapSamples(f, imagegraph.Uint8, 9, 0, false)
	if err != nil || !bytes.Equal(s.([]uint8), data) {
		t.Fatalf("uint8: %v %v", s, err)
	}
	unmap()
	if _, _, err := MapSamples(f, imagegraph.Uint16, 4, 1, false); !errors.Is(err, ErrNoMap) {
		t.Errorf("misaligned uint16: error %v, want ErrNoMap", err)
	}
	if _, _, err := MapSamples(f, imagegraph.Uint16, 4, 2, true); !errors.Is(err, ErrNoMap) {
		t.Errorf("big-endian uint16: error %v, want ErrNoMap", err)
	}
	s, unmap, err = MapSamples(f, imagegraph.Int16, 3, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	defer unmap()
	if got := s.([]int16); len(got) != 3 || got[0] != 2<<8 || got[2] != 4<<8 {
		t.Errorf("int16 at offset 2: %v", got)
	}
}
