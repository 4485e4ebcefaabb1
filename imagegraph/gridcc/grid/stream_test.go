package grid_test

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
)

// TestLabelBinaryStreamedMatches checks that a grid labeled while its rows
// arrive gets LabelBinary's labels at every connectivity, thread and band
// count, and that no row is read before it is released (the source serves
// a full row for those, which would change the labels too).
func TestLabelBinaryStreamedMatches(t *testing.T) {
	testkit.CheckStreamed(t, rand.New(rand.NewPCG(31, 32)),
		func(shape grid.GridShape, conn int, src testkit.SliceKeys, _ *testkit.Feed, dst []uint32, s grid.Stream) (int, error) {
			return grid.LabelBinary(shape, conn, keyMask{src}, dst, s.Threads)
		},
		func(shape grid.GridShape, conn int, src testkit.SliceKeys, feed *testkit.Feed, dst []uint32, s grid.Stream) (int, error) {
			return grid.LabelBinaryStreamed(shape, conn, testkit.PoisonMask{Keys: src, Feed: feed}, dst, s)
		})
}

// TestLabelBinaryStreamedFeedFails checks that a feed failing part of the
// way stops the labeling with its error and leaves no goroutine behind.
func TestLabelBinaryStreamedFeedFails(t *testing.T) {
	shape := grid.GridShape{Width: 70, Height: 9, Depth: 64}
	keys := make([]uint32, shape.Len())
	rng := rand.New(rand.NewPCG(33, 34))
	for i := range keys {
		keys[i] = uint32(rng.IntN(2))
	}
	src := testkit.SliceKeys{Width: shape.Width, Values: keys}
	before := runtime.NumGoroutine()
	rows := shape.Height * shape.Depth
	for _, conn := range []int{6, 18, 26} {
		for _, threads := range []int{1, 2, 3} {
			for _, failAt := range []int{0, 1, rows / 3, rows - 1} {
				feed := testkit.NewFeed(rows, 4, failAt)
				_, err := grid.LabelBinaryStreamed(shape, conn, testkit.PoisonMask{Keys: src, Feed: feed}, make([]uint32, len(keys)),
					grid.Stream{Threads: threads, Bands: 8, Wait: feed.Wait})
				feed.Stop()
				if !errors.Is(err, testkit.ErrFeed) {
					t.Fatalf("c%d threads %d fail at %d: %v, want the feed's error", conn, threads, failAt, err)
				}
				if feed.Early() != 0 {
					t.Fatalf("c%d threads %d fail at %d: %d rows read before their release", conn, threads, failAt, feed.Early())
				}
			}
		}
	}
	checkNoGoroutines(t, before)
}

// checkNoGoroutines fails when more goroutines run than before, once
// those that are ending have had a moment.
func checkNoGoroutines(t *testing.T, before int) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), before)
}
