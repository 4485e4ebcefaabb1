package nrrd

import (
	"bufio"
	"math"
	"os"

	"github.com/cclabel/cclabel/formats/internal/fileio"
	"github.com/cclabel/cclabel/imagegraph"
)

// ProbeFile returns the volume a NRRD file's header describes, without
// samples. The file is a .nrrd or .nhdr; the volume's frames have nil Data,
// with the volume's geometry and [Header]. Errors are [ReadFile]'s.
func ProbeFile(path string) (*imagegraph.Volume, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileio.Wrap(path, "", err)
	}
	defer f.Close()
	h, _, _, err := parseNRRDHeader(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return nil, fileio.Wrap(path, "nrrd", err)
	}
	w, ht, d, frames, err := h.volumeShape(math.MaxInt)
	if err != nil {
		return nil, fileio.Wrap(path, "nrrd", err)
	}
	v := h.emptyVolume()
	for range frames {
		v.Frames = append(v.Frames, &imagegraph.Raster{Width: w, Height: ht, Depth: d, Kind: h.Kind})
	}
	return v, nil
}
