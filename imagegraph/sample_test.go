package imagegraph_test

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// sampleOf returns the one sample of a 1x1x1 raster of data.
func sampleOf[T imagegraph.Sample](t *testing.T, v T) imagegraph.SampleValue {
	t.Helper()
	r, err := imagegraph.NewRaster(1, 1, 1, []T{v})
	if err != nil {
		t.Fatal(err)
	}
	return r.SampleAt(0)
}

func TestSampleValue(t *testing.T) {
	rgb, err := imagegraph.NewRGB(1, 1, 1, []uint32{0xABCDEF})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		v          imagegraph.SampleValue
		kind       imagegraph.SampleKind
		text, json string
		float      float64
	}{
		{"rgb", rgb.SampleAt(0), imagegraph.RGB, "11259375", "11259375", 0xABCDEF},
		{"uint8", sampleOf(t, uint8(255)), imagegraph.Uint8, "255", "255", 255},
		{"uint16", sampleOf(t, uint16(65535)), imagegraph.Uint16, "65535", "65535", 65535},
		{"uint32", sampleOf(t, uint32(math.MaxUint32)), imagegraph.Uint32, "4294967295", "4294967295", math.MaxUint32},
		{"uint64 max", sampleOf(t, uint64(math.MaxUint64)), imagegraph.Uint64, "18446744073709551615", "18446744073709551615", math.MaxUint64},
		{"int8", sampleOf(t, int8(-128)), imagegraph.Int8, "-128", "-128", -128},
		{"int16", sampleOf(t, int16(-32768)), imagegraph.Int16, "-32768", "-32768", -32768},
		{"int32", sampleOf(t, int32(-2000000000)), imagegraph.Int32, "-2000000000", "-2000000000", -2e9},
		// 2^53+1 is no float64: the text keeps its last digit.
		{"int64 2^53+1", sampleOf(t, int64(1<<53+1)), imagegraph.Int64, "9007199254740993", "9007199254740993", 1 << 53},
		{"int64 min", sampleOf(t, int64(math.MinInt64)), imagegraph.Int64, "-9223372036854775808", "-9223372036854775808", math.MinInt64},
		// Floats: the shortest text that reads back as the same float32
		// or float64; JSON as encoding/json writes them.
		{"float32 0.1", sampleOf(t, float32(0.1)), imagegraph.Float32, "0.1", "0.1", float64(float32(0.1))},
		{"float64 0.1", sampleOf(t, 0.1), imagegraph.Float64, "0.1", "0.1", 0.1},
		{"float64 integral", sampleOf(t, 11259375.0), imagegraph.Float64, "1.1259375e+07", "11259375", 11259375},
		{"float64 -2.5e-7", sampleOf(t, -2.5e-7), imagegraph.Float64, "-2.5e-07", "-2.5e-7", -2.5e-7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.v.Kind != tc.kind || tc.v.String() != tc.text || tc.v.Float() != tc.float {
				t.Errorf("kind %v, text %q, float %v; want %v, %q, %v", tc.v.Kind, tc.v.String(), tc.v.Float(), tc.kind, tc.text, tc.float)
			}
			b, err := tc.v.AppendText([]byte("x="))
			if err != nil || string(b) != "x="+tc.text {
				t.Errorf("AppendText: %q, %v", b, err)
			}
			j, err := json.Marshal(tc.v)
			if err != nil || string(j) != tc.json {
				t.Errorf("JSON %s (%v), want %s", j, err, tc.json)
			}
			if tc.kind == imagegraph.Float32 || tc.kind == imagegraph.Float64 {
				bits := 64
				if tc.kind == imagegraph.Float32 {
					bits = 32
				}
				if back, err := strconv.ParseFloat(tc.text, bits); err != nil || back != tc.float {
					t.Errorf("%q reads back as %v (%v), want %v", tc.text, back, err, tc.float)
				}
			}
		})
	}
	var zero imagegraph.SampleValue
	if _, err := zero.AppendText(nil); err == nil || zero.String() != "?" || !math.IsNaN(zero.Float()) {
		t.Errorf("zero SampleValue: %q, %v, %v", zero.String(), zero.Float(), err)
	}
	if _, err := json.Marshal(sampleOf(t, math.Inf(1))); err == nil {
		t.Error("+Inf marshaled as JSON")
	}
}
