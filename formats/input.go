package formats

import (
	"encoding/binary"
	"image"
	"os"
	"strings"
)

// Kind says whether a file is labeled as a 2D image or a volume.
type Kind int

const (
	// KindImage is a 2D image ([ReadImageFile]).
	KindImage Kind = iota
	// KindVolume is a volume ([ReadVolumeFile]).
	KindVolume
)

// IsInputName reports whether name has an image or volume format's extension.
func IsInputName(name string) bool {
	f := lookup(name)
	return f != nil && f.input
}

// KindOf decides whether a file is an image or a volume. It decides by its
// extension, and for TIFF and .npy by its header (several pages or three axes
// make a volume). Other files are taken as volumes, whose reader then names
// the formats it knows.
func KindOf(path string) (Kind, error) {
	f := lookup(path)
	switch {
	case f == nil:
		return KindVolume, nil
	case f.image:
		return KindImage, nil
	case f.kind != nil:
		return f.kind(path)
	}
	return KindVolume, nil
}

// FamilyExt is the label volume extension that keeps an input's family. It
// tells it from the name alone, as [LabelVolumeExt] gives it after reading:
// .nii.gz for NIfTI, .nrrd for NRRD, .npy otherwise.
func FamilyExt(path string) string {
	if f := lookup(path); f != nil && f.family != "" {
		return f.family
	}
	return ".npy"
}

// EstimateBytes guesses the memory a file holds while it is labeled. That is
// its samples plus 4-byte labels, taking one byte per sample. The sample
// bytes are the file's size, the uncompressed size from the gzip trailer for
// .gz files, or width x height x 4 from an image's header. It returns 0 for a
// file it cannot open.
func EstimateBytes(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	size := st.Size()
	switch format := lookup(path); {
	case strings.HasSuffix(strings.ToLower(path), ".gz") && size >= 18:
		var isize [4]byte
		if _, err := f.ReadAt(isize[:], size-4); err == nil {
			size = max(size, int64(binary.LittleEndian.Uint32(isize[:]))) // ISIZE: length mod 2^32
		}
	case format != nil && format.image:
		if c, _, err := image.DecodeConfig(f); err == nil {
			size = int64(c.Width) * int64(c.Height) * 4
		}
	}
	return 5 * size
}

// MapsSamples reports whether reading path maps its samples from the file. It
// tells whether [MapImageFile] or [MapVolumeFileStreaming] maps the samples
// of path (rawOpts as for [ReadVolumeFile]) rather than reading them, as far
// as the name tells: raw inputs and .npy files. Such a read takes next to no
// time (a file whose samples cannot be used in place is still read).
func MapsSamples(path string, rawOpts *RawOptions) bool {
	if rawOpts != nil {
		return true
	}
	if f := lookup(path); path == "-" || f == nil || f.mapVolume == nil {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
