package raster_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/cclabel/cclabel/job/raster"
)

// sizeOrderOracle renumbers labels numbered by first occurrence by
// decreasing size, ties by first occurrence, through a sort of the labels.
func sizeOrderOracle(labels []uint32, n int) []uint32 {
	size := make([]int, n+1)
	for _, l := range labels {
		size[l]++
	}
	ranked := make([]int, n)
	for i := range ranked {
		ranked[i] = i + 1
	}
	sort.SliceStable(ranked, func(a, b int) bool { return size[ranked[a]] > size[ranked[b]] })
	newLabel := make([]uint32, n+1)
	for r, l := range ranked {
		newLabel[l] = uint32(r + 1)
	}
	out := make([]uint32, len(labels))
	for i, l := range labels {
		out[i] = newLabel[l]
	}
	return out
}

// TestOrderBySize checks --order size against a breadth-first search whose
// labels are renumbered by a stable sort on size, with and without a
// size filter, in 2D and 3D, on every CPU backend and thread count (shared
// and per-thread counters), and that the default leaves the first-occurrence
// numbering.
func TestOrderBySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 4))
	for _, backend := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
		for _, threads := range []int{1, 4} {
			l, err := cclabel.New(cclabel.Options{Backend: backend, Threads: threads})
			if err != nil {
				t.Fatal(err)
			}
			for _, shape := range [][4]int{{40, 30, 1, 4}, {300, 400, 1, 8}, {12, 10, 9, 6}, {12, 10, 9, 26}} {
				for _, minSize := range []int64{0, 3} {
					w, h, d, conn := shape[0], shape[1], shape[2], shape[3]
					name := fmt.Sprintf("%s/t%d/%dx%dx%d/c%d/min%d", backend, threads, w, h, d, conn, minSize)
					t.Run(name, func(t *testing.T) {
						values := make([]uint8, w*h*d)
						for i := range values {
							values[i] = uint8(rng.IntN(3))
						}
						r, err := imagegraph.NewRaster(w, h, d, values)
						if err != nil {
							t.Fatal(err)
						}
						keys := make([]uint32, len(values))
						for i, v := range values {
							keys[i] = uint32(v)
						}
						first, n := testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: d}, conn, keys)
						filtered := &imagegraph.Labels{Width: w, Height: h, Depth: d, Data: first, Count: n}
						filtered.Filter(minSize, 0)
						for _, order := range []raster.Order{raster.FirstOccurrence, raster.BySize} {
							s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, MinSize: minSize, Order: order}
							var got *imagegraph.Labels
							if d == 1 {
								res, err := raster.LabelImage(l, &formats.Image{Raster: r}, s, conn)
								if err != nil {
									t.Fatal(err)
								}
								got = res.Labels
							} else {
								vl, err := raster.LabelVolume(l, &imagegraph.Volume{Frames: []*imagegraph.Raster{r}}, s, conn)
								if err != nil {
									t.Fatal(err)
								}
								got = vl.Last
							}
							want := filtered.Data
							if order == raster.BySize {
								want = sizeOrderOracle(filtered.Data, filtered.Count)
							}
							if got.Count != filtered.Count || !slices.Equal(got.Data, want) {
								t.Fatalf("order %v: %d labels differ from the oracle's %d", order, got.Count, filtered.Count)
							}
						}
					})
				}
			}
			l.Close()
		}
	}
}
