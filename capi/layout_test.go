package main

import (
	"fmt"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func TestParseLayout(t *testing.T) {
	for _, tc := range []struct {
		name          string
		shape         []int64
		strides       []int64
		item          int
		fortran       bool
		w, h, d       int
		axis          [3]int
		wantErrorCode int
	}{
		{"1D", []int64{7}, []int64{2}, 2, false, 7, 1, 1, [3]int{0, -1, -1}, 0},
		{"2D C", []int64{3, 5}, []int64{5, 1}, 1, false, 5, 3, 1, [3]int{1, 0, -1}, 0},
		{"2D F", []int64{3, 5}, []int64{4, 12}, 4, true, 3, 5, 1, [3]int{0, 1, -1}, 0},
		{"3D C", []int64{2, 3, 4}, []int64{96, 32, 8}, 8, false, 4, 3, 2, [3]int{2, 1, 0}, 0},
		{"3D F", []int64{2, 3, 4}, []int64{1, 2, 6}, 1, true, 2, 3, 4, [3]int{0, 1, 2}, 0},
		{"unit axis any stride", []int64{1, 4}, []int64{999, 1}, 1, false, 4, 1, 1, [3]int{1, 0, -1}, 0},
		{"empty", []int64{0, 4}, []int64{0, 0}, 1, false, 4, 0, 1, [3]int{1, 0, -1}, 0},
		{"strided", []int64{3, 5}, []int64{10, 2}, 1, false, 0, 0, 0, [3]int{}, codeInvalid},
		{"negative stride", []int64{3, 5}, []int64{5, -1}, 1, false, 0, 0, 0, [3]int{}, codeInvalid},
		{"negative side", []int64{-3}, []int64{1}, 1, false, 0, 0, 0, [3]int{}, codeInvalid},
		{"4D", []int64{1, 1, 1, 1}, []int64{1, 1, 1, 1}, 1, false, 0, 0, 0, [3]int{}, codeInvalid},
		{"too large", []int64{1 << 21, 1 << 21}, []int64{1 << 21, 1}, 1, false, 0, 0, 0, [3]int{}, codeTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := parseLayout(len(tc.shape), tc.shape, tc.strides, tc.item)
			if tc.wantErrorCode != 0 {
				if codeOf(err) != tc.wantErrorCode {
					t.Fatalf("error %v (code %d), want code %d", err, codeOf(err), tc.wantErrorCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.fortran != tc.fortran || l.w != tc.w || l.h != tc.h || l.d != tc.d || l.axis != tc.axis {
				t.Errorf("layout %+v, want fortran %v, %dx%dx%d, axes %v", l, tc.fortran, tc.w, tc.h, tc.d, tc.axis)
			}
		})
	}
}

func TestLayoutConn(t *testing.T) {
	lay := func(shape ...int64) layout {
		strides := make([]int64, len(shape))
		s := int64(1)
		for i := len(shape) - 1; i >= 0; i-- {
			strides[i] = s
			s *= shape[i]
		}
		l, err := parseLayout(len(shape), shape, strides, 1)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, tc := range []struct {
		name string
		l    layout
		in   int
		want int // -1: an error
	}{
		{"1D default", lay(9), 0, 4},
		{"1D 2", lay(9), 2, 4},
		{"1D 6", lay(9), 6, -1},
		{"2D default", lay(3, 3), 0, 8},
		{"2D 4", lay(3, 3), 4, 4},
		{"2D 6", lay(3, 3), 6, -1},
		{"3D default", lay(2, 3, 3), 0, 26},
		{"3D 18", lay(2, 3, 3), 18, 18},
		{"3D 8", lay(2, 3, 3), 8, -1},
		{"one plane 6", lay(1, 3, 3), 6, 4},
		{"one plane 18", lay(1, 3, 3), 18, 8},
		{"one plane default", lay(1, 3, 3), 0, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.l.conn(tc.in)
			if tc.want < 0 {
				if codeOf(err) != codeInvalid {
					t.Fatalf("conn(%d) = %d, %v; want CCL_EINVAL", tc.in, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("conn(%d) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestSampleKind checks the sample kind of every dtype code of cclabel.h,
// and that codes outside them are a type error.
func TestSampleKind(t *testing.T) {
	for _, tc := range []struct {
		dtype int
		want  imagegraph.SampleKind
		code  int
	}{
		{dtBool, imagegraph.Uint8, codeOK}, {dtUint8, imagegraph.Uint8, codeOK},
		{dtUint16, imagegraph.Uint16, codeOK}, {dtUint32, imagegraph.Uint32, codeOK},
		{dtUint64, imagegraph.Uint64, codeOK}, {dtInt8, imagegraph.Int8, codeOK},
		{dtInt16, imagegraph.Int16, codeOK}, {dtInt32, imagegraph.Int32, codeOK},
		{dtInt64, imagegraph.Int64, codeOK}, {dtFloat32, imagegraph.Float32, codeOK},
		{dtFloat64, imagegraph.Float64, codeOK},
		{0, 0, codeType}, {-1, 0, codeType}, {dtFloat64 + 1, 0, codeType},
	} {
		t.Run(fmt.Sprint(tc.dtype), func(t *testing.T) {
			got, err := sampleKind(tc.dtype)
			if codeOf(err) != tc.code || err == nil && got != tc.want {
				t.Errorf("sampleKind(%d) = %v, %v; want %v, code %d", tc.dtype, got, err, tc.want, tc.code)
			}
		})
	}
}
