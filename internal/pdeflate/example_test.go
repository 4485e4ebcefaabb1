package pdeflate_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/cclabel/cclabel/internal/pdeflate"
)

// Compress a stream in parallel blocks and read it back with the
// standard library's gzip reader.
func Example() {
	var buf bytes.Buffer
	zw, err := pdeflate.NewWriter(&buf, pdeflate.Gzip, pdeflate.Options{BlockSize: 64 << 10})
	if err != nil {
		log.Fatal(err)
	}
	text := strings.Repeat("label map ", 100000) // 1 MB: 16 blocks
	if _, err := io.WriteString(zw, text); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		log.Fatal(err)
	}
	back, err := io.ReadAll(zr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(back), string(back) == text)
	// Output: 1000000 true
}

// WriteFunc compresses a stream whose bytes a callback produces on the
// compressing goroutines: here a zlib stream of 3 MB of a repeating ramp.
func ExampleWriteFunc() {
	var buf bytes.Buffer
	ramp := func(dst []byte, off int64) {
		for i := range dst {
			dst[i] = byte(off + int64(i))
		}
	}
	if err := pdeflate.WriteFunc(&buf, pdeflate.Zlib, 3<<20, ramp, pdeflate.Options{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(buf.Len() < 100<<10)
	// Output: true
}
