package pdeflate

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// benchLabels returns 64 MiB of uint16 little-endian labels in runs, like
// a 512x512x128 label volume of blobs: background half the time, runs of
// 1 to 200 voxels, labels that repeat from row to row.
func benchLabels() []byte {
	rng := rand.New(rand.NewPCG(8, 9))
	data := make([]byte, 64<<20)
	for i := 0; i < len(data); {
		run := 2 * (1 + rng.IntN(200))
		label := uint16(0)
		if rng.IntN(2) == 0 {
			label = uint16(1 + (i/1024)%500 + rng.IntN(3))
		}
		for j := i; j < min(len(data), i+run); j += 2 {
			binary.LittleEndian.PutUint16(data[j:], label)
		}
		i += run
	}
	return data
}

// BenchmarkCompress times Writer and WriteFunc (gzip, level 1, 1 MiB
// blocks) at 1 and 2 threads against klauspost/compress's serial gzip, in
// MB/s of input.
func BenchmarkCompress(b *testing.B) {
	data := benchLabels()
	b.Run("serial-klauspost", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			zw, _ := kgzip.NewWriterLevel(io.Discard, kgzip.BestSpeed)
			zw.Write(data)
			if err := zw.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, threads := range []int{1, 2} {
		opt := Options{Threads: threads}
		b.Run(fmt.Sprintf("Writer-%dthreads", threads), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				zw, err := NewWriter(io.Discard, Gzip, opt)
				if err != nil {
					b.Fatal(err)
				}
				for off := 0; off < len(data); off += 256 << 10 {
					zw.Write(data[off:min(len(data), off+256<<10)])
				}
				if err := zw.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("WriteFunc-%dthreads", threads), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			fill := func(dst []byte, off int64) { copy(dst, data[off:]) }
			for b.Loop() {
				if err := WriteFunc(io.Discard, Gzip, int64(len(data)), fill, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
