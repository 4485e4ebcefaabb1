package nrrd

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// TestNRRDReadAhead reads gzip data large enough to be decompressed ahead
// on another goroutine: attached, with skips, in several detached files
// and in several gzip members; then damaged. The samples are those of the
// raw encoding and the errors those of reading without read-ahead.
func TestNRRDReadAhead(t *testing.T) {
	const w, h, d = 1500, 1500, 2 // 8.6 MiB of int16
	rng := rand.New(rand.NewPCG(1, 2))
	le := make([]byte, 2*w*h*d)
	for i := range le {
		le[i] = byte(rng.IntN(4))
	}
	if len(le)/2 < nrrdReadAheadMin {
		t.Fatal("too small for read-ahead in two parts")
	}
	header := func(encoding, extra string) string {
		return fmt.Sprintf("NRRD0004\ntype: short\ndimension: 3\nsizes: %d %d %d\nendian: little\nencoding: %s\n%s", w, h, d, encoding, extra)
	}
	want, err := readNRRDBytes([]byte(header("raw", "") + "\n" + string(le)))
	if err != nil {
		t.Fatal(err)
	}
	gz := fastGzip(t, le)
	members := append(fastGzip(t, le[:len(le)/3]), fastGzip(t, le[len(le)/3:])...)
	skipped := fastGzip(t, append([]byte("line one\nline two\n0123456789"), le...))
	for name, data := range map[string][]byte{
		"attached": []byte(header("gzip", "") + "\n" + string(gz)),
		"members":  []byte(header("gzip", "") + "\n" + string(members)),
		"skips":    []byte(header("gzip", "byte skip: 28\n") + "\n" + string(skipped)),
	} {
		got, err := readNRRDBytes(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Frames, want.Frames) {
			t.Fatalf("%s: samples differ", name)
		}
	}
	dir := t.TempDir()
	for i, part := range [][]byte{le[:len(le)/2], le[len(le)/2:]} {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.raw.gz", i)), fastGzip(t, part), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nhdr := filepath.Join(dir, "v.nhdr")
	if err := os.WriteFile(nhdr, []byte(header("gzip", "data file: p%d.raw.gz 0 1 1 2\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(nhdr); err != nil || !reflect.DeepEqual(got.Frames, want.Frames) {
		t.Fatalf("detached parts: %v", err)
	}

	badCRC := slices.Clone(gz)
	badCRC[len(badCRC)-6] ^= 0xff
	cut := gz[:len(gz)/2]
	z, _ := gzip.NewReader(bytes.NewReader(cut))
	var held bytes.Buffer
	held.ReadFrom(z)
	for _, tc := range []struct {
		name  string
		data  []byte
		parts []string
	}{
		{"truncated", cut, []string{fmt.Sprintf("gzip data ends after %d of %d bytes", held.Len(), len(le))}},
		{"trailer cut", gz[:len(gz)-3], []string{"end of the compressed stream is missing"}},
		{"checksum", badCRC, []string{"checksum mismatch"}},
		{"too long", fastGzip(t, append(slices.Clone(le), 1)), []string{fmt.Sprintf("holds more than the %d bytes", len(le))}},
	} {
		_, err := readNRRDBytes([]byte(header("gzip", "") + "\n" + string(tc.data)))
		if err == nil {
			t.Fatalf("%s: no error", tc.name)
		}
		for _, p := range tc.parts {
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("%s: error %q does not contain %q", tc.name, err, p)
			}
		}
	}
}

// fastGzip compresses data at gzip's best speed.
func fastGzip(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	z.Write(data)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
