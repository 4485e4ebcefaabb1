package nifti

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
	"github.com/klauspost/compress/gzip"
)

// niftiSpec describes a synthetic NIfTI file.
type niftiSpec struct {
	version   int
	bigEndian bool
	datatype  int16
	dims      []int  // x[, y[, z[, t]]]; len(dims) is dim[0]
	ext       []byte // bytes between the extender and the samples
	extender  bool   // Extender[0] = 1
	slope     float64
	inter     float64
	gz        bool
}

// niftiAllTypes are the supported datatypes.
var niftiAllTypes = []int16{2, 4, 8, 16, 64, 256, 512, 768, 1024, 1280}

// niftiSamples returns n deterministic samples of a datatype, spread over
// the type's range (negative values for signed types, fractions for
// floats), as a typed slice.
func niftiSamples(datatype int16, n int) any {
	bits := make([]uint64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range bits {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		bits[i] = x
	}
	switch datatype {
	case 2:
		return niftiMap(bits, func(b uint64) uint8 { return uint8(b) })
	case 4:
		return niftiMap(bits, func(b uint64) int16 { return int16(b) })
	case 8:
		return niftiMap(bits, func(b uint64) int32 { return int32(b) })
	case 16:
		return niftiMap(bits, func(b uint64) float32 { return float32(int32(b)) / 1024 })
	case 64:
		return niftiMap(bits, func(b uint64) float64 { return float64(int64(b)) / 3 })
	case 256:
		return niftiMap(bits, func(b uint64) int8 { return int8(b) })
	case 512:
		return niftiMap(bits, func(b uint64) uint16 { return uint16(b) })
	case 768:
		return niftiMap(bits, func(b uint64) uint32 { return uint32(b) })
	case 1024:
		return niftiMap(bits, func(b uint64) int64 { return int64(b) })
	case 1280:
		return bits
	}
	panic("unsupported datatype in test")
}

// niftiMap applies f to each element.
func niftiMap[T any](in []uint64, f func(uint64) T) []T {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// niftiSpecHeader returns the header of a spec, with a full geometry.
func niftiSpecHeader(s niftiSpec) *Header {
	kind, _ := niftiKind(s.datatype)
	h := &Header{
		Version: s.version, BigEndian: s.bigEndian, Datatype: s.datatype, Bitpix: int16(8 * kind.Size()),
		Pixdim:    [8]float64{-1, 0.5, 1.25, 2, 3, 1, 1, 1},
		XYZTUnits: 10, SclSlope: s.slope, SclInter: s.inter,
		CalMin: -1, CalMax: 100, IntentCode: 1002, IntentName: "labels", DimInfo: 57,
		SliceStart: 1, SliceEnd: 2, SliceCode: 3, SliceDuration: 0.25, TOffset: 1.5,
		QformCode: 1, SformCode: 2, QuaternB: 0.5, QuaternC: -0.5, QuaternD: 0.5,
		QOffsetX: -10, QOffsetY: 20, QOffsetZ: -30.5,
		SrowX: [4]float64{-0.5, 0, 0, 90}, SrowY: [4]float64{0, 1.25, 0.125, -126}, SrowZ: [4]float64{0, 0, 2, -72},
		Descrip: "synthetic test volume", AuxFile: "aux.txt",
	}
	h.Dim = [8]int64{int64(len(s.dims)), 1, 1, 1, 1, 1, 1, 1}
	for i, d := range s.dims {
		h.Dim[i+1] = int64(d)
	}
	if s.extender {
		h.Extender[0] = 1
	}
	if len(s.ext) > 0 {
		h.Extensions = s.ext
	}
	h.VoxOffset = h.headerSize() + 4 + int64(len(s.ext))
	return h
}

// niftiBuild returns the bytes of a synthetic .nii file, its header and
// its samples (all frames).
func niftiBuild(t testing.TB, s niftiSpec) ([]byte, *Header, any) {
	t.Helper()
	h := niftiSpecHeader(s)
	n := 1
	for _, d := range s.dims {
		n *= d
	}
	samples := niftiSamples(s.datatype, n)
	var order binary.ByteOrder = binary.LittleEndian
	if s.bigEndian {
		order = binary.BigEndian
	}
	head, err := h.encode(order)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Write(head)
	buf.Write(s.ext)
	if err := binary.Write(&buf, order, samples); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if s.gz {
		data = niftiGzip(t, data)
	}
	return data, h, samples
}

// niftiGzip compresses data.
func niftiGzip(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// niftiConcat returns the samples of all frames as one slice.
func niftiConcat(t testing.TB, v *imagegraph.Volume) any {
	t.Helper()
	var all []any
	for _, f := range v.Frames {
		if err := f.Validate(); err != nil {
			t.Fatal(err)
		}
		all = append(all, f.Data)
	}
	switch all[0].(type) {
	case imagegraph.Samples[uint8]:
		return niftiJoin[uint8](all)
	case imagegraph.Samples[int8]:
		return niftiJoin[int8](all)
	case imagegraph.Samples[uint16]:
		return niftiJoin[uint16](all)
	case imagegraph.Samples[int16]:
		return niftiJoin[int16](all)
	case imagegraph.Samples[uint32]:
		return niftiJoin[uint32](all)
	case imagegraph.Samples[int32]:
		return niftiJoin[int32](all)
	case imagegraph.Samples[float32]:
		return niftiJoin[float32](all)
	case imagegraph.Samples[uint64]:
		return niftiJoin[uint64](all)
	case imagegraph.Samples[int64]:
		return niftiJoin[int64](all)
	case imagegraph.Samples[float64]:
		return niftiJoin[float64](all)
	}
	t.Fatalf("unexpected sample type %T", all[0])
	return nil
}

// niftiJoin concatenates typed slices.
func niftiJoin[T imagegraph.Sample](parts []any) []T {
	var out []T
	for _, p := range parts {
		out = append(out, p.(imagegraph.Samples[T])...)
	}
	return out
}

// niftiWantError checks that err is one line starting with prefix and
// containing every part.
func niftiWantError(t testing.TB, err error, prefix string, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) || strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("error %q is not one line starting with %q", msg, prefix)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("error %q does not contain %q", msg, p)
		}
	}
}

// niftiAllocated returns the bytes allocated while f runs.
func niftiAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// niftiSameAffine reports whether two affines agree within tol.
func niftiSameAffine(a, b [3][4]float64, tol float64) bool {
	for i := range a {
		for j := range a[i] {
			if math.Abs(a[i][j]-b[i][j]) > tol {
				return false
			}
		}
	}
	return true
}

// niftiLabelAll labels every frame under mode (thresholds on scaled
// values) and returns the labels of all frames and the count of each.
func niftiLabelAll(t testing.TB, v *imagegraph.Volume, mode string, conn int) ([]uint32, []int) {
	t.Helper()
	rule, err := imagegraph.ParseRule(mode)
	if err != nil {
		t.Fatal(err)
	}
	var all []uint32
	var counts []int
	for _, f := range v.Frames {
		r := f
		if rule.Mode == imagegraph.Threshold {
			scaled := make([]float64, f.Len())
			for i := range scaled {
				scaled[i] = f.Value(i)*v.Slope + v.Inter
			}
			r = &imagegraph.Raster{Width: f.Width, Height: f.Height, Depth: f.Depth, Kind: imagegraph.Float64, Data: imagegraph.Samples[float64](scaled)}
		}
		l, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn}, nil)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, l.Data...)
		counts = append(counts, l.Count)
	}
	return all, counts
}

// writeNIfTITestFile writes data to path.
func writeNIfTITestFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
