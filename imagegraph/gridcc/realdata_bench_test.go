package gridcc_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// BenchmarkLabelRealEM times multilabel 26-connectivity on the real
// electron-microscopy segmentations of testdata/em, as uint32 label maps
// tiled by reflection to about 60 M voxels (each tile the mirror image of
// its neighbours, so that neurites continue across tile borders): SNEMI3D's
// 160x160x32 cutout as 480x480x256 (3x3x8 tiles), FIB-25's 64^3 cube as
// 384^3 (6x6x6 tiles); in memory order (x fastest) and with x and z
// swapped (z fastest). It labels with GOMAXPROCS threads (-cpu 1,2).
// Unless CCLABEL_BENCH_FULL=1 the tiles are 1x1x2 and 2x2x2.
func BenchmarkLabelRealEM(b *testing.B) {
	ins, err := realEMInputs(benchFull())
	if err != nil {
		b.Fatal(err)
	}
	most := 0
	for _, in := range ins {
		most = max(most, in.r.Len())
	}
	dst := make([]uint32, most)
	for _, in := range ins {
		b.Run(in.name, func(b *testing.B) {
			opts := gridcc.Options{Connectivity: 26, Threads: runtime.GOMAXPROCS(0)}
			for b.Loop() {
				if _, err := gridcc.Label(in.r, imagegraph.Rule{Mode: imagegraph.Multilabel}, opts, dst[:in.r.Len()]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(in.r.Len())*float64(b.N)/b.Elapsed().Seconds()/1e6, "MVx/s")
		})
	}
}

// namedRaster is a benchmark input and its name.
type namedRaster struct {
	name string
	r    *imagegraph.Raster
}

// realEMInputs returns the segmentations of [BenchmarkLabelRealEM], x
// fastest and z fastest each: tiled in full, or small.
func realEMInputs(full bool) ([]namedRaster, error) {
	var ins []namedRaster
	for _, c := range []struct {
		file         string
		tiles, short [3]int
	}{
		{"snemi-mini.nii.gz", [3]int{3, 3, 8}, [3]int{1, 1, 2}},
		{"fib25-64.nii.gz", [3]int{6, 6, 6}, [3]int{2, 2, 2}},
	} {
		tiles := c.short
		if full {
			tiles = c.tiles
		}
		r, err := readEM(c.file, tiles)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("%s/%dx%dx%d/", c.file[:len(c.file)-len(".nii.gz")], r.Width, r.Height, r.Depth)
		ins = append(ins, namedRaster{name + "xfast", r}, namedRaster{name + "zfast", zFastest(r)})
	}
	return ins, nil
}

// readEM reads a segmentation of testdata/em as uint32 keys, tiled by
// reflection tiles[0] x tiles[1] x tiles[2] times.
func readEM(file string, tiles [3]int) (*imagegraph.Raster, error) {
	vol, err := nifti.ReadFile(filepath.Join("..", "..", "testdata", "em", file))
	if err != nil {
		return nil, err
	}
	r := vol.Frames[0]
	w, h, d := r.Width, r.Height, r.Depth
	W, H, D := w*tiles[0], h*tiles[1], d*tiles[2]
	keys := make([]uint32, W*H*D)
	for z := range D {
		sz := mirror(z, d)
		for y := range H {
			sy := mirror(y, h)
			row := keys[(z*H+y)*W : (z*H+y+1)*W]
			for x := range row {
				row[x] = uint32(r.Value(mirror(x, w) + w*(sy+h*sz)))
			}
		}
	}
	return imagegraph.NewRaster(W, H, D, keys)
}

// mirror returns the coordinate of the original that coordinate i of a
// tiling by reflection of n samples a tile shows.
func mirror(i, n int) int {
	if t := i / n; t%2 == 1 {
		return n - 1 - i%n
	}
	return i % n
}
