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
	label := slabs.CPULabel(imagegraph.Rule{Mode: imagegraph.Binary}, 26, 1)
	j, _ := slabs.NewJoiner(3, 1, label)
	labels := make([]uint32, vol.Len())
	for z := 0; z < 4; z += 2 {
		slab, _ := slabs.Planes(vol, z, z+2)
		local := labels[3*z : 3*(z+2)]
		n, _ := label(slab, local)
		_ = j.Add(slab, local, n)
	}
	m := j.Finish()
	for k := range m.Slabs() {
		_ = m.Apply(k, labels[6*k:6*(k+1)], 1)
	}
	fmt.Println(m.Count, labels)
	// Output: 3 [1 0 2 0 0 2 0 0 2 3 0 0]
}
