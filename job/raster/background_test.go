package raster_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/internal/testkit"
	"github.com/cclabel/cclabel/job/raster"
)

// backgroundOracle labels values by breadth-first search with v as the
// background: equal values (by ==, so -0 is 0) other than v and NaN join.
func backgroundOracle(w, h, d, conn int, values []float64, v float64) ([]uint32, int) {
	ids := map[float64]uint32{}
	keys := make([]uint32, len(values))
	for i, x := range values {
		if x == v || math.IsNaN(x) {
			continue
		}
		if x == 0 {
			x = 0 // -0 is 0
		}
		if ids[x] == 0 {
			ids[x] = uint32(len(ids) + 1)
		}
		keys[i] = ids[x]
	}
	return testkit.BFSLabels(grid.GridShape{Width: w, Height: h, Depth: d}, conn, keys)
}

// typedRaster returns values as a raster of kind's Go type.
func typedRaster(t *testing.T, kind string, w, h, d int, values []float64) *imagegraph.Raster {
	t.Helper()
	var r *imagegraph.Raster
	var err error
	switch kind {
	case "uint8":
		r, err = imagegraph.NewRaster(w, h, d, convert[uint8](values))
	case "int16":
		r, err = imagegraph.NewRaster(w, h, d, convert[int16](values))
	case "uint32":
		r, err = imagegraph.NewRaster(w, h, d, convert[uint32](values))
	case "int64":
		r, err = imagegraph.NewRaster(w, h, d, convert[int64](values))
	case "float32":
		r, err = imagegraph.NewRaster(w, h, d, convert[float32](values))
	default:
		r, err = imagegraph.NewRaster(w, h, d, convert[float64](values))
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func convert[T imagegraph.Sample](values []float64) []T {
	out := make([]T, len(values))
	for i, v := range values {
		out[i] = T(v)
	}
	return out
}

// TestBackground checks labels under a background value other than 0
// against a breadth-first search over the original values that takes that
// value as background, on every CPU backend, in 2D and 3D, for integer and
// float samples (with -0 and NaN); the samples stay as they were.
func TestBackground(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 5))
	for _, c := range []struct {
		kind   string
		v      float64
		others []float64
	}{
		{"uint8", 3, []float64{0, 1, 255}},
		{"int16", -2, []float64{0, 7, -300}},
		{"uint32", 70000, []float64{0, 1, 5}},
		{"int64", 9, []float64{0, -9, 1 << 40}},
		{"float32", 0.5, []float64{0, math.Copysign(0, -1), 1.25, math.NaN()}},
		{"float64", -1e300, []float64{0, math.Copysign(0, -1), 2, math.NaN()}},
	} {
		for _, backend := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
			l, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 3})
			if err != nil {
				t.Fatal(err)
			}
			for _, shape := range [][4]int{{9, 7, 1, 4}, {9, 7, 1, 8}, {6, 5, 4, 6}, {6, 5, 4, 18}, {6, 5, 4, 26}} {
				w, h, d, conn := shape[0], shape[1], shape[2], shape[3]
				t.Run(fmt.Sprintf("%s/%s/%dx%dx%d/c%d", c.kind, backend, w, h, d, conn), func(t *testing.T) {
					values := make([]float64, w*h*d)
					pool := append([]float64{c.v, c.v}, c.others...)
					for i := range values {
						values[i] = pool[rng.IntN(len(pool))]
					}
					r := typedRaster(t, c.kind, w, h, d, values)
					before := slices.Clone(r.Data.Bytes())
					s := raster.Settings{Rule: imagegraph.Rule{Mode: imagegraph.Multilabel}, Background: c.v}
					var got *imagegraph.Labels
					if d == 1 {
						res, err := raster.LabelImage(l, &formats.Image{Raster: r}, s, conn)
						if err != nil {
							t.Fatal(err)
						}
						got = res.Labels
					} else {
						vl, err := raster.LabelVolume(l, &imagegraph.Volume{Frames: []*imagegraph.Raster{r}}, s, conn)
						if err != nil {
							t.Fatal(err)
						}
						got = vl.Last
					}
					want, n := backgroundOracle(w, h, d, conn, values, c.v)
					if got.Count != n || !slices.Equal(got.Data, want) {
						t.Fatalf("labels %v (%d), want %v (%d)", got.Data, got.Count, want, n)
					}
					if !slices.Equal(r.Data.Bytes(), before) {
						t.Fatal("the samples changed")
					}
				})
			}
			l.Close()
		}
	}
}

// TestBackgroundRefused checks that a background value no sample of the
// raster's type holds, NaN, or one given to a rule other than multilabel is
// an error, a [*raster.BackgroundError].
func TestBackgroundRefused(t *testing.T) {
	l, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	multi := imagegraph.Rule{Mode: imagegraph.Multilabel}
	for _, c := range []struct {
		name string
		kind string
		v    float64
		rule imagegraph.Rule
	}{
		{"uint8 256", "uint8", 256, multi},
		{"uint8 -1", "uint8", -1, multi},
		{"int16 fraction", "int16", 2.5, multi},
		{"int16 40000", "int16", 40000, multi},
		{"float32 0.1", "float32", 0.1, multi},
		{"NaN", "float64", math.NaN(), multi},
		{"binary", "uint8", 3, imagegraph.Rule{Mode: imagegraph.Binary}},
		{"threshold", "uint8", 3, imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := typedRaster(t, c.kind, 4, 3, 1, make([]float64, 12))
			_, err := raster.LabelImage(l, &formats.Image{Raster: r}, raster.Settings{Rule: c.rule, Background: c.v}, 4)
			var be *raster.BackgroundError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v, want a *BackgroundError", err)
			}
		})
	}
}
