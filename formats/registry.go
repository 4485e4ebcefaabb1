package formats

import (
	"errors"
	"image/color"
	"os"
	"strings"

	"github.com/cclabel/cclabel/formats/imageio"
	"github.com/cclabel/cclabel/formats/nifti"
	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/formats/nrrd"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
)

// format is a file format of the registry: the suffixes that name its
// files and what the package does with them. A nil function is a thing
// the format does not do.
type format struct {
	// name names the format, as Config.Format does.
	name string
	// suffixes are the lower-case endings of its file names.
	suffixes []string
	// input is set when a folder walk takes its files as inputs (the
	// .img half of a NIfTI pair is reached through its .hdr).
	input bool
	// image is set for formats of 2D images only, which KindOf calls
	// images; decoded for those ReadImageFile decodes as pictures.
	image, decoded bool
	// family is the label-volume extension that keeps the format's family
	// (FamilyExt, LabelVolumeExt), "" for the default, .npy.
	family string
	// probe reads the header.
	probe func(path string) (Config, error)
	// kind tells an image from a volume by the header, for formats of
	// both (KindOf).
	kind func(path string) (Kind, error)
	// read reads a volume; stream reads it telling onSamples as the
	// samples arrive; mapVolume maps its samples from the file.
	read      func(path string) (*imagegraph.Volume, error)
	stream    func(path string, onSamples func(v *imagegraph.Volume, done int)) (*imagegraph.Volume, error)
	mapVolume func(path string) (*imagegraph.Volume, func(), error)
	// readRaster and mapRaster read a raster of a format that
	// ReadImageFile does not decode as a picture.
	readRaster func(path string) (*imagegraph.Raster, error)
	mapRaster  func(path string) (*imagegraph.Raster, func(), error)
	// open opens a volume as a stream of planes.
	open func(path string) (*raw.Stream, *imagegraph.Volume, error)
	// write writes label frames with a reference volume's geometry;
	// writeFunc writes one frame of labels that are not in memory.
	write     func(path string, ref *imagegraph.Volume, labels [][]uint32, dtype string) error
	writeFunc func(path string, ref *imagegraph.Volume, maxLabel uint32, dtype string, read func(dst []uint32, voxel int64) error) error
}

// registry lists the formats by file name. Raw data (RawOptions) and
// folders of slices are chosen otherwise: rawFormat and slicesFormat.
var registry = []*format{
	{name: "nifti", suffixes: []string{".nii", ".nii.gz"}, input: true, family: ".nii.gz",
		probe: volumeProbe("nifti", nifti.ProbeFile), read: nifti.ReadFile, stream: niftiStream, open: nifti.OpenStream,
		write: nifti.WriteLabels, writeFunc: niftiWriteFunc},
	{name: "nifti", suffixes: []string{".hdr", ".hdr.gz"}, input: true, family: ".nii.gz",
		probe: volumeProbe("nifti", nifti.ProbeFile), read: nifti.ReadFile},
	{name: "nifti", suffixes: []string{".img", ".img.gz"}, family: ".nii.gz",
		probe: volumeProbe("nifti", nifti.ProbeFile), read: nifti.ReadFile},
	{name: "nrrd", suffixes: []string{".nrrd"}, input: true, family: ".nrrd",
		probe: volumeProbe("nrrd", nrrd.ProbeFile), read: nrrd.ReadFile, open: nrrd.OpenStream, write: nrrd.WriteLabels},
	{name: "nrrd", suffixes: []string{".nhdr"}, input: true, family: ".nrrd",
		probe: volumeProbe("nrrd", nrrd.ProbeFile), read: nrrd.ReadFile, open: nrrd.OpenStream},
	{name: "tiff", suffixes: []string{".tif", ".tiff"}, input: true, decoded: true,
		probe: tiffProbe, kind: tiffKind, read: imageio.ReadTIFFStackFile},
	{name: "npy", suffixes: []string{".npy"}, input: true,
		probe: npyProbe, kind: npyKind, read: npyRead, mapVolume: npyMap, readRaster: npy.ReadFile, mapRaster: npy.MapFile,
		open: npyOpen, write: writeNPYLabels, writeFunc: writeNPYLabelsFunc},
	{name: "png", suffixes: []string{".png"}, input: true, image: true, decoded: true, probe: imageProbe("png")},
	{name: "jpeg", suffixes: []string{".jpg", ".jpeg"}, input: true, image: true, decoded: true, probe: imageProbe("jpeg")},
	{name: "gif", suffixes: []string{".gif"}, input: true, image: true, decoded: true, probe: imageProbe("gif")},
	{name: "bmp", suffixes: []string{".bmp"}, input: true, image: true, decoded: true, probe: imageProbe("bmp")},
	{name: "webp", suffixes: []string{".webp"}, input: true, image: true, decoded: true, probe: imageProbe("webp")},
}

// lookup returns the format whose suffix ends path (case ignored), or nil.
func lookup(path string) *format {
	lower := strings.ToLower(path)
	for _, f := range registry {
		for _, s := range f.suffixes {
			if strings.HasSuffix(lower, s) {
				return f
			}
		}
	}
	return nil
}

// Config is what a file's header tells about its samples, without
// reading them.
type Config struct {
	// Format names the format: "nifti", "nrrd", "tiff", "npy", "png",
	// "jpeg", "gif", "bmp", "webp", "raw" or "slices" (a folder of 2D
	// images); "" for a file of another name, probed as a picture by its
	// content.
	Format string
	// Width, Height and Depth are one frame's size (Depth 1 for a 2D
	// image); Frames counts the frames (time points).
	Width, Height, Depth, Frames int
	// Kind is the sample type: the stored one, or for a decoded picture the
	// one [imagegraph.FromImage] gives its colour model (RGB for colour,
	// though a colour picture whose pixels are all grey reads as Uint8).
	Kind imagegraph.SampleKind
	// Bytes is the size of all the samples in memory.
	Bytes int64
}

// Probe reads the header of the file at path and returns its [Config]. path
// may be a folder of slices, or raw data when rawOpts is not nil. A file
// whose name no format claims is probed as an image, by its content, as
// [ReadImageFile] reads it. Errors are the readers'.
func Probe(path string, rawOpts *RawOptions) (Config, error) {
	if rawOpts != nil {
		return rawProbe(path, rawOpts)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return slicesProbe(path)
	}
	if f := lookup(path); f != nil {
		return f.probe(path)
	}
	return imageProbe("")(path)
}

// newConfig fills in a Config's Bytes.
func newConfig(format string, w, h, d, frames int, kind imagegraph.SampleKind) Config {
	return Config{Format: format, Width: w, Height: h, Depth: d, Frames: frames, Kind: kind,
		Bytes: int64(w) * int64(h) * int64(d) * int64(frames) * int64(kind.Size())}
}

// volumeProbe returns the probe of a format whose header reader gives a
// volume without samples.
func volumeProbe(name string, probe func(path string) (*imagegraph.Volume, error)) func(string) (Config, error) {
	return func(path string) (Config, error) {
		v, err := probe(path)
		if err != nil {
			return Config{}, err
		}
		f := v.Frames[0]
		return newConfig(name, f.Width, f.Height, f.Depth, len(v.Frames), f.Kind), nil
	}
}

// imageProbe returns the probe of a 2D image format (name "" takes the
// format from the content).
func imageProbe(name string) func(string) (Config, error) {
	return func(path string) (Config, error) {
		c, err := imageio.ConfigFile(path)
		if err != nil {
			return Config{}, err
		}
		return newConfig(name, c.Width, c.Height, 1, 1, modelKind(c.ColorModel)), nil
	}
}

// modelKind is the sample kind imagegraph.FromImage gives a picture of
// the colour model.
func modelKind(m color.Model) imagegraph.SampleKind {
	switch m {
	case color.GrayModel:
		return imagegraph.Uint8
	case color.Gray16Model:
		return imagegraph.Uint16
	}
	if _, ok := m.(color.Palette); ok {
		return imagegraph.Uint8 // palette indices
	}
	return imagegraph.RGB
}

// tiffProbe probes a TIFF file: its pages are the planes of a volume
// whose size and samples are those of the first page.
func tiffProbe(path string) (Config, error) {
	pages, err := tiffPages(path)
	if fe := (*FormatError)(nil); errors.As(err, &fe) && fe.Path == "" {
		named := *fe
		named.Path = path
		return Config{}, &named
	}
	if err != nil {
		return Config{}, err
	}
	c, err := imageio.ConfigFile(path)
	if err != nil {
		return Config{}, err
	}
	return newConfig("tiff", c.Width, c.Height, pages, 1, modelKind(c.ColorModel)), nil
}

// tiffPages counts the pages of a TIFF file.
func tiffPages(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, &FileError{Path: path, Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, &FileError{Path: path, Err: err}
	}
	return imageio.TIFFPageCount(f, st.Size())
}

// tiffKind calls a TIFF file of one page an image, of several a volume.
func tiffKind(path string) (Kind, error) {
	pages, err := tiffPages(path)
	var fe *FileError
	switch {
	case errors.As(err, &fe):
		return 0, err
	case err != nil:
		return 0, &pathPrefixError{path, err}
	case pages == 1:
		return KindImage, nil
	}
	return KindVolume, nil
}

// pathPrefixError is err with "PATH: " in front of its message.
type pathPrefixError struct {
	path string
	err  error
}

func (e *pathPrefixError) Error() string { return e.path + ": " + e.err.Error() }
func (e *pathPrefixError) Unwrap() error { return e.err }

// slicesProbe probes a folder of slices.
func slicesProbe(dir string) (Config, error) {
	first, n, err := imageio.ProbeSliceFolder(dir)
	if err != nil {
		return Config{}, err
	}
	return newConfig("slices", first.Width, first.Height, n, 1, modelKind(first.ColorModel)), nil
}

// niftiStream reads a single-file NIfTI volume, telling onSamples as the
// samples arrive.
func niftiStream(path string, onSamples func(v *imagegraph.Volume, done int)) (*imagegraph.Volume, error) {
	return nifti.ReadFileStreaming(path, onSamples)
}

// niftiWriteFunc writes NIfTI labels that are not in memory.
func niftiWriteFunc(path string, ref *imagegraph.Volume, maxLabel uint32, dtype string, read func(dst []uint32, voxel int64) error) error {
	return nifti.WriteLabelsFunc(path, ref, maxLabel, dtype, read)
}
