package nifti

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestNIfTIRoundTrip reads synthetic files of both versions and byte
// orders, every datatype, 1D to 4D, with and without extensions, scaling
// and gzip, with the size known and unknown.
func TestNIfTIRoundTrip(t *testing.T) {
	shapes := [][]int{{7}, {6, 5}, {5, 4, 3}, {5, 4, 3, 2}, {3, 2, 2, 3, 1}}
	for _, version := range []int{1, 2} {
		for _, big := range []bool{false, true} {
			for ti, dt := range niftiAllTypes {
				for si, dims := range shapes {
					s := niftiSpec{version: version, bigEndian: big, datatype: dt, dims: dims, slope: 1}
					if (ti+si)%2 == 1 {
						s.ext = bytes.Repeat([]byte{16, 0, 0, 0, 6, 0, 0, 0, 'h', 'i', 0, 0, 0, 0, 0, 0}, 2)
						if big {
							s.ext[0], s.ext[3], s.ext[4], s.ext[7] = 0, 16, 0, 6
							s.ext[16], s.ext[19], s.ext[20], s.ext[23] = 0, 16, 0, 6
						}
						s.extender = true
					}
					if ti%3 == 0 {
						s.slope, s.inter = 2.5, -3
					}
					s.gz = si%2 == 0
					name := fmt.Sprintf("v%d/be=%v/%s/%v/gz=%v", version, big, niftiDatatypeName(dt), dims, s.gz)
					t.Run(name, func(t *testing.T) { niftiCheckRoundTrip(t, s) })
				}
			}
		}
	}
}

// niftiCheckRoundTrip builds the file of s and reads it back.
func niftiCheckRoundTrip(t *testing.T, s niftiSpec) {
	data, want, samples := niftiBuild(t, s)
	for _, size := range []int64{int64(len(data)), -1} {
		v, err := Read(bytes.NewReader(data), size)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		frames := 1
		if len(s.dims) > 3 {
			frames = s.dims[3]
		}
		if len(v.Frames) != frames {
			t.Fatalf("%d frames, want %d", len(v.Frames), frames)
		}
		f := v.Frames[0]
		wantDims := [3]int{1, 1, 1}
		copy(wantDims[:], s.dims)
		if got := [3]int{f.Width, f.Height, f.Depth}; got != wantDims {
			t.Fatalf("frame size %v, want %v", got, wantDims)
		}
		if got := niftiConcat(t, v); !reflect.DeepEqual(got, samples) {
			t.Fatalf("samples differ")
		}
		if v.Format != fmt.Sprintf("nifti%d", s.version) {
			t.Errorf("format %q", v.Format)
		}
		if v.Slope != s.slope || v.Inter != s.inter {
			t.Errorf("scaling %g, %g, want %g, %g", v.Slope, v.Inter, s.slope, s.inter)
		}
		if v.Spacing != [3]float64{0.5, 1.25, 2} {
			t.Errorf("spacing %v", v.Spacing)
		}
		if v.Affine != want.SformAffine() {
			t.Errorf("affine %v, want the sform %v", v.Affine, want.SformAffine())
		}
		got := v.Header.(*Header)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("header\n got %+v\nwant %+v", got, want)
		}
		exts, err := got.ParseExtensions()
		if err != nil {
			t.Fatal(err)
		}
		if s.extender && (len(exts) != 2 || exts[1].Code != 6 || string(exts[1].Data[:2]) != "hi") {
			t.Fatalf("extensions %+v", exts)
		}
		if len(v.Frames) > 1 {
			a := v.Frames[0].Data
			b := v.Frames[1].Data
			if reflect.ValueOf(a).Pointer()+uintptr(f.Bytes()) != reflect.ValueOf(b).Pointer() {
				t.Error("frames are not slices of one buffer")
			}
		}
	}
}

// TestNIfTIHeaderOffsets decodes headers laid out byte by byte from the
// offsets of nifti1.h and nifti2.h, independently of the encoder.
func TestNIfTIHeaderOffsets(t *testing.T) {
	for _, big := range []bool{false, true} {
		var o binary.ByteOrder = binary.LittleEndian
		if big {
			o = binary.BigEndian
		}
		b := make([]byte, 352)
		o.PutUint32(b[0:], 348)
		b[39] = 7
		for i, d := range []int16{4, 3, 2, 2, 2, 1, 1, 1} {
			o.PutUint16(b[40+2*i:], uint16(d))
		}
		o.PutUint16(b[68:], 1002)
		o.PutUint16(b[70:], 512)
		o.PutUint16(b[72:], 16)
		for i, p := range []float32{-1, 2, 3, 4, 5, 1, 1, 1} {
			o.PutUint32(b[76+4*i:], math.Float32bits(p))
		}
		o.PutUint32(b[108:], math.Float32bits(352))
		o.PutUint32(b[112:], math.Float32bits(2))
		o.PutUint32(b[116:], math.Float32bits(-1))
		b[123] = 10
		o.PutUint32(b[124:], math.Float32bits(9))
		copy(b[148:], "descrip")
		copy(b[228:], "aux")
		o.PutUint16(b[252:], 1)
		o.PutUint16(b[254:], 4)
		o.PutUint32(b[268:], math.Float32bits(11))
		o.PutUint32(b[292:], math.Float32bits(11))
		o.PutUint32(b[308:], math.Float32bits(-126))
		o.PutUint32(b[320:], math.Float32bits(3.5))
		copy(b[328:], "intent")
		copy(b[344:], "n+1\x00")
		data := append(b, make([]byte, 3*2*2*2*2)...)
		v, err := Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		h := v.Header.(*Header)
		want := Header{
			Version: 1, BigEndian: big, Dim: [8]int64{4, 3, 2, 2, 2, 1, 1, 1}, Pixdim: [8]float64{-1, 2, 3, 4, 5, 1, 1, 1},
			XYZTUnits: 10, Datatype: 512, Bitpix: 16, VoxOffset: 352, SclSlope: 2, SclInter: -1, CalMax: 9,
			IntentCode: 1002, IntentName: "intent", DimInfo: 7, QformCode: 1, SformCode: 4, QOffsetX: 11,
			SrowX: [4]float64{0, 0, 0, 11}, SrowY: [4]float64{0, 0, 0, -126}, SrowZ: [4]float64{0, 0, 3.5, 0},
			Descrip: "descrip", AuxFile: "aux",
		}
		if !reflect.DeepEqual(*h, want) {
			t.Fatalf("NIfTI-1 big=%v:\n got %+v\nwant %+v", big, *h, want)
		}
		if len(v.Frames) != 2 || v.Frames[0].Kind != imagegraph.Uint16 {
			t.Fatalf("frames %d kind %v", len(v.Frames), v.Frames[0].Kind)
		}

		b = make([]byte, 544)
		o.PutUint32(b[0:], 540)
		copy(b[4:], "n+2\x00\r\n\x1a\n")
		o.PutUint16(b[12:], 16)
		o.PutUint16(b[14:], 32)
		for i, d := range []int64{3, 2, 2, 2, 1, 1, 1, 1} {
			o.PutUint64(b[16+8*i:], uint64(d))
		}
		for i, p := range []float64{1, 0.1, 0.2, 0.3, 0, 0, 0, 0} {
			o.PutUint64(b[104+8*i:], math.Float64bits(p))
		}
		o.PutUint64(b[168:], 544)
		o.PutUint64(b[176:], math.Float64bits(0))
		copy(b[240:], "two")
		o.PutUint32(b[344:], 2)
		o.PutUint32(b[348:], 0)
		o.PutUint64(b[352:], math.Float64bits(0.5))
		o.PutUint64(b[376:], math.Float64bits(-7))
		o.PutUint64(b[400:], math.Float64bits(0.1))
		o.PutUint32(b[500:], 2)
		o.PutUint32(b[504:], 5)
		b[524] = 3
		data = append(b, make([]byte, 8*4)...)
		v, err = Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		h = v.Header.(*Header)
		want = Header{
			Version: 2, BigEndian: big, Dim: [8]int64{3, 2, 2, 2, 1, 1, 1, 1}, Pixdim: [8]float64{1, 0.1, 0.2, 0.3},
			XYZTUnits: 2, Datatype: 16, Bitpix: 32, VoxOffset: 544, IntentCode: 5, DimInfo: 3,
			QformCode: 2, QuaternB: 0.5, QOffsetX: -7, SrowX: [4]float64{0.1}, Descrip: "two",
		}
		if !reflect.DeepEqual(*h, want) {
			t.Fatalf("NIfTI-2 big=%v:\n got %+v\nwant %+v", big, *h, want)
		}
		if v.Slope != 1 || v.Inter != 0 {
			t.Errorf("slope 0 gives scaling %g, %g, want 1, 0", v.Slope, v.Inter)
		}
	}
}

// TestNIfTIScaling checks the rules for scl_slope and scl_inter.
func TestNIfTIScaling(t *testing.T) {
	for _, c := range []struct{ slope, inter, wantSlope, wantInter float64 }{
		{0, 5, 1, 0},
		{math.NaN(), 5, 1, 0},
		{math.Inf(1), 5, 1, 0},
		{2, math.NaN(), 2, 0},
		{-0.5, 100, -0.5, 100},
		{1, 0, 1, 0},
	} {
		h := &Header{SclSlope: c.slope, SclInter: c.inter}
		if s, i := h.scaling(); s != c.wantSlope || i != c.wantInter {
			t.Errorf("slope %g inter %g: got %g, %g, want %g, %g", c.slope, c.inter, s, i, c.wantSlope, c.wantInter)
		}
	}
}

// TestNIfTIAffineChoice checks sform, then qform, then nibabel's base
// affine, against values nibabel 5.0 gives for the same headers.
func TestNIfTIAffineChoice(t *testing.T) {
	h := &Header{
		Dim: [8]int64{3, 4, 5, 6, 1, 1, 1, 1}, Pixdim: [8]float64{-1, 2, -3, 0, 1, 1, 1, 1},
		QuaternB: float64(float32(0.1)), QuaternC: float64(float32(0.2)), QuaternD: float64(float32(0.3)),
		QOffsetX: 1, QOffsetY: 2, QOffsetZ: 3,
		SrowX: [4]float64{1, 2, 3, 4}, SrowY: [4]float64{5, 6, 7, 8}, SrowZ: [4]float64{9, 10, 11, 12},
	}
	// nibabel: pixdim (2, 3, 0) is fixed to (2, 3, 1); the centre voxel
	// (1.5, 2, 2.5) maps to the origin; x is flipped.
	base := [3][4]float64{{-2, 0, 0, 3}, {0, 3, 0, -6}, {0, 0, 1, -2.5}}
	if got := h.Affine(); got != base {
		t.Errorf("codes 0: affine %v, want %v", got, base)
	}
	h.SformCode = 6 // not a code: nibabel resets it to 0
	if got := h.Affine(); got != base {
		t.Errorf("sform_code 6: affine %v, want %v", got, base)
	}
	h.QformCode = 1
	// nibabel 5.0: a Nifti1Header with these fields, loaded from its
	// bytes, then get_best_affine().
	qform := [3][4]float64{
		{1.4799999666213983, -1.5492513835553647, -0.43094474676166405, 1},
		{1.1928342604719482, 2.3999999552965154, 0.06547236518519328, 2},
		{-0.6218894804103061, 0.9164171348946458, -0.8999999970197677, 3},
	}
	if got := h.Affine(); !niftiSameAffine(got, qform, 1e-12) {
		t.Errorf("qform: affine %v, want %v", got, qform)
	}
	h.SformCode = 3
	if got := h.Affine(); got != h.SformAffine() {
		t.Errorf("sform: affine %v", got)
	}
	twoD := &Header{Dim: [8]int64{2, 10, 20, 1, 1, 1, 1, 1}, Pixdim: [8]float64{1, 0.5, 0.25, 0}}
	want2D := [3][4]float64{{-0.5, 0, 0, 2.25}, {0, 0.25, 0, -2.375}, {0, 0, 1, 0}}
	if got := twoD.Affine(); got != want2D {
		t.Errorf("2D base affine %v, want %v", got, want2D)
	}
}

// TestNIfTIQformFromAffine decomposes affines with and without a
// reflection and rebuilds them through QformAffine.
func TestNIfTIQformFromAffine(t *testing.T) {
	c, s := math.Cos(0.3), math.Sin(0.3)
	for _, a := range [][3][4]float64{
		{{-1, 0, 0, 90}, {0, 1, 0, -126}, {0, 0, 1, -72}},
		{{2 * c, -3 * s, 0, 1}, {2 * s, 3 * c, 0, 2}, {0, 0, 4, 3}},
		{{2 * c, -3 * s, 0, 1}, {2 * s, 3 * c, 0, 2}, {0, 0, -4, 3}},
		{{0, 0, 1.5, 1}, {-1, 0, 0, 2}, {0, 1, 0, 3}},
		{{-1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, 1, 0}},
	} {
		b, cc, d, zooms, qfac, ok := niftiQformFromAffine(a)
		if !ok {
			t.Fatalf("%v: no qform", a)
		}
		h := &Header{QuaternB: b, QuaternC: cc, QuaternD: d, QOffsetX: a[0][3], QOffsetY: a[1][3], QOffsetZ: a[2][3]}
		h.Pixdim = [8]float64{qfac, zooms[0], zooms[1], zooms[2]}
		if got := h.QformAffine(); !niftiSameAffine(got, a, 1e-12) {
			t.Errorf("qform of %v rebuilds %v", a, got)
		}
	}
	if _, _, _, _, _, ok := niftiQformFromAffine([3][4]float64{{1, 1, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}); ok {
		t.Error("sheared affine has a qform")
	}
}

// TestNIfTIPairs reads .hdr/.img pairs, plain and gzipped, by either name.
func TestNIfTIPairs(t *testing.T) {
	for _, version := range []int{1, 2} {
		for _, names := range [][2]string{{"a.hdr", "a.img"}, {"b.hdr.gz", "b.img.gz"}, {"c.hdr", "c.img.gz"}, {"D.HDR", "D.IMG"}} {
			dir := t.TempDir()
			s := niftiSpec{version: version, bigEndian: version == 2, datatype: 4, dims: []int{4, 3, 2}, slope: 1}
			h := niftiSpecHeader(s)
			h.Pair = true
			h.VoxOffset = 16
			h.Extender[0] = 1
			h.Extensions = []byte{16, 0, 0, 0, 0, 0, 0, 4, 'x', 0, 0, 0, 0, 0, 0, 0}
			head, err := h.encode(binary.BigEndian)
			if version == 1 {
				head, err = h.encode(binary.LittleEndian)
			}
			if err != nil {
				t.Fatal(err)
			}
			samples := niftiSamples(4, 24).([]int16)
			var img bytes.Buffer
			img.Write(make([]byte, 16))
			binary.Write(&img, h.byteOrder(), samples)
			hdrBytes, imgBytes := append(head, h.Extensions...), img.Bytes()
			if filepath.Ext(names[0]) == ".gz" {
				hdrBytes = niftiGzip(t, hdrBytes)
			}
			if filepath.Ext(names[1]) == ".gz" {
				imgBytes = niftiGzip(t, imgBytes)
			}
			writeNIfTITestFile(t, filepath.Join(dir, names[0]), hdrBytes)
			writeNIfTITestFile(t, filepath.Join(dir, names[1]), imgBytes)
			for _, name := range names {
				v, err := ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got := v.Frames[0].Data.(imagegraph.Samples[int16]); !reflect.DeepEqual([]int16(got), samples) {
					t.Fatalf("%s: samples differ", name)
				}
				if got := v.Header.(*Header); !reflect.DeepEqual(got, h) {
					t.Fatalf("%s: header\n got %+v\nwant %+v", name, got, h)
				}
			}
			// The header of a pair is not a .nii.
			_, err = Read(bytes.NewReader(append(head, imgBytes...)), -1)
			niftiWantError(t, err, "nifti: ", "pair", "ni"+fmt.Sprint(version))
			// Half a pair.
			os.Remove(filepath.Join(dir, names[1]))
			_, err = ReadFile(filepath.Join(dir, names[0]))
			niftiWantError(t, err, "formats: "+filepath.Join(dir, names[0])+": nifti: ", "no .")
		}
	}
}

// TestNIfTIPairTruncated checks a .img shorter than the header says.
func TestNIfTIPairTruncated(t *testing.T) {
	dir := t.TempDir()
	h := niftiSpecHeader(niftiSpec{version: 1, datatype: 2, dims: []int{10, 10, 10}})
	h.Pair, h.VoxOffset = true, 0
	head, _ := h.encode(binary.LittleEndian)
	writeNIfTITestFile(t, filepath.Join(dir, "t.hdr"), head[:348])
	writeNIfTITestFile(t, filepath.Join(dir, "t.img"), make([]byte, 999))
	_, err := ReadFile(filepath.Join(dir, "t.hdr"))
	niftiWantError(t, err, "formats: ", "t.img", "need 1000 bytes", "has 999")
	writeNIfTITestFile(t, filepath.Join(dir, "u.hdr"), head[:348])
	writeNIfTITestFile(t, filepath.Join(dir, "u.img.gz"), niftiGzip(t, make([]byte, 999)))
	_, err = ReadFile(filepath.Join(dir, "u.img.gz"))
	niftiWantError(t, err, "formats: ", "u.img.gz", "truncated")
}
