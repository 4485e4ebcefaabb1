package formats

import (
	"encoding/binary"
	"fmt"
	"image"
	"os"
	"strings"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/formats/tiff"
)

// Kind says whether a file is labeled as a 2D image or as a volume.
type Kind int

const (
	// KindImage is a 2D image (ReadImageFile).
	KindImage Kind = iota
	// KindVolume is a volume (ReadVolumeFile).
	KindVolume
)

// Input extensions a folder walk takes; .img halves of NIfTI pairs are
// reached through their .hdr.
var (
	imageExts  = []string{".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp"}
	volumeExts = []string{".nii", ".nii.gz", ".hdr", ".hdr.gz", ".nrrd", ".nhdr"}
	probedExts = []string{".tif", ".tiff", ".npy"} // 2D or 3D: the header says
)

// IsInputName reports whether a file name has an extension of an image
// or volume format.
func IsInputName(name string) bool {
	lower := strings.ToLower(name)
	return hasAnySuffix(lower, imageExts...) || hasAnySuffix(lower, volumeExts...) || hasAnySuffix(lower, probedExts...)
}

// KindOf decides whether a file is an image or a volume: by its
// extension, and for TIFF and .npy by its header (several pages or three
// axes make a volume). Other files are taken as volumes, whose reader
// then names the formats it knows.
func KindOf(path string) (Kind, error) {
	lower := strings.ToLower(path)
	switch {
	case hasAnySuffix(lower, imageExts...):
		return KindImage, nil
	case strings.HasSuffix(lower, ".npy"):
		dims, err := npy.FileDims(path)
		if err != nil {
			return 0, err
		}
		if dims == 2 {
			return KindImage, nil
		}
	case hasAnySuffix(lower, ".tif", ".tiff"):
		f, err := os.Open(path)
		if err != nil {
			return 0, &FileError{Path: path, Err: err}
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return 0, &FileError{Path: path, Err: err}
		}
		pages, err := tiff.PageCount(f, st.Size())
		if err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		if pages == 1 {
			return KindImage, nil
		}
	}
	return KindVolume, nil
}

// FamilyExt is the label volume extension that keeps an input's family,
// from its name alone, as LabelVolumeExt gives it after reading: .nii.gz
// for NIfTI, .nrrd for NRRD, .npy otherwise.
func FamilyExt(path string) string {
	lower := strings.ToLower(path)
	switch {
	case hasAnySuffix(lower, ".nii", ".nii.gz", ".hdr", ".hdr.gz", ".img", ".img.gz"):
		return ".nii.gz"
	case hasAnySuffix(lower, ".nrrd", ".nhdr"):
		return ".nrrd"
	}
	return ".npy"
}

// EstimateBytes guesses the memory a file holds while it is labeled: its
// samples plus 4-byte labels, taking one byte per sample. The sample
// bytes are the file's size, the uncompressed size from the gzip trailer
// for .gz files, or width x height x 4 from an image's header. It returns
// 0 for a file it cannot open.
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
	lower := strings.ToLower(path)
	switch {
	case strings.HasSuffix(lower, ".gz") && size >= 18:
		var isize [4]byte
		if _, err := f.ReadAt(isize[:], size-4); err == nil {
			size = max(size, int64(binary.LittleEndian.Uint32(isize[:]))) // ISIZE: length mod 2^32
		}
	case hasAnySuffix(lower, imageExts...):
		if c, _, err := image.DecodeConfig(f); err == nil {
			size = int64(c.Width) * int64(c.Height) * 4
		}
	}
	return 5 * size
}
