package imageio

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/formats/internal/tiffio"
	"github.com/cclabel/cclabel/imagegraph"
)

// sliceExtensions are the file extensions ReadSliceFolder reads (lower
// case).
var sliceExtensions = map[string]bool{
	".png": true, ".tif": true, ".tiff": true, ".bmp": true, ".gif": true,
	".jpg": true, ".jpeg": true, ".webp": true,
}

// ReadSliceFolder reads a folder of 2-D images as a volume. The files whose
// extension is .png, .tif, .tiff, .bmp, .gif, .jpg, .jpeg or .webp (any
// case), sorted by name (byte order, so number them with leading zeros), are
// planes z=0, 1, ...; other files, subfolders and hidden files (names
// starting with ".") are ignored, and at least one image is required. Each is
// decoded as [DecodeFile] does (a multi-page TIFF is refused); all must have
// the size and sample class (8 or 16-bit grey, paletted, colour) of the
// first, and samples follow [imagegraph.FromImage] applied to the whole stack
// (colour is grey when R=G=B in every slice, else packed 0xRRGGBB). The
// volume has spacing 1, an identity affine and Format "slices". Errors name
// the folder, or the first file that fails or differs: "formats: PATH:
// slices: ...".
func ReadSliceFolder(dir string) (*imagegraph.Volume, error) {
	names, err := sliceNames(dir)
	if err != nil {
		return nil, err
	}
	var stack *tiffio.Stack
	for z, name := range names {
		path := filepath.Join(dir, name)
		img, err := DecodeFile(path)
		if err != nil {
			return nil, err
		}
		if z == 0 {
			b := img.Bounds()
			stack, err = tiffio.NewStack(b.Dx(), b.Dy(), len(names), imagegraph.MaxVoxels)
			if err != nil {
				return nil, fileio.Wrap(dir, "slices", err)
			}
		}
		if err := stack.Add(z, img); err != nil {
			return nil, &fileio.UnsupportedError{Path: path, Format: "slices", Err: fmt.Errorf("slice %d is %w (first slice: %s)", z, err, names[0])}
		}
	}
	raster, err := stack.Raster()
	if err != nil {
		return nil, fileio.Wrap(dir, "slices", err)
	}
	return imagegraph.NewVolume(raster, "slices"), nil
}

// ProbeSliceFolder returns a slice folder's first header and slice count. It
// reads the header of the first slice of a folder that [ReadSliceFolder]
// reads, without decoding pixels. Errors are [ReadSliceFolder]'s.
func ProbeSliceFolder(dir string) (first image.Config, slices int, err error) {
	names, err := sliceNames(dir)
	if err != nil {
		return image.Config{}, 0, err
	}
	first, err = ConfigFile(filepath.Join(dir, names[0]))
	return first, len(names), err
}

// sliceNames returns the names of the image files of a folder, sorted by
// name (as os.ReadDir gives them).
func sliceNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fileio.Wrap(dir, "", err)
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() && !strings.HasPrefix(name, ".") && sliceExtensions[strings.ToLower(filepath.Ext(name))] {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, &fileio.FileError{Path: dir, Err: errors.New("slices: no image files (.png, .tif, .tiff, .bmp, .gif, .jpg, .jpeg, .webp) in the folder")}
	}
	return names, nil
}
