package nrrd

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// nrrdFuzzSeeds returns small attached NRRD files for the fuzzer: every
// encoding, 2-D to 4-D, geometry fields, skips, and damaged variants.
func nrrdFuzzSeeds(t testing.TB) [][]byte {
	le := nrrdInt16Bytes(binary.LittleEndian, nrrdTestValues())
	gz := nrrdGzip(t, le)
	geo := "space: LPS\nspace directions: (0.5,0,0) (0,-0.5,0) (0,0,3)\nspace origin: (1,2,3)\nkinds: domain domain domain\n"
	return [][]byte{
		nrrdAttached(nrrdInt16Header("raw", geo), le),
		nrrdAttached(nrrdInt16Header("gzip", geo), gz),
		nrrdAttached(nrrdInt16Header("gzip", ""), gz[:len(gz)/2]),
		nrrdAttached(nrrdInt16Header("bzip2", ""), nrrdTestBZ2),
		nrrdAttached(nrrdInt16Header("ascii", ""), []byte(strings.Repeat("1 -2, 3\n", 8))),
		nrrdAttached(nrrdInt16Header("hex", ""), []byte(strings.Repeat("0a0B 1c1d\n", 12))),
		nrrdAttached(nrrdInt16Header("raw", "line skip: 1\nbyte skip: 2\n"), append([]byte("x\nab"), le...)),
		nrrdAttached(nrrdInt16Header("raw", "byte skip: -1\n"), append([]byte("junk"), le...)),
		nrrdAttached("type: float\ndimension: 2\nsizes: 3 2\nendian: big\nencoding: raw\nspacings: 0.5 nan\n", make([]byte, 24)),
		nrrdAttached("type: uchar\ndimension: 4\nsizes: 2 2 1 3\nencoding: raw\nspace: RAS\n"+
			"space directions: (1,0,0) (0,1,0) (0,0,1) none\nkinds: domain domain domain list\nk:=v\n", make([]byte, 12)),
		nrrdAttached("type: double\ndimension: 3\nsizes: 1 1 1\nendian: little\nencoding: raw\n", binary.LittleEndian.AppendUint64(nil, math.Float64bits(1.5))),
		[]byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: x.raw\n")),
		[]byte("NRRD0005\n" + nrrdInt16Header("raw", "data file: LIST 2\na\nb\nc\nd\n")),
	}
}

func FuzzReadNRRD(f *testing.F) {
	for _, s := range nrrdFuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := readNRRD(bytes.NewReader(data), int64(len(data)), nil, testkit.FuzzMaxPixels)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "nrrd: ") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("error %q is not one line starting with \"nrrd: \"", msg)
			}
			return
		}
		checkFuzzVolume(t, v)
		h, ok := v.Header.(*Header)
		if !ok || h == nil || v.Format != "nrrd" {
			t.Fatalf("header %T, format %q", v.Header, v.Format)
		}
		// Labels written with this geometry read back with it.
		r := v.Frames[0]
		labels := make([][]uint32, len(v.Frames))
		for i := range labels {
			labels[i] = make([]uint32, r.Len())
		}
		header, wide, err := nrrdLabelHeader(v, labels, "auto")
		if err != nil {
			t.Fatalf("label header: %v", err)
		}
		var b bytes.Buffer
		if err := writeNRRDLabels(&b, header, labels, wide, nil); err != nil {
			t.Fatal(err)
		}
		back, err := readNRRD(bytes.NewReader(b.Bytes()), int64(b.Len()), nil, testkit.FuzzMaxPixels)
		if err != nil {
			t.Fatalf("labels do not read back: %v\n%s", err, header)
		}
		if back.Affine != v.Affine || back.Spacing != v.Spacing || len(back.Frames) != len(v.Frames) {
			t.Fatalf("geometry %v %v, want %v %v\n%s", back.Affine, back.Spacing, v.Affine, v.Spacing, header)
		}
	})
}

// checkFuzzVolume checks a volume the fuzzed reader accepted: frames of
// one shape and kind that validate, no scaling, and a finite geometry.
func checkFuzzVolume(t *testing.T, v *imagegraph.Volume) {
	t.Helper()
	if len(v.Frames) == 0 || v.Slope != 1 || v.Inter != 0 {
		t.Fatalf("%d frames, slope %v, inter %v", len(v.Frames), v.Slope, v.Inter)
	}
	r0 := v.Frames[0]
	for _, r := range v.Frames {
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		if r.Width != r0.Width || r.Height != r0.Height || r.Depth != r0.Depth || r.Kind != r0.Kind {
			t.Fatal("frames differ in shape or kind")
		}
	}
	testkit.CheckGeometry(t, v.Spacing, v.Affine)
}
