package job

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/job/raster"
)

// Merge joins the chunks [Chunk] jobs wrote of one volume into its labels. It
// writes the volume's label volume and is the job of "cclabel merge". The
// labels are those a [Volume] job gives the whole volume.
type Merge struct {
	// Input is the volume the chunks were labeled from, read again for
	// the planes at the chunks' seams; Raw describes a raw input.
	Input string
	Raw   *formats.RawOptions
	// Dir holds every chunk's files.
	Dir string
	// Output is the label volume: .nii, .nii.gz or .npy, of type DType
	// (auto, uint16 or uint32).
	Output, DType string
}

// Run merges the chunks and writes the label volume.
func (j Merge) Run(ctx context.Context, p Progress) (*VolumeSummary, error) {
	out := j.Output
	if out == "" {
		return nil, usagef("merge: give -o for the label volume")
	}
	if !formats.StreamsLabels(out) {
		return nil, usagef("merge: -o %s: want .nii, .nii.gz or .npy", out)
	}
	inputs := []string{j.Input}
	entries, _ := os.ReadDir(j.Dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "chunk-") {
			inputs = append(inputs, filepath.Join(j.Dir, e.Name()))
		}
	}
	if err := checkClobber("merge", inputFiles(inputs...), []atomicfile.Named{outputFile("-o", out)}); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	clock := newStopwatch()
	res, err := raster.Merge(j.Input, j.Raw, j.Dir, out, j.DType)
	if err != nil {
		return nil, err
	}
	times := StageTimes{Label: res.Label.Seconds(), Write: res.Write.Seconds(), Total: clock.total()}
	s := &VolumeSummary{Input: j.Input, Format: res.Format, Width: res.Width, Height: res.Height, Depth: res.Depth, Frames: 1,
		Components: res.Count, Connectivity: res.Connectivity, Mode: res.Rule.String(), Backend: string(cclabel.BackendCPU),
		Seconds: times, Slabs: res.Slabs}
	p.printf("%s: %d chunks merged, %d components; join %.3fs, write %.3fs\n", j.Input, res.Slabs, res.Count, times.Label, times.Write)
	return s, nil
}
