package nifti

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// niftiLie is a header that lies, and what the error must say for plain
// and gzipped input with the size known and unknown ("" means as known).
type niftiLie struct {
	name                    string
	version                 int
	edit                    func(h *Header)
	raw                     func(b []byte) // edits the encoded bytes instead
	known, unknown, gzKnown string
}

// TestNIfTIHeaderLies checks that lying headers give one-line errors
// without large allocations.
func TestNIfTIHeaderLies(t *testing.T) {
	lies := []niftiLie{
		{name: "dims overflow", edit: func(h *Header) { h.Dim = [8]int64{3, 32767, 32767, 32767, 1, 1, 1, 1} },
			known: "voxels per frame exceed 1099511627776"},
		{name: "dims overflow int64", version: 2, edit: func(h *Header) { h.Dim = [8]int64{3, 1 << 40, 1 << 40, 1 << 40, 1, 1, 1, 1} },
			known: "dim[1] = 1099511627776 exceeds"},
		{name: "dims product overflows int64", version: 2, edit: func(h *Header) {
			h.Dim = [8]int64{3, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1, 1, 1, 1}
		}, known: "2147483647x2147483647x2147483647 voxels per frame exceed"},
		{name: "frames overflow", version: 2, edit: func(h *Header) {
			h.Dim = [8]int64{4, 1024, 1024, 1024, 9, 1, 1, 1}
			h.Datatype, h.Bitpix = 64, 64
		}, known: "exceed the 64 GiB limit"},
		{name: "dims exceed file", edit: func(h *Header) { h.Dim = [8]int64{3, 1000, 1000, 100, 1, 1, 1, 1} },
			known: "need 100000000 bytes at offset 352, the file has", unknown: "data truncated: 64 of 100000000 bytes",
			gzKnown: "more than the compressed input can hold"},
		{name: "frames exceed file", version: 2, edit: func(h *Header) { h.Dim = [8]int64{4, 4, 4, 4, 30000, 1, 1, 1} },
			known: "4x4x4x30000 uint8 samples need 1920000 bytes", unknown: "data truncated",
			gzKnown: "more than the compressed input can hold"},
		{name: "vox_offset past end", edit: func(h *Header) { h.VoxOffset = 1 << 22 },
			known: "vox_offset 4194304 is past the end of the", unknown: "truncated in the 4193952 bytes before the samples",
			gzKnown: "more than the compressed input can hold"},
		{name: "vox_offset inside header", version: 2, edit: func(h *Header) { h.VoxOffset = 540 },
			known: "vox_offset 540 is inside the 544-byte header and extender"},
		{name: "vox_offset fraction", raw: func(b []byte) { binary.LittleEndian.PutUint32(b[108:], math.Float32bits(352.5)) },
			known: "vox_offset 352.5 is not a whole number"},
		{name: "vox_offset negative", version: 2, edit: func(h *Header) { h.VoxOffset = -8 },
			known: "vox_offset -8 is negative"},
		{name: "complex", edit: func(h *Header) { h.Datatype, h.Bitpix = 32, 64 },
			known: "nifti: unsupported datatype 32 (complex64)"},
		{name: "rgb", version: 2, edit: func(h *Header) { h.Datatype, h.Bitpix = 128, 24 },
			known: "nifti: unsupported datatype 128 (rgb24)"},
		{name: "unknown datatype", edit: func(h *Header) { h.Datatype = 3 },
			known: "unsupported datatype 3 (not a NIfTI type)"},
		{name: "bitpix", edit: func(h *Header) { h.Bitpix = 16 },
			known: "bitpix 16 does not match datatype 2 (uint8, 8 bits)"},
		{name: "dim0 zero", edit: func(h *Header) { h.Dim[0] = 0 }, known: "dim[0] = 0"},
		{name: "dim0 eight", edit: func(h *Header) { h.Dim[0] = 8 }, known: "dim[0] = 8"},
		{name: "negative dim", edit: func(h *Header) { h.Dim[2] = -4 }, known: "dim[2] = -4"},
		{name: "zero dim", version: 2, edit: func(h *Header) { h.Dim[3] = 0 }, known: "dim[3] = 0"},
		{name: "five dims", edit: func(h *Header) { h.Dim[0], h.Dim[5] = 5, 2 }, known: "dim[5] = 2: data of more than 4 dimensions"},
		{name: "magic", raw: func(b []byte) { copy(b[344:], "xyz\x00") }, known: "bad NIfTI-1 magic"},
		{name: "analyze", raw: func(b []byte) { copy(b[344:], "\x00\x00\x00\x00") }, known: "ANALYZE 7.5 is not supported"},
		{name: "magic2", version: 2, raw: func(b []byte) { copy(b[4:], "n+2\x00\n\n\x1a\n") }, known: "line-ending"},
		{name: "sizeof_hdr", raw: func(b []byte) { b[0] = 77 }, known: "not a NIfTI file (sizeof_hdr 333"},
		{name: "short header", raw: func(b []byte) {}, known: "truncated NIfTI-1 header"},
	}
	for _, lie := range lies {
		t.Run(lie.name, func(t *testing.T) {
			version := max(lie.version, 1)
			data, h, _ := niftiBuild(t, niftiSpec{version: version, datatype: 2, dims: []int{4, 4, 4}})
			if lie.edit != nil {
				lie.edit(h)
				head, err := h.encode(binary.LittleEndian)
				if err != nil {
					t.Fatal(err)
				}
				data = append(head, data[len(head):]...)
			}
			if lie.raw != nil {
				lie.raw(data)
			}
			if lie.name == "short header" {
				data = data[:200]
			}
			if len(data) > 700 {
				t.Fatalf("test file of %d bytes", len(data))
			}
			gz := niftiGzip(t, data)
			for _, c := range []struct {
				data []byte
				size int64
				want string
			}{
				{data, int64(len(data)), lie.known},
				{data, -1, niftiOr(lie.unknown, lie.known)},
				{gz, int64(len(gz)), niftiOr(lie.gzKnown, lie.unknown, lie.known)},
				{gz, -1, niftiOr(lie.unknown, lie.known)},
			} {
				var err error
				alloc := niftiAllocated(func() { _, err = Read(bytes.NewReader(c.data), c.size) })
				niftiWantError(t, err, "nifti: ", c.want)
				if alloc > 10<<20 {
					t.Errorf("size %d: allocated %d bytes", c.size, alloc)
				}
			}
		})
	}
}

// niftiOr returns the first non-empty string.
func niftiOr(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// TestNIfTIBadGzip checks truncated and corrupt gzip streams.
func TestNIfTIBadGzip(t *testing.T) {
	data, _, _ := niftiBuild(t, niftiSpec{version: 1, datatype: 16, dims: []int{40, 30, 20}, gz: true})
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"header cut", data[:5], "gzip stream truncated in its header"},
		{"half", data[:len(data)/2], "truncated"},
		{"trailer cut", data[:len(data)-4], "gzip stream truncated after the samples"},
		{"checksum", niftiFlip(data, len(data)-6), "gzip checksum mismatch"},
		{"corrupt", niftiFlip(niftiFlip(data, 30), 31), "nifti: "},
	} {
		for _, size := range []int64{int64(len(c.data)), -1} {
			_, err := Read(bytes.NewReader(c.data), size)
			niftiWantError(t, err, "nifti: ", c.want)
		}
	}
	// Trailing bytes that are not gzip are ignored, as are extra bytes
	// after the samples of a plain file.
	if _, err := Read(bytes.NewReader(append(data, "junk"...)), -1); err != nil {
		t.Errorf("trailing junk: %v", err)
	}
	plain, _, _ := niftiBuild(t, niftiSpec{version: 2, datatype: 2, dims: []int{3, 3}})
	plain = append(plain, 1, 2, 3)
	if _, err := Read(bytes.NewReader(plain), int64(len(plain))); err != nil {
		t.Errorf("trailing bytes: %v", err)
	}
	_, err := Read(bytes.NewReader(nil), 0)
	niftiWantError(t, err, "nifti: ", "input too short for a NIfTI header")
}

// TestNIfTIGzipMembers reads a file gzipped as several members, as pigz
// and concatenation make them.
func TestNIfTIGzipMembers(t *testing.T) {
	plain, _, samples := niftiBuild(t, niftiSpec{version: 1, datatype: 4, dims: []int{30, 20, 10}})
	var members []byte
	for lo := 0; lo < len(plain); lo += 1000 {
		members = append(members, niftiGzip(t, plain[lo:min(lo+1000, len(plain))])...)
	}
	for _, size := range []int64{int64(len(members)), -1} {
		v, err := Read(bytes.NewReader(members), size)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Frames[0].Data.(imagegraph.Samples[int16]); !slices.Equal(got, samples.([]int16)) {
			t.Fatal("samples differ")
		}
	}
	first := niftiGzip(t, plain[:1000])
	broken := append(append(bytes.Clone(first), "junk junk junk"...), niftiGzip(t, plain[1000:])...)
	_, err := Read(bytes.NewReader(broken), -1)
	niftiWantError(t, err, "nifti: ", "corrupt gzip stream")
}

// niftiFlip returns data with byte i inverted.
func niftiFlip(data []byte, i int) []byte {
	out := bytes.Clone(data)
	out[i] ^= 0xff
	return out
}

// TestNIfTIFileErrors checks the path in errors of ReadFile.
func TestNIfTIFileErrors(t *testing.T) {
	_, err := ReadFile("no/such/file.nii")
	niftiWantError(t, err, "formats: ", "no/such/file.nii")
	data, _, _ := niftiBuild(t, niftiSpec{version: 1, datatype: 2, dims: []int{4, 4, 4}})
	path := t.TempDir() + "/bad.nii"
	writeNIfTITestFile(t, path, data[:400])
	_, err = ReadFile(path)
	niftiWantError(t, err, "formats: "+path+": nifti: ", "the file has 400")
}
