package labelfile

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/render"
)

// VolumeOutputs name a volume's outputs; "" writes nothing. A label
// volume path ending in "/" names a file in that folder: the folder's
// name plus the extension that keeps the input's family
// (formats.LabelVolumeExt).
type VolumeOutputs struct {
	// Input names the input in errors.
	Input string
	// Output and Labels are label volumes: .nii, .nii.gz, .nrrd or .npy.
	Output, Labels string
	// Preview is a PNG of the three mid-slices.
	Preview string
	// Stats is the per-component statistics of the first frame: .csv or
	// .json.
	Stats string
}

// VolumeLabels are the labeled frames of one volume.
type VolumeLabels struct {
	// Frames holds one label slice per frame, x fastest.
	Frames [][]uint32
	// PerFrame is the component count of each frame, Total their sum.
	PerFrame []int
	Total    int
	// Last is the last frame's labels.
	Last *imagegraph.Labels
	// Conn is the connectivity used: its in-plane part for a 2D file.
	Conn int
	// Backend is the backend that labeled the last frame.
	Backend cclabel.Backend
	// GPU sums the GPU stages over the frames labeled there; nil when
	// none was.
	GPU *cclabel.Timing
	// Timing sums the labeling stages over all frames, on any backend.
	Timing cclabel.Timing
	// WhileReading is the labeling time spent while the volume was still
	// being read (VolumeStream); Timing counts only what came after.
	WhileReading time.Duration
}

// LabelVolume labels every frame of vol under the settings' rule (on
// scaled values) and filters, at 3D connectivity conn (6, 18 or 26; its
// in-plane part, 4 or 8, for a 2D file).
func LabelVolume(l *cclabel.Labeler, vol *imagegraph.Volume, s Settings, conn int) (*VolumeLabels, error) {
	return labelVolume(l, vol, s, conn, nil)
}

// LabelVolumeInto is LabelVolume writing the first frame's labels into
// dst when it has one label per voxel (a buffer made ready while the
// volume was read).
func LabelVolumeInto(l *cclabel.Labeler, vol *imagegraph.Volume, s Settings, conn int, dst []uint32) (*VolumeLabels, error) {
	return labelVolume(l, vol, s, conn, oneBuffer(dst))
}

// labelVolume is LabelVolume labeling into arrays from bufs when they fit.
func labelVolume(l *cclabel.Labeler, vol *imagegraph.Volume, s Settings, conn int, bufs *LabelBuffers) (*VolumeLabels, error) {
	rule := s.Rule
	rule.Slope, rule.Inter = vol.Slope, vol.Inter
	vl := &VolumeLabels{Conn: conn, Frames: make([][]uint32, len(vol.Frames)), PerFrame: make([]int, len(vol.Frames))}
	if vol.Frames[0].Depth == 1 { // a 2D file: the in-plane part of the stencil
		vl.Conn = map[int]int{6: 4, 18: 8, 26: 8}[conn]
	}
	for i, f := range vol.Frames {
		res, err := l.LabelRaster(f, rule, vl.Conn, bufs.Get(f.Len()))
		if err != nil {
			return nil, err
		}
		if res.Backend == cclabel.BackendGPU {
			if vl.GPU == nil {
				vl.GPU = &cclabel.Timing{}
			}
			vl.GPU.Upload += res.Timing.Upload
			vl.GPU.Kernel += res.Timing.Kernel
			vl.GPU.Download += res.Timing.Download
			vl.GPU.Join += res.Timing.Join
			vl.GPU.Total += res.Timing.Total
		}
		vl.Timing = vl.Timing.Plus(res.Timing)
		res.Labels.Filter(s.MinSize, s.Largest)
		vl.Frames[i], vl.PerFrame[i] = res.Labels.Data, res.Labels.Count
		vl.Total += res.Labels.Count
		vl.Last, vl.Backend = res.Labels, res.Backend
	}
	return vl, nil
}

// WriteVolume writes the label volumes (of type dtype: auto, uint16 or
// uint32), the preview and the statistics of a labeled volume.
func WriteVolume(out VolumeOutputs, vol *imagegraph.Volume, vl *VolumeLabels, dtype string) error {
	frames := vl.Frames
	for _, path := range []string{out.Output, out.Labels} {
		if path == "" {
			continue
		}
		if strings.HasSuffix(path, "/") { // a folder: keep the input's family
			path = strings.TrimSuffix(path, "/") + formats.LabelVolumeExt(vol)
		}
		if err := formats.WriteVolumeLabels(path, vol, frames, dtype); err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	f0 := vol.Frames[0]
	if out.Preview != "" {
		img, err := render.VolumePreview(frames[0], f0.Width, f0.Height, f0.Depth, vol.Spacing)
		if err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
		if err := WriteOutput(out.Preview, nil, func(w io.Writer) error { return render.WritePNG(w, img) }); err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	if out.Stats != "" {
		// Statistics of the first frame (the only one of a 3D volume).
		first := &imagegraph.Labels{Width: f0.Width, Height: f0.Height, Depth: f0.Depth, Data: frames[0], Count: maxLabel(frames[0])}
		if len(frames) == 1 {
			first = vl.Last
		}
		stats, err := imagegraph.Statistics(first, f0)
		if err != nil {
			return err
		}
		if err := WriteOutput(out.Stats, nil, func(w io.Writer) error {
			return imagegraph.WriteVolumeStats(w, stats, strings.ToLower(filepath.Ext(out.Stats)), vol.Affine)
		}); err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	return nil
}

// maxLabel returns the largest label.
func maxLabel(labels []uint32) int { return int(parallel.Max(labels)) }
