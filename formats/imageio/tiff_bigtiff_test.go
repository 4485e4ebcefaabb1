package imageio

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestReadBigTIFFStacks reads BigTIFF stacks written by tifffile (strips,
// tiles, Deflate, big-endian, 8 and 16 bits) and compares every sample
// with the array tifffile wrote them from (the .npy beside each).
func TestReadBigTIFFStacks(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "bigtiff", "*.tif"))
	if err != nil || len(names) < 4 {
		t.Fatalf("BigTIFF fixtures: %v, %v", names, err)
	}
	for _, name := range names {
		v, err := ReadTIFFStackFile(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := npy.ReadFile(strings.TrimSuffix(name, ".tif") + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		got := v.Frames[0]
		if got.Width != want.Width || got.Height != want.Height || got.Depth != want.Depth || got.Kind != want.Kind {
			t.Fatalf("%s: %dx%dx%d %v, want %dx%dx%d %v", name, got.Width, got.Height, got.Depth, got.Kind, want.Width, want.Height, want.Depth, want.Kind)
		}
		if !reflect.DeepEqual(got.Data, want.Data) {
			t.Errorf("%s: samples differ from the array written", name)
		}
	}
}

// TestReadBigTIFFDamaged: a BigTIFF cut short or with a block pointing
// past the end is an error naming the page, never a panic.
func TestReadBigTIFFDamaged(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "bigtiff", "u8-strips.tif"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{len(data) / 2, 200, 17} {
		if _, err := readTIFFStack(data[:cut], imagegraph.MaxVoxels); err == nil {
			t.Errorf("cut at %d bytes: read without error", cut)
		}
	}
	if _, err = readTIFFStack(data, 10); err == nil || !strings.Contains(err.Error(), "hold more than 10 voxels") {
		t.Errorf("a 10-voxel limit: %v", err)
	}
}

// shortOffsetsBigTIFF builds a little-endian BigTIFF of one 4x6 8-bit page
// in three strips whose offsets and byte counts are SHORT values (which
// BigTIFF allows), returning it and the pixels.
func shortOffsetsBigTIFF() ([]byte, []uint8) {
	pix := make([]uint8, 4*6)
	for i := range pix {
		pix[i] = uint8(i*7 + 1)
	}
	type entry struct {
		tag, typ uint16
		vals     []uint16
	}
	const dataAt = 400
	entries := []entry{
		{256, 3, []uint16{4}}, {257, 3, []uint16{6}}, {258, 3, []uint16{8}}, {259, 3, []uint16{1}},
		{262, 3, []uint16{1}}, {273, 3, []uint16{dataAt, dataAt + 8, dataAt + 16}}, {277, 3, []uint16{1}},
		{278, 3, []uint16{2}}, {279, 3, []uint16{8, 8, 8}},
	}
	b := make([]byte, dataAt+len(pix))
	copy(b, "II+\x00\x08\x00\x00\x00")
	binary.LittleEndian.PutUint64(b[8:], 16)
	binary.LittleEndian.PutUint64(b[16:], uint64(len(entries)))
	for k, e := range entries {
		p := b[24+20*k:]
		binary.LittleEndian.PutUint16(p[0:], e.tag)
		binary.LittleEndian.PutUint16(p[2:], e.typ)
		binary.LittleEndian.PutUint64(p[4:], uint64(len(e.vals)))
		for i, v := range e.vals { // 3 SHORTs fit the 8-byte value field
			binary.LittleEndian.PutUint16(p[12+2*i:], v)
		}
	}
	copy(b[dataAt:], pix)
	return b, pix
}

// TestReadBigTIFFShortOffsets: strip offsets stored as SHORT are widened
// to LONG in the classic page without overrunning the values after them.
func TestReadBigTIFFShortOffsets(t *testing.T) {
	data, pix := shortOffsetsBigTIFF()
	v, err := readTIFFStack(data, imagegraph.MaxVoxels)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Frames[0]; got.Width != 4 || got.Height != 6 || !reflect.DeepEqual(got.Data, imagegraph.Samples[uint8](pix)) {
		t.Errorf("read %dx%d %v, want 4x6 %v", got.Width, got.Height, got.Data, pix)
	}
}

// TestStackVoxelLimit: past 2^31 voxels a stack may hold no more voxels
// than its bytes decode to.
func TestStackVoxelLimit(t *testing.T) {
	for _, c := range []struct{ size, want int }{
		{100, imagegraph.MaxPixels},
		{1 << 18, imagegraph.MaxPixels},
		{1 << 20, maxExpansion << 20},
		{1 << 30, imagegraph.MaxVoxels},
	} {
		if got := stackVoxelLimit(c.size); got != c.want {
			t.Errorf("stackVoxelLimit(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}
