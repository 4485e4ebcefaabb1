package imageio

import (
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"

	"github.com/cclabel/cclabel/formats/internal/tiffio"
)

// TIFFPageCount returns the number of pages (image file directories, IFDs)
// in the TIFF data r of size bytes, classic TIFF or BigTIFF, by walking
// the chain of IFDs from the header. An IFD that does not lie wholly
// inside the data, a chain that loops and a file without IFDs are errors.
func TIFFPageCount(r io.ReaderAt, size int64) (int, error) {
	n, err := tiffio.Pages(r, size)
	if err != nil {
		return 0, fileio.Wrap("", "tiff", err)
	}
	return n, nil
}
