package tiffio

import (
	"bytes"
	"os"
	"testing"

	xtiff "golang.org/x/image/tiff"
)

// tiffBenchFile returns the TIFF named by $CCLABEL_TIFF_BENCH_FILE, or skips.
func tiffBenchFile(b *testing.B) []byte {
	data, err := os.ReadFile(os.Getenv("CCLABEL_TIFF_BENCH_FILE"))
	if err != nil {
		b.Skip("set CCLABEL_TIFF_BENCH_FILE to a TIFF file")
	}
	return data
}

func BenchmarkDecodePage(b *testing.B) {
	data := tiffBenchFile(b)
	ifd := orderOf(data).Uint32(data[4:])
	for b.Loop() {
		if _, err := DecodePage(data, ifd, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkXTIFF(b *testing.B) {
	data := tiffBenchFile(b)
	for b.Loop() {
		if _, err := xtiff.Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
