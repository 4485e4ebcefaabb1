package cuda

import (
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// TestRowPairs counts pairs against a brute force over run pairs: two runs
// are joined when their keys are equal and they touch (overlap at 4;
// overlap or meet at a corner at 8).
func TestRowPairs(t *testing.T) {
	type run struct{ a, b int }
	runsOf := func(row []uint32) []run {
		var rs []run
		for x := 0; x < len(row); x++ {
			if row[x] != 0 && (x == 0 || row[x-1] != row[x]) {
				e := x
				for e+1 < len(row) && row[e+1] == row[x] {
					e++
				}
				rs = append(rs, run{x, e})
			}
		}
		return rs
	}
	r, err := gen.RandomRaster(97, 40, 1, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Three values, so that runs of different keys touch.
	d := r.Data.(imagegraph.Samples[uint8])
	for i := range d {
		d[i] *= uint8(1 + i%7/3)
	}
	keys := gridcc.NewRowKeys(r, imagegraph.Rule{Mode: imagegraph.Multilabel})
	up, own := make([]uint32, r.Width), make([]uint32, r.Width)
	for y := 1; y < r.Height; y++ {
		keys.Row(y-1, up)
		keys.Row(y, own)
		for _, diagonal := range []bool{false, true} {
			reach := 0
			if diagonal {
				reach = 1
			}
			want := 0
			for _, p := range runsOf(own) {
				for _, q := range runsOf(up) {
					if own[p.a] == up[q.a] && p.a-reach <= q.b && q.a <= p.b+reach {
						want++
					}
				}
			}
			if got := rowPairs(up, own, diagonal); got != want {
				t.Errorf("row %d, diagonal %v: %d pairs, want %d", y, diagonal, got, want)
			}
		}
	}
	// A blob image has few pairs per pixel, dense noise many.
	blobs, err := gen.BlobsRaster(1024, 1024, 1, 0.5, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	noise, err := gen.RandomRaster(1024, 1024, 1, 0.6, 1)
	if err != nil {
		t.Fatal(err)
	}
	rule := imagegraph.Rule{Mode: imagegraph.Multilabel}
	if b, n := runPairs(blobs, rule, 4), runPairs(noise, rule, 4); b >= runPairsMax || n <= runPairsMax {
		t.Errorf("pairs per pixel: blobs %.3f, noise %.3f (threshold %.2f)", b, n, runPairsMax)
	}
}
