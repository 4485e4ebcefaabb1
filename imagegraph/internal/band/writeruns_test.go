package band

import (
	"math/rand/v2"
	"testing"
)

// TestWriteRuns checks WriteRuns, WriteBounds and WriteBounds16 against an
// entry-by-entry writer on rows of short and long runs, over garbage left
// in the row.
func TestWriteRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 3000 {
		width := 1 + rng.IntN(300)
		maxGap, maxRun := 1+rng.IntN(4), 1+rng.IntN(4)
		if trial%2 == 0 {
			maxGap, maxRun = 1+rng.IntN(12), 1+rng.IntN(80)
		}
		var starts, ends []int32
		var labels []uint32
		for x := rng.IntN(maxGap + 1); x < width; {
			end := min(width, x+1+rng.IntN(maxRun))
			starts, ends = append(starts, int32(x)), append(ends, int32(end))
			labels = append(labels, 1+rng.Uint32N(1000))
			x = end + 1 + rng.IntN(maxGap)
		}
		want := make([]uint32, width)
		bounds := make([]int32, 0, 2*len(starts))
		for k := range starts {
			for x := starts[k]; x < ends[k]; x++ {
				want[x] = labels[k]
			}
			bounds = append(bounds, starts[k], ends[k])
		}
		for _, bounded := range []bool{false, true} {
			got := make([]uint32, width)
			for i := range got {
				got[i] = 0xdead
			}
			if bounded {
				WriteBounds(got, bounds, labels)
			} else {
				WriteRuns(got, starts, ends, labels)
			}
			for x := range want {
				if got[x] != want[x] {
					t.Fatalf("trial %d (bounds %v): width %d, entry %d = %d, want %d", trial, bounded, width, x, got[x], want[x])
				}
			}
		}
		got16 := make([]uint16, width)
		for i := range got16 {
			got16[i] = 0xdead
		}
		WriteBounds16(got16, bounds, labels)
		for x := range want {
			if uint32(got16[x]) != want[x] {
				t.Fatalf("trial %d (uint16): width %d, entry %d = %d, want %d", trial, width, x, got16[x], want[x])
			}
		}
	}
}

// TestWriteTouching checks WriteTouching against an entry-by-entry writer
// on rows of touching runs, short and long, with background before and
// after them or not, over garbage left in the row.
func TestWriteTouching(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 3000 {
		width := 1 + rng.IntN(300)
		maxRun := 1 + rng.IntN(4)
		if trial%2 == 0 {
			maxRun = 1 + rng.IntN(80)
		}
		x := 0
		if trial%3 == 0 {
			x = rng.IntN(width)
		}
		end := width
		if trial%5 == 0 {
			end = x + rng.IntN(width-x+1)
		}
		bounds := []uint16{uint16(x)}
		var labels []uint32
		for x < end {
			x = min(end, x+1+rng.IntN(maxRun))
			bounds = append(bounds, uint16(x))
			labels = append(labels, 1+rng.Uint32N(1000))
		}
		want := make([]uint32, width)
		var wantOr uint32
		for k, label := range labels {
			for x := bounds[k]; x < bounds[k+1]; x++ {
				want[x] = label
			}
			wantOr |= label
		}
		// The row is followed by 128 entries it must not write: a row of a
		// label array has the next row there.
		buf := make([]uint32, width+128)
		for i := range buf {
			buf[i] = 0xdead
		}
		got := buf[:width]
		if or := WriteTouching(got, bounds, labels); or != wantOr {
			t.Fatalf("trial %d: OR %#x, want %#x", trial, or, wantOr)
		}
		for x := range want {
			if got[x] != want[x] {
				t.Fatalf("trial %d: width %d, %d runs from %d, entry %d = %d, want %d", trial, width, len(labels), bounds[0], x, got[x], want[x])
			}
		}
		for i := width; i < len(buf); i++ {
			if buf[i] != 0xdead {
				t.Fatalf("trial %d: width %d, wrote entry %d past the row", trial, width, i)
			}
		}
	}
}

// BenchmarkWriteRuns writes rows of 512 entries of runs about as long as
// those of a label map (1 to 48 entries, gaps of 1 or 2).
func BenchmarkWriteRuns(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const width, rows = 512, 1024
	type row struct {
		starts, ends []int32
		labels       []uint32
	}
	rs := make([]row, rows)
	for i := range rs {
		r := &rs[i]
		for x := rng.IntN(2); x < width; {
			end := min(width, x+1+rng.IntN(44))
			r.starts, r.ends = append(r.starts, int32(x)), append(r.ends, int32(end))
			r.labels = append(r.labels, 1+rng.Uint32N(1000))
			x = end + 1 + rng.IntN(2)
		}
	}
	dst := make([]uint32, width*rows)
	for b.Loop() {
		for i := range rs {
			r := &rs[i]
			WriteRuns(dst[i*width:(i+1)*width], r.starts, r.ends, r.labels)
		}
	}
}
