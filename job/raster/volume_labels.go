package raster

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/internal/parallel"
	"github.com/cclabel/cclabel/render"
	"github.com/cclabel/cclabel/slabs"
)

// VolumeOutputs name a volume's outputs; "" writes nothing.
type VolumeOutputs struct {
	// Input names the input in errors.
	Input string
	// Output and Labels are label volumes: .nii, .nii.gz, .nrrd or .npy.
	Output, Labels string
	// Preview is a PNG of the three mid-slices of the first frame
	// ([PreviewFrame]; see [PreviewNote]).
	Preview string
	// Stats is the per-component statistics of every frame: .csv or .json,
	// with a frame column when the volume has several frames
	// ([formats.WriteFrameStats]).
	Stats string
	// Contacts is the pairs of touching components of every frame: .csv
	// or .json ([formats.WriteContacts]).
	Contacts string
	// Intensity, an input, is the volume of the same shape (of one frame
	// or as many as the input) whose samples, scaled as thresholds are,
	// give the statistics' intensity measures (Settings.Measures); ""
	// measures the input itself, under a threshold rule only.
	Intensity string
}

// VolumeLabels are the labeled frames of one volume.
type VolumeLabels struct {
	// Frames holds one label slice per frame, x fastest.
	Frames [][]uint32
	// Narrow, when not nil, holds the labels of a one-frame volume as
	// uint16, as the GPU downloaded them for a writer of uint16 files
	// (labelVolume with narrow); Frames[0] is then nil.
	Narrow []uint16
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
	// being read ([VolumeStream]); Timing counts only what came after.
	WhileReading time.Duration
	// Measured holds each frame's measurements when they were made as it
	// was labeled ([LabelVolumeMeasured]); Frames then holds nils.
	Measured []*cclabel.MeasuredRaster
}

// LabelVolume labels every frame of vol under the settings' rule and filters.
// The rule applies to scaled values, at 3D connectivity conn (6, 18 or 26;
// its in-plane part, 4 or 8, for a 2D file). The frames of a 4D volume are
// counted as they are labeled on the meter watching vol ([fileprogress.For]),
// if any.
func LabelVolume(l *cclabel.Labeler, vol *imagegraph.Volume, s Settings, conn int) (*VolumeLabels, error) {
	return LabelVolumeIn(l, vol, s, conn, nil, false)
}

// LabelVolumeIn is [LabelVolume] labeling into arrays from bufs. It does so
// when they fit (nil bufs: none). With narrow, a volume of one frame and no
// size filters is labeled by [cclabel.Labeler.LabelRasterNarrow]: its labels
// may come back as uint16 (Narrow).
func LabelVolumeIn(l *cclabel.Labeler, vol *imagegraph.Volume, s Settings, conn int, bufs *LabelBuffers, narrow bool) (*VolumeLabels, error) {
	return labelFrames(l, vol, s, conn, bufs, narrow, nil, nil)
}

// LabelVolumeMeasured labels vol as [LabelVolume] does and measures it for
// out's tables as [WriteVolume] would, by [cclabel.Labeler.LabelRasterMeasured]
// (on the GPU the labels stay there), keeping no labels and no size filter.
func LabelVolumeMeasured(l *cclabel.Labeler, out VolumeOutputs, vol *imagegraph.Volume, s Settings, conn int) (*VolumeLabels, error) {
	iv, release, err := volumeIntensity(out, vol, s)
	if err != nil {
		return nil, err
	}
	defer release()
	s.MinSize, s.Largest = 0, 0
	none := make([][]uint32, len(vol.Frames))
	return labelFrames(l, vol, s, conn, nil, false, nil, func(f *imagegraph.Raster, t int, rule imagegraph.Rule, conn int) (*cclabel.MeasuredRaster, error) {
		return labelMeasured(l, f, volumeFrame(vol, iv, none, nil, t), rule, conn, s, out.Stats != "", out.Contacts != "")
	})
}

// labelFrames is [LabelVolumeIn], labeling and measuring frame t, f, by
// measure when it is not nil ([LabelVolumeMeasured]); with narrow, a
// non-nil rows takes the uint16 labels as they are made
// ([cclabel.Labeler.LabelRasterNarrowTo]), leaving Frames[0] and Narrow nil.
func labelFrames(l *cclabel.Labeler, vol *imagegraph.Volume, s Settings, conn int, bufs *LabelBuffers, narrow bool,
	rows func(int, []uint16) error, measure func(f *imagegraph.Raster, t int, rule imagegraph.Rule, conn int) (*cclabel.MeasuredRaster, error)) (*VolumeLabels, error) {
	rule := s.Rule
	rule.Slope, rule.Inter = vol.Slope, vol.Inter
	vl := &VolumeLabels{Conn: conn, Frames: make([][]uint32, len(vol.Frames)), PerFrame: make([]int, len(vol.Frames))}
	if vol.Frames[0].Depth == 1 { // a 2D file: the in-plane part of the stencil
		vl.Conn = slabs.InPlane(conn)
	}
	narrow = narrow && len(vol.Frames) == 1 && s.plain()
	// The frames of a 4D volume are its labeling's progress.
	var m *fileprogress.Meter
	if len(vol.Frames) > 1 {
		m = fileprogress.For(vol)
		m.Expect(int64(len(vol.Frames)), fileprogress.Frames)
	}
	for i, f := range vol.Frames {
		var res *cclabel.RasterResult
		f, err := withBackground(f, s, l.Threads())
		if err != nil {
			return nil, err
		}
		switch {
		case measure != nil:
			var mr *cclabel.MeasuredRaster
			if mr, err = measure(f, i, rule, vl.Conn); err == nil {
				res, vl.Measured = mr.RasterResult, append(vl.Measured, mr)
			}
		case narrow:
			res, err = labelNarrow(l, f, rule, vl.Conn, bufs, rows)
		default:
			res, err = l.LabelRaster(f, rule, vl.Conn, bufs.Get(f.Len()))
		}
		if err != nil {
			return nil, err
		}
		if res.Backend == cclabel.BackendGPU {
			vl.GPU = cmp.Or(vl.GPU, &cclabel.Timing{})
			*vl.GPU = vl.GPU.Plus(res.Timing)
		}
		vl.Timing = vl.Timing.Plus(res.Timing)
		if err := s.finishLabels(l, res.Labels); err != nil {
			return nil, err
		}
		vl.Frames[i], vl.PerFrame[i], vl.Narrow = res.Labels.Data, res.Labels.Count, res.Narrow
		vl.Total += res.Labels.Count
		vl.Last, vl.Backend = res.Labels, res.Backend
		m.Add(1)
	}
	return vl, nil
}

// labelNarrow labels f by LabelRasterNarrow into arrays from bufs and
// hands back the array it did not use; with rows, by LabelRasterNarrowTo.
func labelNarrow(l *cclabel.Labeler, f *imagegraph.Raster, rule imagegraph.Rule, conn int, bufs *LabelBuffers, rows func(int, []uint16) error) (*cclabel.RasterResult, error) {
	if rows != nil {
		dst := bufs.Get(f.Len())
		res, err := l.LabelRasterNarrowTo(f, rule, conn, dst, rows)
		if err != nil || res.Labels.Data == nil {
			bufs.Put(dst)
		}
		return res, err
	}
	dst, dst16 := bufs.Get(f.Len()), bufs.Get16(f.Len())
	res, err := l.LabelRasterNarrow(f, rule, conn, dst, dst16)
	if err != nil || res.Narrow == nil {
		bufs.Put16(dst16)
	}
	if err != nil || res.Narrow != nil {
		bufs.Put(dst)
	}
	return res, err
}

// NarrowWrites reports whether uint16 labels serve a volume's outputs well.
// That is whether the outputs can be written from uint16 labels
// ([VolumeLabels.Narrow]) as fast as from uint32 ones: one label volume
// (.nii, .nii.gz or .npy, written as labels are served) and no preview,
// statistics or contacts, which need uint32 labels.
func NarrowWrites(out VolumeOutputs, dtype string) bool {
	if out.Preview != "" || out.Stats != "" || out.Contacts != "" || dtype != "auto" && dtype != "uint16" || out.Output == "" && out.Labels == "" {
		return false
	}
	// Not NRRD, which is written from uint32 labels only.
	return (out.Output == "" || formats.StreamsLabels(out.Output)) && (out.Labels == "" || formats.StreamsLabels(out.Labels))
}

// WriteVolume writes the outputs of a labeled volume under s. These are the
// label volumes (of type s.DType: auto, uint16 or uint32), the preview, the
// statistics (measuring what s.Measures asks for) and the contacts.
func WriteVolume(out VolumeOutputs, vol *imagegraph.Volume, vl *VolumeLabels, s Settings) error {
	dtype := s.DType
	frames := vl.Frames
	if vl.Narrow != nil && !NarrowWrites(out, dtype) {
		frames = [][]uint32{widen(vl.Narrow)}
	}
	for _, path := range []string{out.Output, out.Labels} {
		if path == "" {
			continue
		}
		var err error
		if frames[0] == nil { // uint16 labels, served to the writer as it asks
			err = formats.WriteVolumeLabelsFunc(path, vol, uint32(vl.Total), dtype, readNarrow(vl.Narrow))
		} else {
			err = formats.WriteVolumeLabels(path, vol, frames, dtype)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	f0 := vol.Frames[0]
	if out.Preview != "" {
		img, err := render.VolumePreview(frames[PreviewFrame], f0.Width, f0.Height, f0.Depth, vol.Spacing)
		if err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
		text := ""
		if len(frames) > 1 {
			text = previewText(len(frames))
		}
		if err := writeOutput(out.Preview, nil, func(w io.Writer) error { return render.WritePNGText(w, img, "Description", text) }); err != nil {
			return fmt.Errorf("%s: %w", out.Input, err)
		}
	}
	if out.Stats == "" && out.Contacts == "" {
		return nil
	}
	in := out
	if vl.Measured != nil { // the intensity was measured already
		in.Stats = ""
	}
	iv, release, err := volumeIntensity(in, vol, s)
	if err != nil {
		return err
	}
	defer release()
	// One frame's statistics at a time; labels are numbered from 1 in
	// every frame.
	frame := func(t int) (frameInput, error) {
		f := volumeFrame(vol, iv, frames, vl.PerFrame, t)
		if vl.Measured != nil {
			f.measured = vl.Measured[t]
		}
		return f, nil
	}
	o := formats.StatsOptions{Is3D: true, Affine: &vol.Affine, Frames: len(frames), Perimeter: f0.Depth == 1}
	return writeTables(out.Input, out.Stats, out.Contacts, nil, frame, o, s)
}

// volumeIntensity returns the intensity volume of out's statistics
// ([intensityOf]), with release to call when done.
func volumeIntensity(out VolumeOutputs, vol *imagegraph.Volume, s Settings) (*imagegraph.Volume, func(), error) {
	return intensityOf(out.Input, out.Stats, out.Intensity, vol, s, func(p string) (*imagegraph.Volume, func(), error) {
		return formats.MapVolumeFileStreaming(p, nil, nil)
	})
}

// volumeFrame returns what frame t of vol is measured from: its labels
// frames[t], counts[t] components (the largest label when counts has no
// entry for it), and its intensity from iv (none when nil).
func volumeFrame(vol *imagegraph.Volume, iv *imagegraph.Volume, frames [][]uint32, counts []int, t int) frameInput {
	f0 := vol.Frames[0]
	count := 0
	if t < len(counts) {
		count = counts[t]
	} else {
		count = int(parallel.Max(frames[t]))
	}
	f := frameInput{values: vol.Frames[t], spacing: [3]float64{math.Abs(vol.Spacing[0]), math.Abs(vol.Spacing[1]), math.Abs(vol.Spacing[2])},
		labels: &imagegraph.Labels{Width: f0.Width, Height: f0.Height, Depth: f0.Depth, Data: frames[t], Count: count}}
	if iv != nil {
		f.intensity, f.slope, f.inter = iv.Frames[min(t, len(iv.Frames)-1)], iv.Slope, iv.Inter
	}
	return f
}

// PreviewFrame is the frame whose mid-slices a volume's preview shows. It is
// counted from 0.
const PreviewFrame = 0

// PreviewNote returns the line that says which frame a volume's preview
// shows. The volume has frames frames, and the line reads, for instance,
// "preview p.png shows frame 0 of 3"; it is "" when out writes no preview or
// the volume has a single frame. The preview itself says so too, in a PNG
// text chunk.
func PreviewNote(out VolumeOutputs, frames int) string {
	if out.Preview == "" || frames < 2 {
		return ""
	}
	return fmt.Sprintf("preview %s shows %s", out.Preview, previewText(frames))
}

// previewText says which frame of frames frames a preview shows.
func previewText(frames int) string {
	return fmt.Sprintf("frame %d of %d", PreviewFrame, frames)
}

// widen returns uint16 labels as uint32.
func widen(narrow []uint16) []uint32 {
	wide := make([]uint32, len(narrow))
	parallel.Ranges(len(narrow), runtime.GOMAXPROCS(0), func(lo, hi int) {
		for i, v := range narrow[lo:hi] {
			wide[lo+i] = uint32(v)
		}
	})
	return wide
}

// readNarrow serves uint16 labels to a writer that asks for uint32 ones
// (formats.WriteVolumeLabelsFunc), from any goroutine.
func readNarrow(narrow []uint16) func(dst []uint32, voxel int64) error {
	return func(dst []uint32, voxel int64) error {
		if voxel < 0 || voxel+int64(len(dst)) > int64(len(narrow)) {
			return fmt.Errorf("labels %d..%d asked of %d", voxel, voxel+int64(len(dst)), len(narrow))
		}
		for i, v := range narrow[voxel : voxel+int64(len(dst))] {
			dst[i] = uint32(v)
		}
		return nil
	}
}
