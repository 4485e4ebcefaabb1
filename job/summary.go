package job

import (
	"cmp"
	"time"

	"github.com/cclabel/cclabel"
)

// ImageSummary describes a labeled image, as "cclabel label --json" prints it.
type ImageSummary struct {
	Input        string      `json:"input"`
	Width        int         `json:"width"`
	Height       int         `json:"height"`
	Depth        int         `json:"depth,omitempty"`
	Components   int         `json:"components"`
	Connectivity int         `json:"connectivity"`
	Mode         string      `json:"mode"`
	Backend      string      `json:"backend"`
	Threads      int         `json:"threads"`
	Seconds      StageTimes  `json:"seconds"`
	LabelStages  LabelStages `json:"label_seconds"`
	GPU          *GPUTimes   `json:"gpu_seconds,omitempty"`
}

// VolumeSummary describes one labeled volume, chunk or merge. It is what
// "cclabel volume --json" and "cclabel merge --json" print.
type VolumeSummary struct {
	Input        string      `json:"input"`
	Format       string      `json:"format"`
	Width        int         `json:"width"`
	Height       int         `json:"height"`
	Depth        int         `json:"depth"`
	Frames       int         `json:"frames"`
	Components   int         `json:"components"`
	PerFrame     []int       `json:"components_per_frame,omitempty"`
	PreviewFrame *int        `json:"preview_frame,omitempty"` // the frame a 4D volume's preview shows
	Connectivity int         `json:"connectivity"`
	Mode         string      `json:"mode"`
	Backend      string      `json:"backend"`
	Threads      int         `json:"threads"`
	Seconds      StageTimes  `json:"seconds"`
	LabelStages  LabelStages `json:"label_seconds"`         // summed over frames
	GPU          *GPUTimes   `json:"gpu_seconds,omitempty"` // summed over frames
	// Slabs and SlabPlanes describe an out-of-core run (Volume.MaxMemory).
	Slabs      int `json:"slabs,omitempty"`
	SlabPlanes int `json:"slab_planes,omitempty"`
	// Chunk is i/n for a [Chunk] run, ChunkPlanes its planes [z0, z1).
	Chunk       string `json:"chunk,omitempty"`
	ChunkPlanes []int  `json:"chunk_planes,omitempty"`
}

// StageTimes are the seconds a file spent per stage.
type StageTimes struct {
	Read  float64 `json:"read"`
	Label float64 `json:"label"`
	Write float64 `json:"write"`
	Total float64 `json:"total"`
}

// GPUTimes are the seconds of the GPU stages.
type GPUTimes struct {
	Upload   float64 `json:"upload"`
	Kernel   float64 `json:"kernel"`
	Download float64 `json:"download"`
}

// gpuTimesOf returns the GPU stages of a labeling call, nil when it ran on
// the CPU.
func gpuTimesOf(backend cclabel.Backend, t cclabel.Timing) *GPUTimes {
	if backend != cclabel.BackendGPU {
		return nil
	}
	return &GPUTimes{t.Upload.Seconds(), t.Kernel.Seconds(), t.Download.Seconds()}
}

// LabelStages split the label stage's seconds into its parts. These are the
// GPU's start (first GPU file only), allocating and first touching the label
// buffer, the copies and the labeling itself, and the joining of slabs, and
// the rest (size filters, renumbering, checks outside the labeling call).
type LabelStages struct {
	GPUSetup float64 `json:"gpu_setup"`
	Allocate float64 `json:"allocate"`
	Upload   float64 `json:"upload"`
	Kernel   float64 `json:"kernel"`
	Download float64 `json:"download"`
	// Join is joining the slabs of a volume labeled in parts (past the
	// kernels' reach, or on several GPUs) and relabeling them.
	Join  float64 `json:"join,omitempty"`
	Other float64 `json:"other"`
	// WhileReading is labeling done while the input was still being read
	// (volumes on the CPU): not part of the label stage.
	WhileReading float64 `json:"while_reading,omitempty"`
	// Measure is measuring the components as they were labeled
	// (--stats-only where the GPU labels): on the GPU the intensity's
	// upload, the kernels and the table's download, on the CPU the
	// kernel alone; not counted in the other parts.
	Measure *GPUTimes `json:"measure,omitempty"`
}

// labelStagesOf splits a label stage of label seconds by the labeling
// calls' summed timing t and the measuring of the rasters measured as
// they were labeled, if any (nils are none).
func labelStagesOf(label float64, t cclabel.Timing, measured ...*cclabel.MeasuredRaster) LabelStages {
	s := LabelStages{GPUSetup: t.Setup.Seconds(), Allocate: t.Allocate.Seconds(), Upload: t.Upload.Seconds(),
		Kernel: t.Kernel.Seconds(), Download: t.Download.Seconds(), Join: t.Join.Seconds()}
	for _, m := range measured {
		if m != nil {
			s.Measure = cmp.Or(s.Measure, &GPUTimes{})
			s.Measure.Upload += m.Measure.Upload.Seconds()
			s.Measure.Kernel += m.Measure.Kernel.Seconds()
			s.Measure.Download += m.Measure.Download.Seconds()
			label -= (m.Measure.Upload + m.Measure.Kernel + m.Measure.Download).Seconds()
		}
	}
	s.Other = max(0, label-(s.GPUSetup+s.Allocate+s.Upload+s.Kernel+s.Download+s.Join))
	return s
}

// stopwatch measures the stages of a job.
type stopwatch struct{ start, last time.Time }

func newStopwatch() *stopwatch {
	now := time.Now()
	return &stopwatch{start: now, last: now}
}

// lap returns the seconds since the previous lap.
func (s *stopwatch) lap() float64 {
	now := time.Now()
	d := now.Sub(s.last).Seconds()
	s.last = now
	return d
}

// total returns the seconds since the stopwatch started.
func (s *stopwatch) total() float64 { return time.Since(s.start).Seconds() }
