package raster

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/render"
)

// ImageOutputs name an image's outputs; "" writes nothing, "-" writes to
// stdout.
type ImageOutputs struct {
	// Input names the input in errors.
	Input string
	// Output is the coloured label map (or overlay), a PNG.
	Output string
	// Labels is the label array: .npy (H, W) or a 16-bit .png.
	Labels string
	// Stats is the per-component statistics: .csv or .json.
	Stats string
	// Contacts is the pairs of touching components: .csv or .json.
	Contacts string
	// Intensity, an input, is the image of the same size whose samples
	// give the statistics' intensity measures (Settings.Measures); ""
	// measures the input itself, under a threshold rule only.
	Intensity string
}

// LabelImage labels an image and applies the settings' size filters. conn is
// the connectivity, 4 or 8.
func LabelImage(l *cclabel.Labeler, img *formats.Image, s Settings, conn int) (*cclabel.RasterResult, error) {
	return LabelImageIn(l, img, s, conn, nil)
}

// OneBuffer returns [LabelBuffers] holding dst, or nil for a nil dst. dst is
// a label array made ready while the input was read.
func OneBuffer(dst []uint32) *LabelBuffers {
	if dst == nil {
		return nil
	}
	b := &LabelBuffers{Keep: 1}
	b.Put(dst)
	return b
}

// LabelImageIn is [LabelImage] labeling into an array from bufs. It does so
// when one fits (nil bufs: none).
func LabelImageIn(l *cclabel.Labeler, img *formats.Image, s Settings, conn int, bufs *LabelBuffers) (*cclabel.RasterResult, error) {
	r, err := withBackground(img.Raster, s, l.Threads())
	if err != nil {
		return nil, err
	}
	res, err := l.LabelRaster(r, s.Rule, conn, bufs.Get(img.Raster.Len()))
	if err != nil {
		return nil, err
	}
	if err := s.finishLabels(l, res.Labels); err != nil {
		return nil, err
	}
	return res, nil
}

// NarrowImageWrites reports whether uint16 labels serve an image's outputs
// well: a label array written to a .npy file (as labels are served) under
// dtype auto or uint16, and no colour map, statistics, contacts, size filters,
// background value or order, which need uint32 labels.
func NarrowImageWrites(out ImageOutputs, s Settings) bool {
	return out.Output == "" && out.Stats == "" && out.Contacts == "" && out.Labels != "" && out.Labels != "-" &&
		strings.ToLower(filepath.Ext(out.Labels)) == ".npy" && (s.DType == "auto" || s.DType == "uint16") &&
		s.plain()
}

// LabelImageNarrow is [LabelImageIn] for outputs that [NarrowImageWrites]
// serves: the labels may come back as uint16 ([cclabel.RasterResult.Narrow],
// with Labels.Data nil), as [cclabel.Labeler.LabelRasterNarrow] gives them.
func LabelImageNarrow(l *cclabel.Labeler, img *formats.Image, s Settings, conn int, bufs *LabelBuffers) (*cclabel.RasterResult, error) {
	if !s.plain() {
		return LabelImageIn(l, img, s, conn, bufs)
	}
	return labelNarrow(l, img.Raster, s.Rule, conn, bufs, nil)
}

// LabelImageToFile is [LabelImageNarrow] writing the label array as the
// labeler makes it, for outputs that [NarrowImageWrites] serves: uint16
// labels go from the CPU labeler's second pass straight into out.Labels (a
// .npy file, written atomically), and no array of all of them is made. It
// reports whether the label array was written so; when it was not (the GPU
// labeled, the rule is multilabel, more than 65535 components), no file is
// left and the result is LabelImageNarrow's, for [WriteImageNarrow] or
// [WriteImage].
func LabelImageToFile(l *cclabel.Labeler, img *formats.Image, out ImageOutputs, s Settings, conn int) (*cclabel.RasterResult, bool, error) {
	if !NarrowImageWrites(out, s) {
		return nil, false, fmt.Errorf("%s: uint16 labels cannot serve these outputs", out.Input)
	}
	r := img.Raster
	var res *cclabel.RasterResult
	shape := npyShape(&imagegraph.Labels{Width: r.Width, Height: r.Height, Depth: r.Depth})
	written, err := labelsToFile(out.Labels, shape, false, r.Width, func(rows func(int, []uint16) error) (bool, error) {
		var err error
		res, err = l.LabelRasterNarrowTo(r, s.Rule, conn, nil, rows)
		return err == nil && res.Labels.Data == nil && res.Narrow == nil, err
	})
	if err != nil {
		return nil, false, err
	}
	return res, written, nil
}

// CountImage labels img for its component count alone, as a command with
// no outputs does. Under plain settings (any order: the numbering does not
// change the count) the CPU labeler's uint16 labels are dropped as they are
// made, so no array of them all is made; the GPU, a multilabel rule or more
// than 65535 components still fill one, as [LabelImageNarrow] does. Size
// filters and a background value label as [LabelImageIn].
func CountImage(l *cclabel.Labeler, img *formats.Image, s Settings, conn int) (*cclabel.RasterResult, error) {
	if !s.keepsAll() {
		return LabelImageIn(l, img, s, conn, nil)
	}
	return l.LabelRasterNarrowTo(img.Raster, s.Rule, conn, nil, func(int, []uint16) error { return nil })
}

// labelsToFile writes the uint16 labels that label hands to rows (row by
// row, width labels a row) into the .npy file path of the given shape as
// they are made, and reports whether all of them went there, as label
// does. When they did not, no file is left.
func labelsToFile(path string, shape []int, fortran bool, width int, label func(rows func(int, []uint16) error) (bool, error)) (bool, error) {
	err := npy.WriteLabels16File(path, shape, fortran, func(put npy.PutLabels16) error {
		written, err := label(func(row int, labels []uint16) error { return put(int64(row)*int64(width), labels) })
		if err == nil && !written {
			return errNotWritten
		}
		return err
	})
	if errors.Is(err, errNotWritten) {
		return false, nil
	}
	return err == nil, err
}

// errNotWritten ends the writing of a label file whose labels did not come
// to it, leaving none.
var errNotWritten = errors.New("labels not written")

// WriteImageNarrow writes the label array of an image labeled as uint16
// labels (narrow), whose outputs [NarrowImageWrites] serves; labels has the
// shape and count.
func WriteImageNarrow(out ImageOutputs, labels *imagegraph.Labels, narrow []uint16, s Settings) error {
	if !NarrowImageWrites(out, s) {
		return fmt.Errorf("%s: uint16 labels cannot serve these outputs", out.Input)
	}
	var err error
	if dtype := labelDType(s.DType, labels.Count); dtype == "uint16" {
		// Straight from the labels' memory into the file.
		err = npy.WriteLabels16File(out.Labels, npyShape(labels), false, func(put npy.PutLabels16) error {
			return putAll(put, narrow)
		})
	} else {
		err = npy.WriteLabelsFuncFile(out.Labels, int64(len(narrow)), npyShape(labels), dtype, false, uint32(labels.Count), readNarrow(narrow))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", out.Input, err)
	}
	return nil
}

// putAll hands labels to put from index 0 on, in pieces of 16 MiB, so that
// a progress display sees them go.
func putAll(put npy.PutLabels16, labels []uint16) error {
	const piece = 8 << 20
	for lo := 0; lo < len(labels); lo += piece {
		if err := put(int64(lo), labels[lo:min(lo+piece, len(labels))]); err != nil {
			return err
		}
	}
	return nil
}

// labelDType is the dtype of a label array of count labels under the
// dtype setting: auto is uint16 when they fit, else uint32.
func labelDType(dtype string, count int) string {
	if dtype == "auto" {
		dtype = "uint32"
		if count <= 65535 {
			dtype = "uint16"
		}
	}
	return dtype
}

// WriteImage writes the outputs of a labeled image. These are the label
// array, the statistics and the colour map (or overlay).
func WriteImage(out ImageOutputs, img *formats.Image, labels *imagegraph.Labels, s Settings, stdout io.Writer) error {
	if out.Labels != "" {
		ext := strings.ToLower(filepath.Ext(out.Labels))
		dtype := labelDType(s.DType, labels.Count)
		var err error
		if ext != ".png" && out.Labels != "-" { // a .npy file, filled on all cores
			err = npy.WriteLabelsFile(out.Labels, [][]uint32{labels.Data}, npyShape(labels), dtype, false)
		} else {
			err = writeOutput(out.Labels, stdout, func(w io.Writer) error {
				if ext == ".png" {
					return render.WriteLabelsPNG16(w, labels.Data, labels.Width, labels.Height)
				}
				return npy.WriteLabels(w, labels.Data, npyShape(labels), dtype)
			})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	if out.Stats != "" || out.Contacts != "" {
		f, release, err := imageFrame(out, img, s)
		if err != nil {
			return err
		}
		defer release()
		f.labels = labels
		if err := writeImageTables(out, f, stdout, s); err != nil {
			return err
		}
	}
	if out.Output != "" {
		if err := writeOutput(out.Output, stdout, func(w io.Writer) error {
			if s.Overlay {
				over, err := render.Overlay(img.Display(), labels.Data, 0.6)
				if err != nil {
					return err
				}
				return render.WritePNG(w, over)
			}
			return render.WriteColorLabelsPNG(w, labels.Data, labels.Width, labels.Height)
		}); err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	return nil
}

// LabelImageMeasured is [LabelVolumeMeasured] for an image, whose tables
// [WriteImageMeasured] writes.
func LabelImageMeasured(l *cclabel.Labeler, out ImageOutputs, img *formats.Image, s Settings, conn int) (*cclabel.MeasuredRaster, error) {
	r, err := withBackground(img.Raster, s, l.Threads())
	if err != nil {
		return nil, err
	}
	f, release, err := imageFrame(out, img, s)
	if err != nil {
		return nil, err
	}
	defer release()
	return labelMeasured(l, r, f, s.Rule, conn, s, out.Stats != "", out.Contacts != "")
}

// WriteImageMeasured writes the statistics and contacts of an image
// measured as it was labeled ([LabelImageMeasured]), as [WriteImage] does.
func WriteImageMeasured(out ImageOutputs, img *formats.Image, m *cclabel.MeasuredRaster, s Settings, stdout io.Writer) error {
	return writeImageTables(out, frameInput{values: img.Raster, measured: m}, stdout, s)
}

// writeImageTables writes the statistics and contacts of out, f's.
func writeImageTables(out ImageOutputs, f frameInput, stdout io.Writer, s Settings) error {
	frame := func(int) (frameInput, error) { return f, nil }
	o := formats.StatsOptions{Is3D: f.values.Is3D(), Perimeter: !f.values.Is3D()}
	return writeTables(out.Input, out.Stats, out.Contacts, stdout, frame, o, s)
}

// imageFrame returns what img is measured from for out, with release.
func imageFrame(out ImageOutputs, img *formats.Image, s Settings) (frameInput, func(), error) {
	f := frameInput{values: img.Raster, spacing: [3]float64{1, 1, 1}}
	iv, release, err := intensityOf(out.Input, out.Stats, out.Intensity, imagegraph.NewVolume(img.Raster, "image"), s,
		func(p string) (*imagegraph.Volume, func(), error) {
			in, release, err := formats.MapImageFile(p, nil)
			if err != nil {
				return nil, nil, err
			}
			return imagegraph.NewVolume(in.Raster, "image"), release, nil
		})
	if err == nil && iv != nil {
		f.intensity = iv.Frames[0]
	}
	return f, release, err
}

// npyShape is the NumPy shape of a label array: (H, W) or (Z, Y, X).
func npyShape(l *imagegraph.Labels) []int {
	if l.Depth > 1 {
		return []int{l.Depth, l.Height, l.Width}
	}
	return []int{l.Height, l.Width}
}
