package imageio

import (
	"github.com/cclabel/cclabel/formats/internal/fileio"
	"io"

	"github.com/cclabel/cclabel/formats/internal/tiffio"
)

// TIFFPageCount returns the number of pages in the TIFF data r. Pages are
// image file directories (IFDs); r holds size bytes of classic TIFF or
// BigTIFF, and the count walks the chain of IFDs from the header. An IFD that
// does not lie wholly inside the data, a chain that loops and a file without
// IFDs are errors.
func TIFFPageCount(r io.ReaderAt, size int64) (int, error) {
	n, err := tiffio.Pages(r, size)
	if err != nil {
		return 0, fileio.Wrap("", "tiff", err)
	}
	return n, nil
}
