package tiffio

import (
	"bytes"
	"os"
	"testing"

	xtiff "golang.org/x/image/tiff"
)

// benchFile returns the TIFF named by $TIFFSTRIPS_BENCH_FILE, or skips.
func benchFile(b *testing.B) []byte {
	data, err := os.ReadFile(os.Getenv("TIFFSTRIPS_BENCH_FILE"))
	if err != nil {
		b.Skip("set TIFFSTRIPS_BENCH_FILE to a TIFF file")
	}
	return data
}

func BenchmarkDecodePage(b *testing.B) {
	data := benchFile(b)
	ifd := orderOf(data).Uint32(data[4:])
	for b.Loop() {
		if _, err := DecodePage(data, ifd, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkXTIFF(b *testing.B) {
	data := benchFile(b)
	for b.Loop() {
		if _, err := xtiff.Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
