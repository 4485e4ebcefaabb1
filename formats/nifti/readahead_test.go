package nifti

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// TestNIfTIReadAhead reads gzipped volumes large enough for the samples
// to be decompressed ahead on another goroutine: whole, in two gzip
// members, truncated and with a bad checksum, with the size known and
// unknown; the samples and errors are those of reading without read-ahead.
func TestNIfTIReadAhead(t *testing.T) {
	for _, tc := range []struct {
		datatype int16
		big      bool
		dims     []int
	}{
		{2, false, []int{256, 128, 140}},
		{4, true, []int{128, 128, 140}},
		{16, false, []int{100, 101, 111}},
	} {
		s := niftiSpec{version: 1, bigEndian: tc.big, datatype: tc.datatype, dims: tc.dims, slope: 1}
		plain, _, samples := niftiBuild(t, s)
		if int64(len(plain)) < niftiReadAheadMin+352 {
			t.Fatalf("%d bytes: too small for read-ahead", len(plain))
		}
		name := fmt.Sprintf("%s/be=%v", niftiDatatypeName(tc.datatype), tc.big)
		whole := niftiGzip(t, plain)
		members := append(niftiGzip(t, plain[:len(plain)/3]), niftiGzip(t, plain[len(plain)/3:])...)
		for _, data := range [][]byte{whole, members} {
			for _, size := range []int64{int64(len(data)), -1} {
				v, err := Read(bytes.NewReader(data), size)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got := niftiConcat(t, v); !reflect.DeepEqual(got, samples) {
					t.Fatalf("%s: samples differ", name)
				}
			}
		}
		// Truncated inside the samples: the message counts the bytes
		// the stream held.
		cut := whole[:len(whole)/2]
		z, _ := gzip.NewReader(bytes.NewReader(cut))
		held, _ := io.Copy(io.Discard, z)
		want := fmt.Sprintf("data truncated: %d of %d bytes of samples present", held-352, len(plain)-352)
		_, err := Read(bytes.NewReader(cut), int64(len(cut)))
		niftiWantError(t, err, "nifti: ", want)
		// A bad checksum after the samples.
		bad := bytes.Clone(whole)
		bad[len(bad)-8] ^= 1
		_, err = Read(bytes.NewReader(bad), -1)
		niftiWantError(t, err, "nifti: ", "gzip checksum mismatch")
		// The trailer cut off.
		_, err = Read(bytes.NewReader(whole[:len(whole)-3]), -1)
		niftiWantError(t, err, "nifti: ", "truncated after the samples")
	}
}
