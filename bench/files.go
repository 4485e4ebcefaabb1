package bench

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/graphio"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
)

// Synthetic says which synthetic raster to make ([gen.Synthetic]).
type Synthetic = gen.Synthetic

// Kinds are the kinds of synthetic raster a Synthetic makes.
var Kinds = gen.Kinds

// NewGraph returns the synthetic graph of the given kind: grid (a and b
// its width and height), random (a vertices each joined to b random
// others) or rmat (2^a vertices, b edges drawn per vertex), from seed.
// Sizes it cannot make are a [*ParamError].
func NewGraph(kind string, a, b int, seed uint64) (*ecl.Graph, error) {
	var g *ecl.Graph
	var err error
	switch kind {
	case "grid":
		g, err = gen.GridGraph(a, b)
	case "random":
		g, err = gen.RandomGraph(a, b, seed)
	case "rmat":
		g, err = gen.RMATGraph(a, b, seed)
	default:
		err = fmt.Errorf("bench: graph kind %q: want grid, random or rmat", kind)
	}
	if err != nil {
		return nil, &ParamError{Err: err}
	}
	return g, nil
}

// WriteGraph writes g to out (.egr, or .egr64 for 2^31 arcs or more)
// through a temporary file renamed into place.
func WriteGraph(out string, g *ecl.Graph) error { return graphio.WriteFile(out, g) }

// Streamed reports whether a volume of x*y*z voxels is more than one
// raster holds, and is written as it is generated (WriteRandomStream).
func Streamed(x, y, z int) bool {
	_, err := imagegraph.PixelCount(x, y, z)
	return err != nil && x > 0 && y > 0 && z > 0
}

// WriteSynthetic makes the raster s describes, of width x height x depth
// samples, and writes it to out (.npy, .png, .nii or .nii.gz), showing how
// far it is on progress (nil: nothing shown). Settings it cannot make are
// a [*ParamError].
func WriteSynthetic(out string, s Synthetic, width, height, depth int, progress io.Writer) error {
	if err := atomicfile.CheckDir(out); err != nil {
		return err
	}
	if !slices.Contains(Kinds, s.Kind) {
		return &ParamError{Err: fmt.Errorf("gen: --kind %q: want random, blobs, cells or neurites", s.Kind)}
	}
	bar := startBar(progress, out)
	defer bar.Close()
	bar.Stage("generating")
	s.Progress = bar.Meter().Reporter(fileprogress.Steps)
	r, err := s.Raster(width, height, depth)
	if err != nil {
		return &ParamError{Err: err}
	}
	bar.Stage("writing", out)
	return formats.WriteRasterFile(out, r)
}

// WriteRandomStream writes the random volume s describes, of x*y*z uint8
// voxels, to the .npy file out as it is generated (for volumes too large
// for one raster), showing how far it is on progress (nil: nothing
// shown). Another kind or file type is a [*ParamError].
func WriteRandomStream(out string, s Synthetic, x, y, z int, progress io.Writer) error {
	if s.Kind != "random" || !strings.HasSuffix(strings.ToLower(out), ".npy") {
		return &ParamError{Err: fmt.Errorf("gen volume: %dx%dx%d voxels: a volume over %d voxels is written only as --kind random to .npy", x, y, z, imagegraph.MaxPixels)}
	}
	if err := atomicfile.CheckDir(out); err != nil {
		return err
	}
	bar := startBar(progress, out)
	defer bar.Close()
	bar.Stage("writing")
	bar.Meter().Expect(int64(x)*int64(y)*int64(z), fileprogress.Bytes)
	return atomicfile.WriteFile(out, func(w io.Writer) error {
		bw := bufio.NewWriterSize(fileprogress.Writer(w, bar.Meter()), 1<<20)
		if err := npy.WriteHeader(bw, "uint8", []int{z, y, x}); err != nil {
			return err
		}
		if err := gen.RandomStream(x, y, z, s.Density, s.Seed, func(b []uint8) error {
			_, err := bw.Write(b)
			return err
		}); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// startBar returns the progress display of the file out on w
// (fileprogress.Start), or nil when w is nil.
func startBar(w io.Writer, out string) *fileprogress.Bar {
	if w == nil {
		return nil
	}
	return fileprogress.Start(w, out)
}
