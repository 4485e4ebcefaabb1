package formats

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

func TestNIfTITmpTiming(t *testing.T) {
	r, _ := gen.RandomRaster(512, 512, 512, 0.3, 1)
	ref := &Volume{Frames: []*imagegraph.Raster{r}, Spacing: [3]float64{1, 1, 1}, Affine: IdentityAffine([3]float64{1, 1, 1})}
	l, _ := imagegraph.Label(r, imagegraph.Rule{}, imagegraph.Options{Connectivity: 6}, nil)
	t.Logf("count %d", l.Count)
	for _, dir := range []string{"/dev/shm", t.TempDir()} {
		for _, name := range []string{"x.nii.gz", "x.nii"} {
			p := filepath.Join(dir, name)
			t0 := time.Now()
			if err := WriteNIfTILabels(p, ref, [][]uint32{l.Data}, "auto"); err != nil {
				t.Fatal(err)
			}
			st, _ := os.Stat(p)
			t1 := time.Now()
			if _, err := ReadNIfTIFile(p); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: write %v (%d bytes), read %v", p, t1.Sub(t0), st.Size(), time.Since(t1))
			os.Remove(p)
		}
	}
}
