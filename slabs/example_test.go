package slabs_test

import (
	"fmt"

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/slabs"
)

// A 3x1x4 volume labeled in slabs of two planes: the component that
// crosses the seam between z = 1 and z = 2 gets one label.
func Example() {
	samples := []uint8{
		1, 0, 1, // z = 0
		0, 0, 1, // z = 1
		0, 0, 1, // z = 2
		1, 0, 0, // z = 3
	}
	vol, _ := imagegraph.NewRaster(3, 1, 4, samples)
	rule := imagegraph.Rule{Mode: imagegraph.Binary}
	// The slabs and seams are 3D: 26-connected.
	label := func(r *imagegraph.Raster, dst []uint32) (int, error) {
		l, err := imagegraph.Label(r, rule, imagegraph.Options{Connectivity: 26}, dst)
		if err != nil {
			return 0, err
		}
		return l.Count, nil
	}
	labels := make([]uint32, vol.Len())
	res, _ := slabs.Label(slabs.NewRasterSource(vol, nil), label, slabs.Into(labels), slabs.Options{Planes: 2})
	fmt.Println(res.Count, res.Slabs, labels)
	// Output: 3 2 [1 0 2 0 0 2 0 0 2 3 0 0]
}
