package runs_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl/grid"
	"github.com/cclabel/cclabel/ecl/grid/internal/gridtest"
	"github.com/cclabel/cclabel/ecl/grid/runs"
)

// TestLabelRunsStreamedMatches checks that a grid labeled while its rows
// arrive gets LabelRuns' labels at every connectivity, thread and band
// count, without reading a row before its release.
func TestLabelRunsStreamedMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	streamThreads, streamBands := []int{1, 2, 3}, []int{0, 3, 7, 64}
	if testing.Short() {
		streamThreads, streamBands = []int{2}, []int{0, 7}
	}
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range gridtest.ModeShapes(is3D) {
			for name, keys := range gridtest.ModePatterns(shape, rng) {
				src := gridtest.SliceKeys{Width: shape.Width, Values: keys}
				for _, conn := range conns {
					want := make([]uint32, len(keys))
					wantN, err := runs.LabelRuns[uint32](shape, conn, src, want, 1)
					if err != nil {
						t.Fatal(err)
					}
					for _, threads := range streamThreads {
						for _, bands := range streamBands {
							feed := gridtest.NewFeed(shape.Height*shape.Depth, 1+rng.IntN(3), -1)
							got := make([]uint32, len(keys))
							n, err := runs.LabelRunsStreamed[uint32](shape, conn, gridtest.PoisonRuns{Keys: src, Feed: feed}, got,
								grid.Stream{Threads: threads, Bands: bands, Wait: feed.Wait})
							feed.Stop()
							if err != nil {
								t.Fatal(err)
							}
							if feed.Early() != 0 {
								t.Fatalf("%v %s c%d threads %d bands %d: %d rows read before their release", shape, name, conn, threads, bands, feed.Early())
							}
							if n != wantN || !slices.Equal(got, want) {
								t.Fatalf("%v %s c%d threads %d bands %d: %d components, want %d\n got %v\nwant %v",
									shape, name, conn, threads, bands, n, wantN, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestLabelRunsStreamedFeedFails checks that a failing feed stops the
// labeling with its error.
func TestLabelRunsStreamedFeedFails(t *testing.T) {
	shape := grid.GridShape{Width: 33, Height: 5, Depth: 40}
	keys := make([]uint32, shape.Len())
	rng := rand.New(rand.NewPCG(37, 38))
	for i := range keys {
		keys[i] = uint32(rng.IntN(3))
	}
	src := gridtest.SliceKeys{Width: shape.Width, Values: keys}
	rows := shape.Height * shape.Depth
	for _, threads := range []int{1, 2, 3} {
		for _, failAt := range []int{0, rows / 2, rows - 1} {
			feed := gridtest.NewFeed(rows, 3, failAt)
			_, err := runs.LabelRunsStreamed[uint32](shape, 26, gridtest.PoisonRuns{Keys: src, Feed: feed}, make([]uint32, len(keys)),
				grid.Stream{Threads: threads, Bands: 6, Wait: feed.Wait})
			feed.Stop()
			if !errors.Is(err, gridtest.ErrFeed) || feed.Early() != 0 {
				t.Fatalf("threads %d fail at %d: %v, %d early reads; want the feed's error, none", threads, failAt, err, feed.Early())
			}
		}
	}
}
