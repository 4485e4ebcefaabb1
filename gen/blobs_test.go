package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// blobsSerial is BlobsRaster as it was first written, on one core: the
// serial definition the parallel one must match byte for byte.
func blobsSerial(width, height, depth int, density float64, radius int, seed uint64) []uint8 {
	n := width * height * depth
	field := make([]float32, n)
	fillChunks(n, seed, func(rng *rand.Rand, lo, hi int) {
		for i := lo; i < hi; i++ {
			field[i] = rng.Float32()
		}
	})
	tmp := make([]float32, max(width, height, depth))
	blurAxis := func(axis int) {
		w, h, d := width, height, depth
		length, stride := w, 1
		switch axis {
		case 1:
			length, stride = h, w
		case 2:
			length, stride = d, w*h
		}
		line := tmp[:length]
		for start := range w * h * d {
			if (axis == 0 && start%w != 0) || (axis == 1 && start/w%h != 0) || (axis == 2 && start/(w*h) != 0) {
				continue
			}
			for i := range length {
				line[i] = field[start+i*stride]
			}
			var sum float32
			for i := -radius; i <= radius; i++ {
				sum += line[clampIndex(i, length)]
			}
			for i := range length {
				field[start+i*stride] = sum / float32(2*radius+1)
				sum += line[clampIndex(i+radius+1, length)] - line[clampIndex(i-radius, length)]
			}
		}
	}
	for range 3 {
		blurAxis(0)
		blurAxis(1)
		if depth > 1 {
			blurAxis(2)
		}
	}
	sorted := slices.Clone(field)
	slices.Sort(sorted)
	cut := sorted[min(n-1, int(float64(n)*(1-density)))]
	data := make([]uint8, n)
	for i, v := range field {
		if v > cut || (density >= 1) {
			data[i] = 1
		}
	}
	return data
}

// TestBlobsMatchesSerial: the parallel blobs are the serial definition's,
// byte for byte, for every shape (lines, images, volumes wider than a
// block of columns), radius, density and number of cores.
func TestBlobsMatchesSerial(t *testing.T) {
	cases := []struct {
		w, h, d, radius int
		density         float64
	}{
		{1, 1, 1, 1, 0.5}, {17, 1, 1, 2, 0.3}, {1, 19, 1, 3, 0.3}, {1, 1, 23, 1, 0.5},
		{64, 48, 1, 4, 0.5}, {700, 9, 1, 2, 0.25}, {31, 29, 17, 3, 0.3}, {600, 3, 5, 1, 0.3},
		{20, 20, 20, 30, 0.3}, {16, 12, 8, 2, 0}, {16, 12, 8, 2, 1}, {16, 12, 8, 2, 0.999}, {16, 12, 8, 2, 1e-9},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			w, h, d, radius int
			density         float64
		}{130, 70, 90, 3, 0.3})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%dx%d_r%d_p%g", c.w, c.h, c.d, c.radius, c.density), func(t *testing.T) {
			want := blobsSerial(c.w, c.h, c.d, c.density, c.radius, 5)
			for _, procs := range []int{1, 3, 8} {
				old := runtime.GOMAXPROCS(procs)
				r, err := BlobsRaster(c.w, c.h, c.d, c.density, c.radius, 5)
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				if got := r.Data.(imagegraph.Samples[uint8]); !slices.Equal(got, want) {
					diff := 0
					for i := range got {
						if got[i] != want[i] {
							diff++
						}
					}
					t.Fatalf("GOMAXPROCS %d: %d of %d samples differ from the serial definition", procs, diff, len(want))
				}
			}
		})
	}
	if _, err := BlobsRaster(4, 4, 1, 0.5, 0, 1); err == nil {
		t.Error("radius 0 accepted")
	}
	if _, err := BlobsRaster(4, 4, 1, 1.5, 1, 1); err == nil {
		t.Error("density 1.5 accepted")
	}
}

func TestRankFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	specials := []float32{0, float32(math.Copysign(0, -1)), -1, 1, float32(math.Inf(1)), float32(math.Inf(-1)),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32}
	for _, n := range []int{1, 2, 10, 1000, 3*chunkSize + 17} {
		s := make([]float32, n)
		for i := range s {
			switch rng.IntN(4) {
			case 0:
				s[i] = specials[rng.IntN(len(specials))]
			case 1:
				s[i] = float32(rng.NormFloat64())
			case 2:
				s[i] = float32(rng.IntN(5)) // ties
			default:
				s[i] = rng.Float32()
			}
		}
		sorted := slices.Clone(s)
		slices.Sort(sorted)
		for _, k := range []int{0, n / 3, n / 2, n - 1, rng.IntN(n)} {
			if got := rankFloat32(s, k, nil); got != sorted[k] && !(got == 0 && sorted[k] == 0) {
				t.Fatalf("n %d: rank %d is %v, sorted gives %v", n, k, got, sorted[k])
			}
		}
	}
	for _, v := range specials {
		if back := floatOfKey(keyOfFloat(v)); math.Float32bits(back) != math.Float32bits(v) {
			t.Errorf("key of %v comes back as %v", v, back)
		}
	}
	for i := 1; i < len(specials); i++ {
		a, b := specials[i-1], specials[i]
		if (a < b) != (keyOfFloat(a) < keyOfFloat(b)) && a != b {
			t.Errorf("keys of %v and %v do not order like them", a, b)
		}
	}
}

// TestBlobsProgress: the progress of a blobs raster goes up to its total,
// one unit a sample of each pass, one call at a time.
func TestBlobsProgress(t *testing.T) {
	for _, c := range []struct{ w, h, d int }{{50, 40, 1}, {30, 20, 10}} {
		var mu sync.Mutex
		var calls int
		var last, total int64
		busy := false
		n := c.w * c.h * c.d
		s := Synthetic{Kind: "blobs", Density: 0.3, Radius: 2, Seed: 1, Progress: func(done, all int64) {
			mu.Lock()
			if busy {
				t.Error("progress told from two goroutines at once")
			}
			busy = true
			mu.Unlock()
			if done <= last || done > all {
				t.Errorf("progress %d of %d after %d", done, all, last)
			}
			last, total = done, all
			calls++
			mu.Lock()
			busy = false
			mu.Unlock()
		}}
		r, err := s.Raster(c.w, c.h, c.d)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := BlobsRaster(c.w, c.h, c.d, 0.3, 2, 1)
		if !slices.Equal(r.Data.(imagegraph.Samples[uint8]), want.Data.(imagegraph.Samples[uint8])) {
			t.Error("the raster differs with progress told")
		}
		if wantTotal := int64(blobsPasses(c.d) * n); last != total || total != wantTotal {
			t.Errorf("%v: progress ended at %d of %d, want %d of %d", c, last, total, wantTotal, wantTotal)
		}
	}
}

func BenchmarkBlobsRaster(b *testing.B) {
	for b.Loop() {
		if _, err := BlobsRaster(128, 128, 128, 0.3, 3, 1); err != nil {
			b.Fatal(err)
		}
	}
}
