package runs_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestLabelRunsStreamedMatches checks that a grid labeled while its rows
// arrive gets LabelRuns' labels at every connectivity, thread and band
// count, without reading a row before its release.
func TestLabelRunsStreamedMatches(t *testing.T) {
	testkit.CheckStreamed(t, rand.New(rand.NewPCG(35, 36)),
		func(shape grid.GridShape, conn int, src testkit.SliceKeys, _ *testkit.Feed, dst []uint32, s grid.Stream) (int, error) {
			return runs.LabelRuns[uint32](shape, conn, src, dst, s.Threads)
		},
		func(shape grid.GridShape, conn int, src testkit.SliceKeys, feed *testkit.Feed, dst []uint32, s grid.Stream) (int, error) {
			return runs.LabelRunsStreamed[uint32](shape, conn, testkit.PoisonRuns{Keys: src, Feed: feed}, dst, s)
		})
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
	src := testkit.SliceKeys{Width: shape.Width, Values: keys}
	rows := shape.Height * shape.Depth
	for _, threads := range []int{1, 2, 3} {
		for _, failAt := range []int{0, rows / 2, rows - 1} {
			feed := testkit.NewFeed(rows, 3, failAt)
			_, err := runs.LabelRunsStreamed[uint32](shape, 26, testkit.PoisonRuns{Keys: src, Feed: feed}, make([]uint32, len(keys)),
				grid.Stream{Threads: threads, Bands: 6, Wait: feed.Wait})
			feed.Stop()
			if !errors.Is(err, testkit.ErrFeed) || feed.Early() != 0 {
				t.Fatalf("threads %d fail at %d: %v, %d early reads; want the feed's error, none", threads, failAt, err, feed.Early())
			}
		}
	}
}
