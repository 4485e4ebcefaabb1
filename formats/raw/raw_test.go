package raw

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

func TestReadRawFile(t *testing.T) {
	dir := t.TempDir()
	shape := [3]int{3, 2, 2}
	for dtype, kind := range rawDtypes {
		for _, big := range []bool{false, true} {
			var order binary.ByteOrder = binary.LittleEndian
			if big {
				order = binary.BigEndian
			}
			size := kind.Size()
			data := make([]byte, 12*size)
			want := make([]float64, 12)
			for i := range 12 {
				b := data[i*size:]
				switch kind {
				case imagegraph.Float32:
					want[i] = float64(i) - 5.5
					order.PutUint32(b, math.Float32bits(float32(want[i])))
				case imagegraph.Float64:
					want[i] = float64(i)*1e10 - 3.25
					order.PutUint64(b, math.Float64bits(want[i]))
				case imagegraph.Int8, imagegraph.Int16, imagegraph.Int32, imagegraph.Int64:
					want[i] = float64(i) - 6
					v := uint64(int64(want[i]))
					rawPutSized(order, b, size, v)
				default:
					want[i] = float64(i*20 + 1)
					rawPutSized(order, b, size, uint64(want[i]))
				}
			}
			path := filepath.Join(dir, dtype+".raw")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			v, err := ReadFile(path, shape, dtype, big)
			if err != nil {
				t.Fatalf("%s big=%v: %v", dtype, big, err)
			}
			r := v.Frames[0]
			if r.Kind != kind || r.Width != 3 || r.Height != 2 || r.Depth != 2 || v.Format != "raw" || v.Header != nil {
				t.Fatalf("%s: %v %dx%dx%d %q", dtype, r.Kind, r.Width, r.Height, r.Depth, v.Format)
			}
			for i := range 12 {
				if r.Value(i) != want[i] {
					t.Fatalf("%s big=%v: sample %d = %v, want %v", dtype, big, i, r.Value(i), want[i])
				}
			}
		}
	}
}

// rawPutSized stores the low size bytes of v in b.
func rawPutSized(order binary.ByteOrder, b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		order.PutUint16(b, uint16(v))
	case 4:
		order.PutUint32(b, uint32(v))
	default:
		order.PutUint64(b, v)
	}
}

func TestReadRawFileErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.raw")
	if err := os.WriteFile(path, make([]byte, 24), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		shape [3]int
		dtype string
		parts []string
	}{
		{[3]int{3, 2, 2}, "uint8", []string{"shape [3 2 2] of uint8 needs 12 bytes, the file has 24"}},
		{[3]int{3, 2, 2}, "float64", []string{"needs 96 bytes, the file has 24"}},
		{[3]int{3, 2, 2}, "uint12", []string{"unknown dtype \"uint12\""}},
		{[3]int{0, 2, 2}, "uint8", []string{"shape [0 2 2]"}},
		{[3]int{1 << 20, 1 << 20, 1 << 20}, "uint8", []string{"at most 2147483647 voxels"}},
	}
	for _, c := range cases {
		_, err := ReadFile(path, c.shape, c.dtype, false)
		testkit.WantError(t, err, append([]string{path + ": raw: "}, c.parts...)...)
	}
	_, err := ReadFile(path+".absent", [3]int{1, 1, 1}, "uint8", false)
	testkit.WantError(t, err, "no such file")
	if v, err := ReadFile(path, [3]int{3, 2, 2}, "int16", true); err != nil || v.Frames[0].Kind != imagegraph.Int16 {
		t.Errorf("exact size: %v", err)
	}
}
