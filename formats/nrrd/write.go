package nrrd

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/internal/pdeflate"
)

// WriteLabels writes label frames as a NRRD file with ref's geometry. The
// file has an attached header, gzip encoding and little-endian samples.
// labels[f] holds frame f, Width*Height*Depth of ref.Frames[0] each: one
// frame gives a 3-D file (2-D when ref is a 2-D NRRD), several a 4-D file
// with the frames along the last axis. dtype is "uint16" (type ushort),
// "uint32" (type uint) or "auto" (uint16 when every label fits).
//
// When ref.Header is a [*Header], its space (or space dimension), space
// directions, space origin, spacings and kinds are kept, as are its space
// units and measurement frame and, when the dimension is unchanged, its
// per-axis centers, units, labels, thicknesses and axis mins and maxs;
// key/value pairs are dropped (they describe the source's values). Other
// sources get space directions and origin from ref.Geometry's affine, in its
// Space (right-anterior-superior for NIfTI) or, without one, in a 3-D space
// of no named orientation, or just "spacings" when the affine is the identity
// scaled by the spacing; kinds are domain for the spatial axes and list for
// frames. The file is written atomically: a failure leaves no file behind and
// an existing one unchanged. Errors read "formats: PATH: nrrd: ...". The
// uncompressed bytes written are counted on the meter watching path
// ([fileprogress.ForFile]), if any.
func WriteLabels(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) error {
	header, wide, err := nrrdLabelHeader(ref, labels, dtype)
	if err != nil {
		return fileio.WrapWrite(path, "nrrd", err)
	}
	m := fileprogress.ForFile(path)
	err = atomicfile.WriteFile(path, func(w io.Writer) error {
		return writeNRRDLabels(w, header, labels, wide, m)
	})
	if err != nil {
		return fileio.WrapWrite(path, "nrrd", err)
	}
	return nil
}

// writeNRRDLabels writes the header and the labels, gzipped (level 1,
// 1 MiB blocks compressed on all cores), as uint32 when wide is set, else
// uint16, little-endian. The header's bytes and the labels' bytes before
// compression are counted on m (which may be nil) as they are written.
func writeNRRDLabels(w io.Writer, header string, labels [][]uint32, wide bool, m *fileprogress.Meter) error {
	size := 2
	if wide {
		size = 4
	}
	n := int64(len(labels)) * int64(len(labels[0])) * int64(size)
	m.Expect(int64(len(header))+n, fileprogress.Bytes)
	if _, err := io.WriteString(w, header); err != nil {
		return err
	}
	m.Add(int64(len(header)))
	var opt pdeflate.Options
	if m != nil {
		opt.Written = m.Add
	}
	if err := pdeflate.WriteFunc(w, pdeflate.Gzip, n, nrrdLabelFill(labels, size), opt); err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	return nil
}

// nrrdLabelFill returns the fill function of the labels of every frame
// (all of one length) as little-endian samples of size bytes (2 or 4):
// fill(dst, off) writes the bytes off..off+len(dst), both multiples of
// size. It may run on several goroutines at once.
func nrrdLabelFill(labels [][]uint32, size int) func(dst []byte, off int64) {
	perFrame := int64(len(labels[0]))
	return func(dst []byte, off int64) {
		e := off / int64(size)
		for len(dst) >= size {
			frame := labels[e/perFrame][e%perFrame:]
			part := frame[:min(len(frame), len(dst)/size)]
			dst = dst[fileio.PutLabels(dst, part, size):]
			e += int64(len(part))
		}
	}
}

// nrrdLabelHeader checks the labels against ref and builds the header
// text; wide reports uint32 samples.
func nrrdLabelHeader(ref *imagegraph.Volume, labels [][]uint32, dtype string) (header string, wide bool, err error) {
	if ref == nil || len(ref.Frames) == 0 || ref.Frames[0] == nil {
		return "", false, errors.New("nrrd: the reference volume has no frames")
	}
	f0 := ref.Frames[0]
	n := f0.Width * f0.Height * f0.Depth
	if f0.Width < 1 || f0.Height < 1 || f0.Depth < 1 {
		return "", false, fmt.Errorf("nrrd: the reference volume is %dx%dx%d", f0.Width, f0.Height, f0.Depth)
	}
	if len(labels) == 0 {
		return "", false, errors.New("nrrd: no label frames to write")
	}
	var most uint32
	for f, frame := range labels {
		if len(frame) != n {
			return "", false, fmt.Errorf("nrrd: label frame %d has %d labels, the %dx%dx%d volume has %d voxels",
				f, len(frame), f0.Width, f0.Height, f0.Depth, n)
		}
		most = max(most, parallel.Max(frame))
	}
	typ := "ushort"
	switch {
	case dtype == "uint16" && most > math.MaxUint16:
		return "", false, fmt.Errorf("nrrd: label %d does not fit uint16", most)
	case dtype == "uint16" || (dtype == "auto" && most <= math.MaxUint16):
	case dtype == "uint32" || dtype == "auto":
		typ, wide = "uint", true
	default:
		return "", false, fileio.Unsupportedf("nrrd: unsupported label dtype %q (want uint16, uint32 or auto)", dtype)
	}
	sizes := []int{f0.Width, f0.Height, f0.Depth}
	var geo []Field
	if h, ok := ref.Header.(*Header); ok && h != nil {
		sizes, geo, err = nrrdGeometryFields(h, sizes, len(labels))
	} else {
		if len(labels) > 1 {
			sizes = append(sizes, len(labels))
		}
		geo = nrrdAffineFields(ref, len(sizes))
	}
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	b.WriteString("NRRD0004\n# Complete NRRD file format specification at:\n# http://teem.sourceforge.net/nrrd/format.html\n")
	fmt.Fprintf(&b, "type: %s\ndimension: %d\n", typ, len(sizes))
	fmt.Fprintf(&b, "sizes: %s\n", strings.Trim(fmt.Sprint(sizes), "[]"))
	for _, f := range geo {
		fmt.Fprintf(&b, "%s: %s\n", f.Key, f.Value)
	}
	b.WriteString("endian: little\nencoding: gzip\n\n")
	return b.String(), wide, nil
}

// nrrdGeometryFields returns the sizes and geometry fields of labels
// written with the geometry of a NRRD header: its dimension when the
// number of frames matches its last axis (or it has no frames), else its
// spatial axes alone when there is one frame.
func nrrdGeometryFields(h *Header, sizes []int, frames int) ([]int, []Field, error) {
	dim := min(h.Dimension, 3)
	switch {
	case h.Dimension == 4 && frames == h.Sizes[3]:
		dim = 4
		sizes = append(sizes, frames)
	case frames != 1:
		return nil, nil, fmt.Errorf("nrrd: %d label frames for a reference of %d", frames, max(1, nrrdFrames(h)))
	}
	sizes = sizes[:dim]
	var geo []Field
	switch {
	case h.Space != "":
		geo = append(geo, Field{Key: "space", Value: h.Space})
	case h.SpaceDimension > 0:
		geo = append(geo, Field{Key: "space dimension", Value: strconv.Itoa(h.SpaceDimension)})
	}
	if h.SpaceDirections != nil {
		geo = append(geo, Field{Key: "space directions", Value: nrrdVectorList(h.SpaceDirections[:dim])})
	} else if h.Spacings != nil {
		geo = append(geo, Field{Key: "spacings", Value: nrrdNumbers(h.Spacings[:dim])})
	}
	kinds := []string{"domain", "domain", "domain", "list"}[:dim]
	if h.Kinds != nil {
		kinds = h.Kinds[:dim]
	}
	geo = append(geo, Field{Key: "kinds", Value: strings.Join(kinds, " ")})
	if h.SpaceOrigin != nil {
		geo = append(geo, Field{Key: "space origin", Value: nrrdVectorList([][]float64{h.SpaceOrigin})})
	}
	for _, f := range h.Fields {
		switch key := nrrdFieldKey(f.Key); {
		case f.Pair:
		case key == "spaceunits" || key == "measurementframe":
			geo = append(geo, f)
		case dim == h.Dimension && nrrdPerAxisText[key]:
			geo = append(geo, f)
		}
	}
	return sizes, geo, nil
}

// nrrdPerAxisText lists the per-axis fields (normalized keys) that labels
// keep verbatim when their dimension is the reference's.
var nrrdPerAxisText = map[string]bool{
	"centers": true, "centerings": true, "units": true, "labels": true,
	"thicknesses": true, "axismins": true, "axismaxs": true,
}

// nrrdFrames returns the number of frames a header's volume has.
func nrrdFrames(h *Header) int {
	if h.Dimension == 4 {
		return h.Sizes[3]
	}
	return 1
}

// nrrdAffineFields returns geometry fields for labels of dim axes written
// with the geometry of a volume not read from NRRD.
func nrrdAffineFields(ref *imagegraph.Volume, dim int) []Field {
	kinds := []string{"domain", "domain", "domain", "list"}[:dim]
	kindField := Field{Key: "kinds", Value: strings.Join(kinds, " ")}
	if ref.Space == "" && ref.Affine == imagegraph.IdentityAffine(ref.Spacing) {
		spacings := []float64{ref.Spacing[0], ref.Spacing[1], ref.Spacing[2], math.NaN()}[:dim]
		return []Field{{Key: "spacings", Value: nrrdNumbers(spacings)}, kindField}
	}
	space := Field{Key: "space dimension", Value: "3"}
	if ref.Space != "" {
		space = Field{Key: "space", Value: ref.Space}
	}
	dirs := make([][]float64, dim)
	for i := range min(dim, 3) {
		dirs[i] = []float64{ref.Affine[0][i], ref.Affine[1][i], ref.Affine[2][i]}
	}
	origin := []float64{ref.Affine[0][3], ref.Affine[1][3], ref.Affine[2][3]}
	return []Field{
		space,
		{Key: "space directions", Value: nrrdVectorList(dirs)},
		kindField,
		{Key: "space origin", Value: nrrdVectorList([][]float64{origin})},
	}
}

// nrrdVectorList formats vectors as "(a,b,c) (d,e,f)", nil ones as none.
func nrrdVectorList(vecs [][]float64) string {
	parts := make([]string, len(vecs))
	for i, v := range vecs {
		if v == nil {
			parts[i] = "none"
			continue
		}
		parts[i] = "(" + strings.ReplaceAll(nrrdNumbers(v), " ", ",") + ")"
	}
	return strings.Join(parts, " ")
}

// nrrdNumbers formats numbers separated by spaces, exactly (shortest
// representation that reads back the same), NaN as "nan".
func nrrdNumbers(vals []float64) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
		if math.IsNaN(v) {
			parts[i] = "nan"
		}
	}
	return strings.Join(parts, " ")
}
