package imagegraph_test

import (
	"encoding/binary"
	"math"
	"testing"
	"unsafe"

	"github.com/cclabel/cclabel/imagegraph"
)

// checkSamples checks the Data of samples of type T against the Go
// type: the kind, NewSamples' type and length, Bytes as the samples'
// memory, ViewBytes sharing it, Slice sharing it with its capacity
// capped, and At.
func checkSamples[T imagegraph.Sample](t *testing.T, kind imagegraph.SampleKind, values []T) {
	t.Helper()
	var z T
	if got := (imagegraph.Samples[T]{}).Kind(); got != kind {
		t.Errorf("%T: kind %v, want %v", z, got, kind)
	}
	if size := int(unsafe.Sizeof(z)); kind.Size() != size {
		t.Errorf("%v: size %d, want %d", kind, kind.Size(), size)
	}
	d, err := imagegraph.NewSamples(kind, len(values))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := d.(imagegraph.Samples[T])
	if !ok || d.Len() != len(values) || d.Kind() != kind {
		t.Fatalf("%v: NewSamples gave %T of %d", kind, d, d.Len())
	}
	for i, v := range s {
		if v != 0 {
			t.Fatalf("%v: sample %d of new samples is %v", kind, i, v)
		}
	}
	copy(s, values)
	b := d.Bytes()
	if len(b) != len(values)*kind.Size() || unsafe.SliceData(b) != (*byte)(unsafe.Pointer(unsafe.SliceData(s))) {
		t.Fatalf("%v: Bytes holds %d bytes elsewhere", kind, len(b))
	}
	v, err := imagegraph.ViewBytes(kind, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.(imagegraph.Samples[T]); len(got) != len(values) || &got[0] != &s[0] {
		t.Fatalf("%v: ViewBytes does not share the samples", kind)
	}
	sub := d.Slice(2, 5).(imagegraph.Samples[T])
	if len(sub) != 3 || cap(sub) != 3 {
		t.Errorf("%v: Slice(2, 5) has length %d, capacity %d, want 3, 3", kind, len(sub), cap(sub))
	}
	sub[0] = values[0]
	if s[2] != values[0] {
		t.Errorf("%v: Slice copied the samples", kind)
	}
	s[2] = values[2]
	r, err := imagegraph.NewRaster(len(values), 1, 1, []T(s))
	if err != nil || r.Kind != kind {
		t.Fatalf("%v: NewRaster: %v, kind %v", kind, err, r.Kind)
	}
	for i := range values {
		if got, want := d.At(i), r.SampleAt(i); got != want || got.Kind != kind {
			t.Errorf("%v: At(%d) = %v of %v, SampleAt %v", kind, i, got, got.Kind, want)
		}
		if got := r.Value(i); got != float64(values[i]) {
			t.Errorf("%v: Value(%d) = %v, want %v", kind, i, got, float64(values[i]))
		}
	}
}

func TestSamples(t *testing.T) {
	checkSamples(t, imagegraph.Uint8, []uint8{1, 0, 255, 7, 9, 3})
	checkSamples(t, imagegraph.Uint16, []uint16{1, 0, 65535, 7, 9, 3})
	checkSamples(t, imagegraph.Uint32, []uint32{1, 0, math.MaxUint32, 7, 9, 3})
	checkSamples(t, imagegraph.Uint64, []uint64{1, 0, 1 << 60, 7, 9, 3})
	checkSamples(t, imagegraph.Int8, []int8{-1, 0, -128, 7, 9, 3})
	checkSamples(t, imagegraph.Int16, []int16{-1, 0, -32768, 7, 9, 3})
	checkSamples(t, imagegraph.Int32, []int32{-1, 0, math.MinInt32, 7, 9, 3})
	checkSamples(t, imagegraph.Int64, []int64{-1, 0, math.MinInt64, 7, 9, 3})
	checkSamples(t, imagegraph.Float32, []float32{-1.5, 0, 3e38, 7, 9, 3})
	checkSamples(t, imagegraph.Float64, []float64{-1.5, 0, 1e300, 7, 9, 3})
}

func TestSamplesOfRGB(t *testing.T) {
	d, err := imagegraph.NewSamples(imagegraph.RGB, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.(imagegraph.Samples[uint32]); !ok || d.Kind() != imagegraph.Uint32 {
		t.Fatalf("RGB samples are %T of kind %v", d, d.Kind())
	}
	r := &imagegraph.Raster{Width: 4, Height: 1, Depth: 1, Kind: imagegraph.RGB, Data: d}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestViewBytesChecks(t *testing.T) {
	words := make([]uint64, 4)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 32)
	binary.NativeEndian.PutUint32(b[4:], 0xABCDEF)
	d, err := imagegraph.ViewBytes(imagegraph.Uint32, b[4:12])
	if err != nil || d.Len() != 2 || d.(imagegraph.Samples[uint32])[0] != 0xABCDEF {
		t.Fatalf("ViewBytes at 4: %v, %v", d, err)
	}
	if _, err := imagegraph.ViewBytes(imagegraph.Uint32, b[2:10]); err == nil {
		t.Error("ViewBytes took uint32 samples at an odd address")
	}
	if _, err := imagegraph.ViewBytes(0, b); err == nil {
		t.Error("ViewBytes took kind 0")
	}
	if _, err := imagegraph.NewSamples(imagegraph.RGB+1, 3); err == nil {
		t.Error("NewSamples took an unknown kind")
	}
	if _, err := imagegraph.NewSamples(imagegraph.Uint8, -1); err == nil {
		t.Error("NewSamples took a negative count")
	}
	if _, err := imagegraph.NewSamples(imagegraph.Uint64, math.MaxInt/4); err == nil {
		t.Error("NewSamples took a count whose bytes overflow")
	}
	if _, err := imagegraph.ViewBytes(imagegraph.Uint32, b[4:11]); err == nil {
		t.Error("ViewBytes took 7 bytes as uint32 samples")
	}
	if d, err := imagegraph.ViewBytes(imagegraph.Uint8, b[:3]); err != nil || cap(d.(imagegraph.Samples[uint8])) != 3 {
		t.Errorf("ViewBytes of 3 bytes: %v, capacity past them", err)
	}
}

func TestValidateKindAndData(t *testing.T) {
	r := &imagegraph.Raster{Width: 2, Height: 1, Depth: 1, Kind: imagegraph.Int16, Data: imagegraph.Samples[uint16]{1, 2}}
	if err := r.Validate(); err == nil || err.Error() != "imagegraph: raster of kind int16 holds []uint16" {
		t.Errorf("int16 raster of uint16 samples: %v", err)
	}
	r = &imagegraph.Raster{Width: 2, Height: 1, Depth: 1, Kind: imagegraph.Uint8}
	if err := r.Validate(); err == nil || err.Error() != "imagegraph: raster of kind uint8 holds <nil>" {
		t.Errorf("raster without samples: %v", err)
	}
}
