package testkit

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
)

// Labeling labels the grid of shape from src into dst at connectivity
// conn. A streamed one reads its rows through feed under s (feed and s
// are zero for the unstreamed reference).
type Labeling func(shape grid.GridShape, conn int, src SliceKeys, feed *Feed, dst []uint32, s grid.Stream) (int, error)

// CheckStreamed checks a streamed labeling against its unstreamed form.
// streamed, fed each grid's rows in order from a [Feed], must give the
// labels of unstreamed (on one thread) on every shape and pattern of
// [ModeShapes] and [ModePatterns], at every connectivity, on 1 to 3
// threads and several band counts (fewer under -short), and that it reads
// no row before its release.
func CheckStreamed(t *testing.T, rng *rand.Rand, unstreamed, streamed Labeling) {
	t.Helper()
	streamThreads, streamBands := []int{1, 2, 3}, []int{0, 3, 7, 64}
	if testing.Short() {
		streamThreads, streamBands = []int{2}, []int{0, 7}
	}
	for _, is3D := range []bool{false, true} {
		conns := []int{4, 8}
		if is3D {
			conns = []int{6, 18, 26}
		}
		for _, shape := range ModeShapes(is3D) {
			for name, keys := range ModePatterns(shape, rng) {
				src := SliceKeys{Width: shape.Width, Values: keys}
				for _, conn := range conns {
					want := make([]uint32, len(keys))
					wantN, err := unstreamed(shape, conn, src, nil, want, grid.Stream{Threads: 1})
					if err != nil {
						t.Fatal(err)
					}
					for _, threads := range streamThreads {
						for _, bands := range streamBands {
							feed := NewFeed(shape.Height*shape.Depth, 1+rng.IntN(3), -1)
							got := make([]uint32, len(keys))
							n, err := streamed(shape, conn, src, feed, got, grid.Stream{Threads: threads, Bands: bands, Wait: feed.Wait})
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
