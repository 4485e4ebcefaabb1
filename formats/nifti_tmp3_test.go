package formats

import (
	"os"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

func BenchmarkNIfTITmpPlain(b *testing.B) {
	n := 512 * 512 * 512
	labels := niftiLabelsOf(n, 60000)
	r := &imagegraph.Raster{Width: 512, Height: 512, Depth: 512, Kind: imagegraph.Uint8, Data: make([]uint8, n)}
	ref := &Volume{Frames: []*imagegraph.Raster{r}, Spacing: [3]float64{1, 1, 1}, Affine: IdentityAffine([3]float64{1, 1, 1})}
	for _, dt := range []string{"uint16", "uint32"} {
		p := "/dev/shm/bench-" + dt + ".nii"
		b.Run("write-"+dt, func(b *testing.B) {
			for b.Loop() {
				if err := WriteNIfTILabels(p, ref, [][]uint32{labels}, dt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("read-"+dt, func(b *testing.B) {
			for b.Loop() {
				if _, err := ReadNIfTIFile(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		os.Remove(p)
	}
}
