package fileio

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// toolFiles are testdata/edges.txt compressed by the command-line tools.
var toolFiles = map[Compression]string{
	Gzip: "testdata/edges.txt.gz", XZ: "testdata/edges.txt.xz",
	Zstd: "testdata/edges.txt.zst", Bzip2: "testdata/edges.txt.bz2",
}

func readAll(t *testing.T, data []byte, m Compression) ([]byte, error) {
	t.Helper()
	r, err := NewDecompressor(bytes.NewReader(data), m)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func TestToolFiles(t *testing.T) {
	want, err := os.ReadFile("testdata/edges.txt")
	if err != nil {
		t.Fatal(err)
	}
	for m, path := range toolFiles {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := SniffCompression(data[:SniffBytes]); got != m {
			t.Errorf("%s: Sniff = %v, want %v", path, got, m)
		}
		if got, inner := CompressionFromName(strings.ToUpper(path)); got != m || inner != "TESTDATA/EDGES.TXT" {
			t.Errorf("FromName(%s) = %v, %q", path, got, inner)
		}
		got, err := readAll(t, data, m)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, %v; want %d bytes", path, len(got), err, len(want))
		}
		// Two streams back to back read as their concatenation.
		got, err = readAll(t, append(append([]byte(nil), data...), data...), m)
		if err != nil || !bytes.Equal(got, append(append([]byte(nil), want...), want...)) {
			t.Errorf("%s twice: %d bytes, %v", path, len(got), err)
		}
		// A truncated stream is an error naming the method, never a clean end.
		for _, cut := range []int{len(data) / 2, len(data) - 1} {
			_, err := readAll(t, data[:cut], m)
			if err == nil || !strings.Contains(err.Error(), m.String()) {
				t.Errorf("%s cut to %d bytes: %v", path, cut, err)
			}
		}
		// Another method's data is an error.
		wrong := Gzip
		if m == Gzip {
			wrong = XZ
		}
		if _, err := readAll(t, data, wrong); err == nil || !strings.Contains(err.Error(), wrong.String()) {
			t.Errorf("%s read as %v: %v", path, wrong, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	want := bytes.Repeat([]byte("12 34\n"), 50000)
	writers := map[Compression]func(io.Writer) (io.WriteCloser, error){
		Gzip: func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriter(w), nil },
		Zstd: func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) },
		XZ:   func(w io.Writer) (io.WriteCloser, error) { return xz.NewWriter(w) },
	}
	for m, newWriter := range writers {
		var buf bytes.Buffer
		w, err := newWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(want)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, buf.Bytes(), m)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: %d bytes, %v", m, len(got), err)
		}
	}
}

func TestSniff(t *testing.T) {
	for _, head := range []string{"", "1 2\n", "BZh91AY&S", "BZh9 text that is no bzip2", "BZh0" + "1AY&SY",
		"\x1f\x8b\x07", "%%MatrixMarket"} {
		if m := SniffCompression([]byte(head)); m != Uncompressed {
			t.Errorf("Sniff(%q) = %v", head, m)
		}
	}
	if m := SniffCompression([]byte("BZh9\x17\x72\x45\x38\x50\x90")); m != Bzip2 {
		t.Errorf("empty bzip2 stream: %v", m)
	}
}

func TestFromName(t *testing.T) {
	for name, want := range map[string]Compression{"g.txt": Uncompressed, "g": Uncompressed, "g.gr.Xz": XZ, "g.zst": Zstd, ".gz": Gzip, "g.tar": Uncompressed} {
		if got, _ := CompressionFromName(name); got != want {
			t.Errorf("FromName(%q) = %v, want %v", name, got, want)
		}
	}
	if m, inner := CompressionFromName("dir.gz/g.mtx.bz2"); m != Bzip2 || inner != "dir.gz/g.mtx" {
		t.Errorf("FromName = %v, %q", m, inner)
	}
	if _, err := NewDecompressor(strings.NewReader("x"), Compression(42)); err == nil {
		t.Error("unknown method opened")
	}
	if Compression(42).String() != "Method(42)" || Uncompressed.String() != "none" {
		t.Error("String")
	}
}
