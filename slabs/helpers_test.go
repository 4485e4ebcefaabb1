package slabs

import (
	"math"

	"github.com/cclabel/cclabel/imagegraph"
)

func negZero() float64 { return math.Copysign(0, -1) }

func nan() float64 { return math.NaN() }

// cpuLabel is the LabelFunc of the CPU labeler (imagegraph.Label) at rule
// and 3D connectivity conn on threads goroutines, a raster of one plane
// labeled at conn's in-plane part: the labeling the tests join and the
// whole-volume reference they compare with.
func cpuLabel(rule imagegraph.Rule, conn, threads int) LabelFunc {
	return func(r *imagegraph.Raster, dst []uint32) (int, error) {
		c := conn
		if r.Depth == 1 {
			c = InPlane(conn)
		}
		l, err := imagegraph.Label(r, rule, imagegraph.Options{Connectivity: c, Threads: threads}, dst)
		if err != nil {
			return 0, err
		}
		return l.Count, nil
	}
}
