package main

import (
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestLabelDeviceArguments checks the arguments ccl_label_device refuses
// before it asks the driver anything, with the codes they return.
func TestLabelDeviceArguments(t *testing.T) {
	l2, err := parseLayout(2, []int64{4, 8}, []int64{8, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := parseLayout(2, []int64{0, 8}, []int64{8, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	binary := labelArgs{mode: modeBinary}
	for _, tc := range []struct {
		name      string
		kind      imagegraph.SampleKind
		l         layout
		data, out uintptr
		outType   int
		a         labelArgs
		want      int
	}{
		{"int64 samples", imagegraph.Int64, l2, 256, 512, dtUint32, binary, codeType},
		{"float64 samples", imagegraph.Float64, l2, 256, 512, dtUint32, binary, codeType},
		{"int64 labels", imagegraph.Uint8, l2, 256, 512, dtInt64, binary, codeType},
		{"connectivity 6 in 2D", imagegraph.Uint8, l2, 256, 512, dtUint32, labelArgs{mode: modeBinary, conn: 6}, codeInvalid},
		{"unknown rule", imagegraph.Uint8, l2, 256, 512, dtUint32, labelArgs{mode: 7}, codeInvalid},
		{"invert without threshold", imagegraph.Uint8, l2, 256, 512, dtUint32, labelArgs{mode: modeBinary, invert: true}, codeInvalid},
		{"NULL samples", imagegraph.Uint8, l2, 0, 512, dtUint32, binary, codeInvalid},
		{"NULL labels", imagegraph.Uint8, l2, 256, 0, dtUint32, binary, codeInvalid},
		{"unaligned samples", imagegraph.Uint8, l2, 257, 512, dtUint32, binary, codeInvalid},
		{"unaligned labels", imagegraph.Uint8, l2, 256, 520, dtUint16, binary, codeInvalid},
		{"empty array", imagegraph.Uint8, empty, 0, 0, dtUint32, binary, codeOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := labelDevice(tc.data, tc.kind, tc.l, tc.out, tc.outType, tc.a, 0)
			if got := codeOf(err); got != tc.want {
				t.Fatalf("code %d (%v), want %d", got, err, tc.want)
			}
			if n != 0 {
				t.Fatalf("count %d", n)
			}
		})
	}
}
