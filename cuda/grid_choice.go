package cuda

import (
	"github.com/cclabel/cclabel/imagegraph"

	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// An image takes the run kernels when the joined pairs of runs between
// neighbouring rows, which runs_link hooks one by one, are fewer than
// runPairsMax per pixel, else the tile kernels (whose cost hardly depends
// on the image). The threshold takes the run kernels only where they won
// on every image measured (docs/gpu.md, "Runs or tiles for an image"):
// above it the winner depends on more than the count of pairs.
const runPairsMax = 0.06

// samplePixels bounds the pixels runPairs reads.
const samplePixels = 1 << 16

// runPairs estimates the joined pairs of runs per pixel of image r at
// connectivity conn (4 or 8) under rule, from up to samplePixels pixels of
// row pairs spread over the image; the pairs are counted as runs_link
// finds them (once each, at reach 0 at 4 and 1 at 8).
func runPairs(r *imagegraph.Raster, rule imagegraph.Rule, conn int) float64 {
	w, h := r.Width, r.Height
	if h < 2 {
		return 0
	}
	rows := min(h-1, max(1, samplePixels/w))
	return countPairs(r, rule, conn, rows, func(i int) int { return 1 + int(int64(i)*int64(h-1)/int64(rows)) })
}

// countPairs is the joined pairs of runs per pixel of the rows pairs of
// rows y(i)-1 and y(i) of image r.
func countPairs(r *imagegraph.Raster, rule imagegraph.Rule, conn, rows int, y func(i int) int) float64 {
	w := r.Width
	keys := gridcc.NewRowKeys(r, rule)
	up, own := make([]uint32, w), make([]uint32, w)
	pairs := 0
	for i := range rows {
		keys.Row(y(i)-1, up)
		keys.Row(y(i), own)
		pairs += rowPairs(up, own, conn == 8)
	}
	return float64(pairs) / (float64(rows) * float64(w))
}

// rowPairs counts the pairs of runs of row own joined to runs of the row
// before it, up, as runs_link finds them: at reach 0 where either run
// starts at a shared voxel, at reach 1 where the own run starts beside or
// above the other's voxel, or the other run starts beside the own's.
func rowPairs(up, own []uint32, diagonal bool) int {
	pairs := 0
	var kp, np uint32 // the keys left of x
	for x := range own {
		k, n := own[x], up[x]
		start, nstart := k != kp, n != np
		switch {
		case k == 0:
		case !diagonal:
			if (start || nstart) && n == k {
				pairs++
			}
		default:
			if start && (np == k || (nstart && n == k)) {
				pairs++
			}
		}
		if diagonal && nstart && n != 0 && kp != 0 && n == kp {
			pairs++
		}
		kp, np = k, n
	}
	return pairs
}
