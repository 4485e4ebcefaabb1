package imageio

import (
	"bytes"
	"encoding/binary"
	"github.com/cclabel/cclabel/internal/testkit"
	"os"
	"path/filepath"
	"testing"
)

func TestTIFFPageCount(t *testing.T) {
	for _, order := range []testkit.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		for _, n := range []int{1, 2, 5} {
			pages := make([]testkit.TIFFPage, n)
			for i := range pages {
				pages[i] = testkit.TwoByTwo
			}
			data, _ := testkit.BuildTIFF(order, pages...)
			got, err := TIFFPageCount(bytes.NewReader(data), int64(len(data)))
			if err != nil || got != n {
				t.Errorf("%v, %d pages: got %d, %v", order, n, got, err)
			}
		}
	}
	for _, n := range []int{1, 3} {
		data := testkit.BigTIFF(n)
		if got, err := TIFFPageCount(bytes.NewReader(data), int64(len(data))); err != nil || got != n {
			t.Errorf("BigTIFF with %d pages: got %d, %v", n, got, err)
		}
	}
	single := testkit.EncodeTIFF(t, testkit.GreyPattern(), nil)
	if got, err := TIFFPageCount(bytes.NewReader(single), int64(len(single))); err != nil || got != 1 {
		t.Errorf("x/image TIFF: got %d, %v", got, err)
	}
}

func TestTIFFPageCountErrors(t *testing.T) {
	three, ifds := testkit.BuildTIFF(binary.LittleEndian, testkit.TwoByTwo, testkit.TwoByTwo, testkit.TwoByTwo)
	next := func(k int) int { return ifds[k] + 2 + 9*12 } // where IFD k's next pointer lies
	patched := func(k int, to uint32) []byte {
		b := bytes.Clone(three)
		binary.LittleEndian.PutUint32(b[next(k):], to)
		return b
	}
	manyEntries := bytes.Clone(three)
	binary.LittleEndian.PutUint16(manyEntries[ifds[2]:], 60000)
	cases := []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"self loop", patched(0, uint32(ifds[0])), []string{"loops back"}},
		{"long loop", patched(2, uint32(ifds[0])), []string{"loops back"}},
		{"back to the middle", patched(2, uint32(ifds[1])), []string{"loops back"}},
		{"past the end", patched(1, uint32(len(three))), []string{"IFD offset", "lies outside the file"}},
		{"far past the end", patched(1, 0xfffffff0), []string{"lies outside the file"}},
		{"inside the header", patched(0, 4), []string{"IFD offset 4 lies outside"}},
		{"entries past the end", manyEntries, []string{"60000 entries, more than the file holds"}},
		{"truncated", three[:len(three)-3], []string{"9 entries, more than the file holds"}},
		{"no IFD", []byte("II*\x00\x00\x00\x00\x00"), []string{"no image"}},
		{"short", []byte("II*\x00"), []string{"too short"}},
		{"not TIFF", []byte("\x89PNG\r\n\x1a\n"), []string{"malformed header"}},
		{"bad BigTIFF", []byte("II+\x00\x04\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00"), []string{"malformed BigTIFF header"}},
	}
	for _, c := range cases {
		n, err := TIFFPageCount(bytes.NewReader(c.data), int64(len(c.data)))
		if err == nil {
			t.Errorf("%s: %d pages, want an error", c.name, n)
			continue
		}
		testkit.WantError(t, err, append([]string{"formats: tiff: "}, c.parts...)...)
	}
}

func TestTIFFPageCountShared(t *testing.T) {
	for name, want := range map[string]int{"skimage_multipage.tif": 2, "morpholibj_blobs-lbl.tif": 1, "morpholibj_grains.tif": 1} {
		data, err := os.ReadFile(filepath.Join(testkit.Dir(t), "images", name))
		if err != nil {
			t.Logf("%s absent", name)
			continue
		}
		if got, err := TIFFPageCount(bytes.NewReader(data), int64(len(data))); err != nil || got != want {
			t.Errorf("%s: %d pages, %v; want %d", name, got, err, want)
		}
	}
}
