package nrrd

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/testkit"
)

// nrrdTestValues are the int16 samples of the small synthetic NRRD files:
// a 2x3x4 volume.
func nrrdTestValues() []int16 {
	v := make([]int16, 24)
	for i := range v {
		v[i] = int16(i*37 - 300)
	}
	return v
}

// nrrdTestBZ2 is nrrdTestValues little-endian, compressed with bzip2.
var nrrdTestBZ2, _ = hex.DecodeString("425a68393141592653597aa9ef3e000010756af000000124800920004900024800124004920025a000230ff526a03469ea18350a68d006800075da32f2958c9bd9f5267eda00a00002222412f6579d2b6bbfe2ee48a70a120f553de7c0")

// nrrdInt16Bytes encodes samples in the byte order.
func nrrdInt16Bytes(order binary.AppendByteOrder, vals []int16) []byte {
	var b []byte
	for _, v := range vals {
		b = order.AppendUint16(b, uint16(v))
	}
	return b
}

// nrrdGzip compresses data with gzip.
func nrrdGzip(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write(data)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// nrrdAttached builds an attached NRRD file: magic, the header lines, a
// blank line and data.
func nrrdAttached(fields string, data []byte) []byte {
	return append([]byte("NRRD0004\n"+fields+"\n"), data...)
}

// nrrdInt16Header is the header of the 2x3x4 int16 test volume with the
// given encoding, plus extra fields.
func nrrdInt16Header(encoding, extra string) string {
	return "type: short\ndimension: 3\nsizes: 2 3 4\nendian: little\nencoding: " + encoding + "\n" + extra
}

// readNRRDBytes reads an in-memory attached NRRD file.
func readNRRDBytes(data []byte) (*imagegraph.Volume, error) {
	return readNRRD(bytes.NewReader(data), int64(len(data)), nil, imagegraph.MaxPixels)
}

// nrrdCheckInt16 checks that v is the 2x3x4 test volume.
func nrrdCheckInt16(t *testing.T, v *imagegraph.Volume, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Frames) != 1 {
		t.Fatalf("%d frames", len(v.Frames))
	}
	r := v.Frames[0]
	if r.Width != 2 || r.Height != 3 || r.Depth != 4 || r.Kind != imagegraph.Int16 {
		t.Fatalf("got %dx%dx%d %v", r.Width, r.Height, r.Depth, r.Kind)
	}
	if got := r.Data.([]int16); !slices.Equal(got, nrrdTestValues()) {
		t.Fatalf("samples %v", got)
	}
	if v.Format != "nrrd" || v.Slope != 1 || v.Inter != 0 {
		t.Fatalf("format %q, slope %v, inter %v", v.Format, v.Slope, v.Inter)
	}
	if _, ok := v.Header.(*Header); !ok {
		t.Fatalf("header %T", v.Header)
	}
}

func TestNRRDEncodings(t *testing.T) {
	vals := nrrdTestValues()
	le, be := nrrdInt16Bytes(binary.LittleEndian, vals), nrrdInt16Bytes(binary.BigEndian, vals)
	var text, hexText strings.Builder
	for i, v := range vals {
		fmt.Fprintf(&text, "%d", v)
		text.WriteString([]string{" ", "\n", ", ", "\t"}[i%4])
		fmt.Fprintf(&hexText, "%02x", le[2*i:2*i+2])
		if i%5 == 4 {
			hexText.WriteString("\n ")
		}
	}
	cases := map[string][]byte{
		"raw":             nrrdAttached(nrrdInt16Header("raw", ""), le),
		"raw big":         nrrdAttached(strings.Replace(nrrdInt16Header("raw", ""), "little", "big", 1), be),
		"gzip":            nrrdAttached(nrrdInt16Header("gzip", ""), nrrdGzip(t, le)),
		"gz":              nrrdAttached(nrrdInt16Header("gz", ""), nrrdGzip(t, le)),
		"gzip big":        nrrdAttached(strings.Replace(nrrdInt16Header("gzip", ""), "little", "big", 1), nrrdGzip(t, be)),
		"bzip2":           nrrdAttached(nrrdInt16Header("bzip2", ""), nrrdTestBZ2),
		"bz2":             nrrdAttached(nrrdInt16Header("bz2", ""), nrrdTestBZ2),
		"ascii":           nrrdAttached(nrrdInt16Header("ascii", ""), []byte(text.String())),
		"text no endian":  nrrdAttached("type: int16\ndimension: 3\nsizes: 2 3 4\nencoding: text\n", []byte(text.String())),
		"hex":             nrrdAttached(nrrdInt16Header("hex", ""), []byte(hexText.String())),
		"line skip":       nrrdAttached(nrrdInt16Header("raw", "line skip: 2\n"), append([]byte("junk\nmore junk\n"), le...)),
		"byte skip":       nrrdAttached(nrrdInt16Header("raw", "byte skip: 5\n"), append([]byte("12345"), le...)),
		"byte skip -1":    nrrdAttached(nrrdInt16Header("raw", "byte skip: -1\n"), append([]byte("anything at all"), le...)),
		"lines and bytes": nrrdAttached(nrrdInt16Header("raw", "lineskip: 1\nbyteskip: 3\n"), append([]byte("x\nabc"), le...)),
		"gzip byte skip":  nrrdAttached(nrrdInt16Header("gzip", "byte skip: 3\n"), nrrdGzip(t, append([]byte("abc"), le...))),
		"gzip line skip":  nrrdAttached(nrrdInt16Header("gzip", "line skip: 1\n"), append([]byte("skip me\n"), nrrdGzip(t, le)...)),
		"gzip trailing":   nrrdAttached(nrrdInt16Header("gzip", ""), append(nrrdGzip(t, le), 0, 0, 0)),
		"gzip members":    nrrdAttached(nrrdInt16Header("gzip", ""), append(nrrdGzip(t, le[:10]), nrrdGzip(t, le[10:])...)),
		"comments, pairs": nrrdAttached("# a comment\n"+nrrdInt16Header("raw", "my key:=my: value\ncontent: test\n"), le),
		"CRLF":            []byte(strings.ReplaceAll(string(nrrdAttached(nrrdInt16Header("raw", ""), nil)), "\n", "\r\n") + string(le)),
		"aliases":         nrrdAttached("TYPE: Signed Short Int\ndimension: 3\nsizes: 2 3 4\nendian: LITTLE\nencoding: RAW\n", le),
		"trailing data":   nrrdAttached(nrrdInt16Header("raw", ""), append(slices.Clone(le), "tail"...)),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			v, err := readNRRDBytes(data)
			nrrdCheckInt16(t, v, err)
		})
	}
	h, _ := readNRRDBytes(cases["comments, pairs"])
	fields := h.Header.(*Header).Fields
	if !slices.Contains(fields, Field{Key: "my key", Value: "my: value", Pair: true}) ||
		!slices.Contains(fields, Field{Key: "content", Value: "test"}) {
		t.Errorf("fields %+v", fields)
	}
}

func TestNRRDTypes(t *testing.T) {
	for alias, canonical := range nrrdTypes {
		kind := nrrdKinds[canonical]
		one := make([]byte, kind.Size())
		switch kind {
		case imagegraph.Float32:
			binary.BigEndian.PutUint32(one, math.Float32bits(-2.5))
		case imagegraph.Float64:
			binary.BigEndian.PutUint64(one, math.Float64bits(-2.5))
		default:
			one[len(one)-1] = 7
		}
		data := append(slices.Clone(one), make([]byte, 5*kind.Size())...)
		v, err := readNRRDBytes(nrrdAttached("type: "+alias+"\ndimension: 2\nsizes: 3 2\nendian: big\nencoding: raw\n", data))
		if err != nil {
			t.Errorf("%s: %v", alias, err)
			continue
		}
		r := v.Frames[0]
		want := 7.0
		if kind == imagegraph.Float32 || kind == imagegraph.Float64 {
			want = -2.5
		}
		if r.Kind != kind || r.Width != 3 || r.Height != 2 || r.Depth != 1 || r.Value(0) != want || r.Value(1) != 0 {
			t.Errorf("%s: %v %dx%dx%d, first %v", alias, r.Kind, r.Width, r.Height, r.Depth, r.Value(0))
		}
		if h := v.Header.(*Header); h.Type != canonical || h.Kind != kind {
			t.Errorf("%s: header type %q kind %v", alias, h.Type, h.Kind)
		}
	}
}

func TestNRRDFrames(t *testing.T) {
	vals := nrrdTestValues()
	data := nrrdInt16Bytes(binary.LittleEndian, vals)
	v, err := readNRRDBytes(nrrdAttached("type: short\ndimension: 4\nsizes: 2 3 2 2\nendian: little\nencoding: raw\n"+
		"space: RAS\nspace directions: (2,0,0) (0,3,0) (0,0,4) none\nkinds: domain domain domain list\n", data))
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Frames) != 2 {
		t.Fatalf("%d frames", len(v.Frames))
	}
	for k, r := range v.Frames {
		if r.Width != 2 || r.Height != 3 || r.Depth != 2 || !slices.Equal(r.Data.([]int16), vals[12*k:12*k+12]) {
			t.Errorf("frame %d: %dx%dx%d %v", k, r.Width, r.Height, r.Depth, r.Data)
		}
	}
	if v.Spacing != [3]float64{2, 3, 4} {
		t.Errorf("spacing %v", v.Spacing)
	}
}

func TestNRRDGeometry(t *testing.T) {
	le := nrrdInt16Bytes(binary.LittleEndian, nrrdTestValues())
	cases := []struct {
		name, fields string
		spacing      [3]float64
		affine       [3][4]float64
	}{
		{"none", "", [3]float64{1, 1, 1}, imagegraph.IdentityAffine([3]float64{1, 1, 1})},
		{"spacings", "spacings: 0.5 nan -3\n", [3]float64{0.5, 1, 3}, imagegraph.IdentityAffine([3]float64{0.5, 1, 3})},
		{"oblique", "space: left-posterior-superior\nspace directions: (0,-3,4) (1.5,0,0) (0,0,-2)\nspace origin: (10,-20,30.5)\n",
			[3]float64{5, 1.5, 2}, [3][4]float64{{0, 1.5, 0, 10}, {-3, 0, 0, -20}, {4, 0, -2, 30.5}}},
		{"space dimension", "space dimension: 3\nspace directions: ( 2 , 0 , 0 ) (0,2,0) (0,0,2)\n",
			[3]float64{2, 2, 2}, imagegraph.IdentityAffine([3]float64{2, 2, 2})},
		{"time space", "space: scanner-xyz-time\nspace directions: (1,0,0,0) (0,1,0,0) (0,0,1,0)\nspace origin: (1,2,3,4)\n",
			[3]float64{1, 1, 1}, [3][4]float64{{1, 0, 0, 1}, {0, 1, 0, 2}, {0, 0, 1, 3}}},
	}
	for _, c := range cases {
		v, err := readNRRDBytes(nrrdAttached(nrrdInt16Header("raw", c.fields), le))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if v.Spacing != c.spacing || v.Affine != c.affine {
			t.Errorf("%s: spacing %v affine %v, want %v %v", c.name, v.Spacing, v.Affine, c.spacing, c.affine)
		}
	}
	path := filepath.Join(testkit.Dir(t), "volumes/pyradiomics_prostate_phantom_subvolume-label.nrrd")
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared data absent")
	}
	v, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := [3][4]float64{{-0.5, 0, 0, 15.683382511138916}, {0, -0.5, 0, 76.535760879516602}, {0, 0, 3, -52.776130676269538}}
	h := v.Header.(*Header)
	if v.Affine != want || v.Spacing != [3]float64{0.5, 0.5, 3} || h.Space != "left-posterior-superior" ||
		!slices.Equal(h.Kinds, []string{"domain", "domain", "domain"}) || h.Encoding != "gzip" || h.Version != 4 {
		t.Errorf("affine %v spacing %v header %+v", v.Affine, v.Spacing, h)
	}
}

func TestNRRDFormatCases(t *testing.T) {
	dir := filepath.Join(testkit.Dir(t), "volumes/pynrrd_format_cases")
	ref, err := ReadFile(filepath.Join(dir, "BallBinary30x30x30.nrrd"))
	if os.IsNotExist(err) || (err != nil && strings.Contains(err.Error(), "no such file")) {
		t.Skip("shared data absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	want := ref.Frames[0].Data.([]int16)
	for _, name := range []string{"BallBinary30x30x30_gz.nrrd", "BallBinary30x30x30_bz2.nrrd",
		"BallBinary30x30x30_gz_lineskip.nrrd", "BallBinary30x30x30.nhdr"} {
		v, err := ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := v.Frames[0].Data.([]int16); !slices.Equal(got, want) || v.Affine != ref.Affine {
			t.Errorf("%s differs from the raw file", name)
		}
	}
	// Truncated compressed data is reported, not taken for zeros.
	for _, name := range []string{"BallBinary30x30x30_gz.nrrd", "BallBinary30x30x30_bz2.nrrd"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		_, err = readNRRDBytes(data[:len(data)-40])
		testkit.WantErrorPrefix(t, err, "nrrd: ", "data")
		t.Logf("%s truncated: %v", name, err)
	}
}

func TestNRRDDetached(t *testing.T) {
	dir := t.TempDir()
	vals := nrrdTestValues()
	le := nrrdInt16Bytes(binary.LittleEndian, vals)
	write := func(name string, data []byte) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("data/vol.raw", le)
	write("data/vol.raw.gz", nrrdGzip(t, le))
	for z := range 4 {
		write(fmt.Sprintf("data/slice%03d.raw", z+1), le[12*z:12*z+12])
	}
	write("data/tiny.raw", le[:5])
	cases := map[string]string{
		"single":      "NRRD0004\n" + nrrdInt16Header("raw", "data file: data/vol.raw\n"),
		"gzip":        "NRRD0004\n" + nrrdInt16Header("gzip", "datafile: ./data/vol.raw.gz\n") + "\n",
		"absolute":    "NRRD0004\n" + nrrdInt16Header("raw", "data file: "+filepath.Join(dir, "data/vol.raw")+"\n"),
		"format":      "NRRD0005\n" + nrrdInt16Header("raw", "data file: data/slice%03d.raw 1 4 1 2\n"),
		"format back": "NRRD0005\n" + nrrdInt16Header("raw", "data file: data/slice%03d.raw 4 1 -1\n"),
		"list":        "NRRD0004\n" + nrrdInt16Header("raw", "data file: LIST\ndata/slice001.raw\ndata/slice002.raw\ndata/slice003.raw\ndata/slice004.raw\n"),
		"list subdim": "NRRD0004\n" + nrrdInt16Header("gzip", "data file: LIST 3\ndata/vol.raw.gz\n"),
	}
	for name, header := range cases {
		path := write(strings.ReplaceAll(name, " ", "_")+".nhdr", []byte(header))
		v, err := ReadFile(path)
		if name == "format back" {
			// Slices in reverse order.
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := v.Frames[0].Data.([]int16)
			if !slices.Equal(got[:6], vals[18:]) || !slices.Equal(got[18:], vals[:6]) {
				t.Errorf("%s: %v", name, got)
			}
			continue
		}
		t.Run(name, func(t *testing.T) { nrrdCheckInt16(t, v, err) })
	}
	h, _ := ReadFile(filepath.Join(dir, "list.nhdr"))
	if got := h.Header.(*Header); got.DataFileDim != 2 || len(got.DataFiles) != 4 || got.DataFiles[3] != "data/slice004.raw" {
		t.Errorf("header %+v", got)
	}
	missing := write("missing.nhdr", []byte("NRRD0004\n"+nrrdInt16Header("raw", "data file: nowhere.raw\n")))
	_, err := ReadFile(missing)
	testkit.WantError(t, err, missing, "nrrd: data file", "nowhere.raw")
	short := write("short.nhdr", []byte("NRRD0004\n"+nrrdInt16Header("raw", "data file: LIST\ndata/slice001.raw\ndata/vol.raw\ndata/slice003.raw\ndata/slice004.raw\n")))
	v, err := ReadFile(short)
	if err != nil {
		// Each file must hold its share exactly as a prefix; more is
		// allowed (trailing data), so this reads.
		t.Fatalf("long data file: %v", err)
	}
	if got := v.Frames[0].Data.([]int16); !slices.Equal(got[6:12], vals[:6]) {
		t.Errorf("second file's share %v", got[6:12])
	}
	short = write("short2.nhdr", []byte("NRRD0004\n"+nrrdInt16Header("raw", "data file: LIST\ndata/slice001.raw\ndata/tiny.raw\n"+
		"data/slice003.raw\ndata/slice004.raw\n")))
	_, err = ReadFile(short)
	testkit.WantError(t, err, "short2.nhdr: nrrd: data file \"data/tiny.raw\": raw data holds 5 bytes, the sizes need 12")
	_, err = readNRRDBytes([]byte(cases["single"]))
	testkit.WantErrorPrefix(t, err, "nrrd: ", "detached data files are not supported here")
}

func TestNRRDErrors(t *testing.T) {
	le := nrrdInt16Bytes(binary.LittleEndian, nrrdTestValues())
	gz := nrrdGzip(t, le)
	badCRC := slices.Clone(gz)
	badCRC[len(badCRC)-6] ^= 0xff
	full := nrrdInt16Header("raw", "")
	cases := []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"empty", nil, []string{"bad magic"}},
		{"bad magic", []byte("NRRD0009\ntype: short\n"), []string{"bad magic \"NRRD0009\""}},
		{"not nrrd", []byte("P5\n3 2\n255\n"), []string{"not a NRRD file"}},
		{"no type", nrrdAttached(strings.Replace(full, "type: short\n", "", 1), le), []string{"missing field \"type\""}},
		{"no dimension", nrrdAttached(strings.Replace(full, "dimension: 3\n", "", 1), le), []string{"missing field \"dimension\""}},
		{"no sizes", nrrdAttached(strings.Replace(full, "sizes: 2 3 4\n", "", 1), le), []string{"missing field \"sizes\""}},
		{"no encoding", nrrdAttached(strings.Replace(full, "encoding: raw\n", "", 1), le), []string{"missing field \"encoding\""}},
		{"no endian", nrrdAttached(strings.Replace(full, "endian: little\n", "", 1), le), []string{"missing field \"endian\"", "short", "raw"}},
		{"unknown type", nrrdAttached(strings.Replace(full, "short", "quad", 1), le), []string{"unknown type \"quad\""}},
		{"block", nrrdAttached(strings.Replace(full, "short", "block", 1), le), []string{"type \"block\" is not supported"}},
		{"unknown encoding", nrrdAttached(nrrdInt16Header("zrl", ""), le), []string{"unsupported encoding \"zrl\""}},
		{"bad endian", nrrdAttached(strings.Replace(full, "little", "middle", 1), le), []string{"\"endian\"", "middle"}},
		{"sizes count", nrrdAttached(strings.Replace(full, "2 3 4", "2 3", 1), le), []string{"\"sizes\" has 2 entries for dimension 3"}},
		{"zero size", nrrdAttached(strings.Replace(full, "2 3 4", "2 0 4", 1), le), []string{"\"sizes\"", "\"0\""}},
		{"huge size", nrrdAttached(strings.Replace(full, "2 3 4", "2 3 4294967296", 1), le), []string{"\"sizes\"", "4294967296"}},
		{"size overflow", nrrdAttached(strings.Replace(full, "2 3 4", "2000000000 2000000000 2000000000", 1), le), []string{"hold more than 2147483647 samples"}},
		{"4-D overflow", nrrdAttached(strings.Replace(strings.Replace(full, "2 3 4", "1000 1000 1000 1000", 1), "dimension: 3", "dimension: 4", 1), le), []string{"hold more than"}},
		{"dimension 1", nrrdAttached(strings.Replace(strings.Replace(full, "2 3 4", "24", 1), "dimension: 3", "dimension: 1", 1), le), []string{"dimension 1: want 2, 3 or 4"}},
		{"dimension 5", nrrdAttached(strings.Replace(strings.Replace(full, "2 3 4", "2 3 2 2 1", 1), "dimension: 3", "dimension: 5", 1), le), []string{"dimension 5"}},
		{"dimension 0", nrrdAttached(strings.Replace(full, "dimension: 3", "dimension: 0", 1), le), []string{"\"dimension\""}},
		{"vector axis", nrrdAttached(nrrdInt16Header("raw", "kinds: RGB-color domain domain\n"), le), []string{"kind \"RGB-color\""}},
		{"short raw", nrrdAttached(full, le[:10]), []string{"raw data holds 10 bytes, the sizes need 48"}},
		{"short raw skip", nrrdAttached(nrrdInt16Header("raw", "byte skip: 40\n"), le), []string{"raw data holds 8 bytes"}},
		{"huge byte skip", nrrdAttached(nrrdInt16Header("raw", "byte skip: 9223372036854775807\n"), le), []string{"raw data holds 0 bytes"}},
		{"short raw end", nrrdAttached(nrrdInt16Header("raw", "byte skip: -1\n"), le[:30]), []string{"raw data holds"}},
		{"bad byte skip", nrrdAttached(nrrdInt16Header("raw", "byte skip: -2\n"), le), []string{"\"byte skip\"", "-2"}},
		{"byte skip -1 gzip", nrrdAttached(nrrdInt16Header("gzip", "byte skip: -1\n"), gz), []string{"needs raw encoding"}},
		{"line skip past end", nrrdAttached(nrrdInt16Header("raw", "line skip: 3\n"), []byte("a\nb\n")), []string{"\"line skip: 3\" but the data holds only 2 lines"}},
		{"truncated gzip", nrrdAttached(nrrdInt16Header("gzip", ""), gz[:len(gz)/2]), []string{"gzip data ends after", "of 48 bytes", "truncated"}},
		{"gzip trailer cut", nrrdAttached(nrrdInt16Header("gzip", ""), gz[:len(gz)-3]), []string{"end of the compressed stream is missing"}},
		{"gzip header only", nrrdAttached(nrrdInt16Header("gzip", ""), gz[:5]), []string{"gzip data ends after 0 of 48 bytes"}},
		{"no gzip", nrrdAttached(nrrdInt16Header("gzip", ""), le), []string{"not gzip data"}},
		{"gzip checksum", nrrdAttached(nrrdInt16Header("gzip", ""), badCRC), []string{"checksum mismatch"}},
		{"gzip too long", nrrdAttached(nrrdInt16Header("gzip", ""), nrrdGzip(t, append(slices.Clone(le), 1))), []string{"holds more than the 48 bytes"}},
		{"gzip byte skip past end", nrrdAttached(nrrdInt16Header("gzip", "byte skip: 100\n"), gz), []string{"skips past the end of the data (48 bytes)"}},
		{"truncated bzip2", nrrdAttached(nrrdInt16Header("bzip2", ""), nrrdTestBZ2[:60]), []string{"bzip2 data"}},
		{"damaged bzip2", nrrdAttached(nrrdInt16Header("bzip2", ""), append(slices.Clone(nrrdTestBZ2[:50]), make([]byte, 43)...)), []string{"bzip2 data"}},
		{"ascii short", nrrdAttached(nrrdInt16Header("ascii", ""), []byte("1 2 3\n")), []string{"ascii data holds 3 values, the sizes need 24"}},
		{"ascii long", nrrdAttached(strings.Replace(nrrdInt16Header("ascii", ""), "2 3 4", "2 1 1", 1), []byte("1 2 3\n")), []string{"more than the 2 values"}},
		{"ascii range", nrrdAttached(strings.Replace(nrrdInt16Header("ascii", ""), "2 3 4", "2 1 1", 1), []byte("1 40000")), []string{"\"40000\" is not a valid int16"}},
		{"ascii word", nrrdAttached(strings.Replace(nrrdInt16Header("ascii", ""), "2 3 4", "2 1 1", 1), []byte("1 two")), []string{"\"two\""}},
		{"hex char", nrrdAttached(nrrdInt16Header("hex", ""), []byte("00 1g")), []string{"invalid character 'g'"}},
		{"hex short", nrrdAttached(nrrdInt16Header("hex", ""), []byte("0011223")), []string{"hex data ends after 3 of 48 bytes"}},
		{"no blank line", []byte("NRRD0004\n" + full), []string{"no data", "data file"}},
		{"duplicate", nrrdAttached(full+"sizes: 2 3 4\n", le), []string{"field \"sizes\" given twice"}},
		{"not a field", nrrdAttached(full+"just words\n", le), []string{"header line 7 \"just words\""}},
		{"directions without space", nrrdAttached(nrrdInt16Header("raw", "space directions: (1,0,0) (0,1,0) (0,0,1)\n"), le), []string{"need a \"space\""}},
		{"directions count", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace directions: (1,0,0) (0,1,0)\n"), le), []string{"\"space directions\" has 2 entries"}},
		{"direction size", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace directions: (1,0) (0,1,0) (0,0,1)\n"), le), []string{"has 2 components, the space has 3"}},
		{"direction nan", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace directions: (nan,0,0) (0,1,0) (0,0,1)\n"), le), []string{"\"nan\" is not a finite number"}},
		{"direction word", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace directions: (1,0,0) (0,1,0) up\n"), le), []string{"\"up\" is neither a vector nor none"}},
		{"unclosed", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace directions: (1,0,0) (0,1,0) (0,0,1\n"), le), []string{"closing parenthesis"}},
		{"unknown space", nrrdAttached(nrrdInt16Header("raw", "space: up-down-left\n"), le), []string{"unknown space \"up-down-left\""}},
		{"space contradiction", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace dimension: 2\n"), le), []string{"contradicts"}},
		{"origin two", nrrdAttached(nrrdInt16Header("raw", "space: RAS\nspace origin: (1,2,3) (4,5,6)\n"), le), []string{"must be one vector"}},
		{"spacings count", nrrdAttached(nrrdInt16Header("raw", "spacings: 1 2\n"), le), []string{"\"spacings\" has 2 entries"}},
		{"kinds count", nrrdAttached(nrrdInt16Header("raw", "kinds: domain domain\n"), le), []string{"\"kinds\" has 2 entries"}},
		{"data file count", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: LIST\na\nb\n")), []string{"gives 2 files", "need 4"}},
		{"empty list", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: LIST\n")), []string{"followed by no file names"}},
		{"bad format", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: a%s 1 4 1\n")), []string{"one integer conversion"}},
		{"two verbs", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: a%d%d 1 4 1\n")), []string{"one integer conversion"}},
		{"step 0", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: a%d 1 4 0\n")), []string{"step 0"}},
		{"wrong way", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: a%d 4 1 1\n")), []string{"gives no files or too many"}},
		{"bad subdim", []byte("NRRD0004\n" + nrrdInt16Header("raw", "data file: a%d 1 4 1 9\n")), []string{"<subdim>"}},
		{"long line", append([]byte("NRRD0004\n# "), bytes.Repeat([]byte("x"), nrrdMaxHeaderBytes)...), []string{"header longer than"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readNRRDBytes(c.data)
			testkit.WantErrorPrefix(t, err, "nrrd: ", c.parts...)
			t.Log(err)
		})
	}
}

func TestReadNRRDFileErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.nrrd")
	if err := os.WriteFile(path, nrrdAttached(nrrdInt16Header("raw", ""), []byte{1, 2, 3}), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	testkit.WantError(t, err, "formats: "+path+": nrrd: raw data holds 3 bytes, the sizes need 48")
	_, err = ReadFile(filepath.Join(dir, "absent.nrrd"))
	testkit.WantError(t, err, "absent.nrrd", "no such file")
}
