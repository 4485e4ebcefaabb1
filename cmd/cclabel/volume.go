package main

import (
	"cmp"
	"context"
	"fmt"
	"os"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/internal/fileprogress"
	"github.com/cclabel/cclabel/labelfile"
	"github.com/urfave/cli/v3"
)

// volumeCommand is "cclabel volume".
func volumeCommand(std stdio) *cli.Command {
	flags := labelingFlags(26, "6, 18 or 26 (a 2D file uses 4 for 6, 8 otherwise)")
	flags = append(flags,
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, TakesFile: true,
			Usage: "label volume: .nii, .nii.gz, .nrrd or .npy (geometry kept); with several inputs, an existing folder"},
		&cli.StringFlag{Name: "labels", TakesFile: true, Usage: "a second label volume output, any of -o's formats"},
		&cli.StringFlag{Name: "preview", TakesFile: true, Usage: "colour montage of the axial, coronal and sagittal mid-slices (.png)"},
		&cli.StringFlag{Name: "dtype", Value: "auto", Usage: "label type: auto (uint16 when it fits, else uint32), uint16 or uint32"},
		&cli.StringFlag{Name: "shape", Usage: "raw input: X,Y,Z"},
		&cli.StringFlag{Name: "raw-dtype", Usage: "raw input sample type (uint8, int16, float32, ...)"},
		&cli.BoolFlag{Name: "big-endian", Usage: "raw input is big-endian"},
		maxMemoryFlag,
		&cli.StringFlag{Name: "gpus", Usage: "spread each volume over N GPUs (or a list of ordinals such as 0,1): a range of planes per GPU, labeled at once, joined at the seams; the labels of one GPU"},
		quietFlag,
	)
	flags = append(flags, chunkFlags...)
	return &cli.Command{
		Name:      "volume",
		Usage:     "label the connected components of 3D volumes",
		ArgsUsage: "VOLUME...",
		Description: "VOLUME is NIfTI-1/2 (.nii, .nii.gz, .hdr/.img), NRRD (.nrrd, .nhdr), a multi-page TIFF (pages are z), " +
			"a folder of 2D slices (sorted by name), a 3D .npy, or raw data with --shape and --raw-dtype. 4D NIfTI is " +
			"labeled frame by frame, numbering restarting in each frame. Thresholds apply to NIfTI-scaled values. " +
			"Label volumes keep the input's geometry; with several inputs -o is a folder and outputs are named " +
			"after the inputs in the input's family (.nii.gz, .nrrd, else .npy).",
		OnUsageError: onUsageError,
		Flags:        flags,
		Action:       func(_ context.Context, cmd *cli.Command) error { return runVolume(cmd, std) },
	}
}

// volumeSummary is the --json object of one labeled volume.
type volumeSummary struct {
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
	Seconds      stageTimes  `json:"seconds"`
	LabelStages  labelStages `json:"label_seconds"`         // summed over frames
	GPU          *gpuTimes   `json:"gpu_seconds,omitempty"` // summed over frames
	// Slabs and SlabPlanes describe an out-of-core run (--max-memory).
	Slabs      int `json:"slabs,omitempty"`
	SlabPlanes int `json:"slab_planes,omitempty"`
	// Chunk is i/n for a --chunk run, ChunkPlanes its planes [z0, z1).
	Chunk       string `json:"chunk,omitempty"`
	ChunkPlanes []int  `json:"chunk_planes,omitempty"`
}

// runVolume labels every input volume.
func runVolume(cmd *cli.Command, std stdio) error {
	if cmd.NArg() == 0 {
		return usagef("volume: want at least one VOLUME")
	}
	settings, err := labelSettingsFromFlags(cmd, "volume", "auto", "uint16", "uint32")
	if err != nil {
		return err
	}
	labeler, err := newLabeler(cmd, std.Err)
	if err != nil {
		return err
	}
	defer labeler.Close()
	conn := cmd.Int("connectivity")
	if conn != 6 && conn != 18 && conn != 26 {
		return usagef("volume: --connectivity %d: want 6, 18 or 26 (use 'cclabel label' for 2D images)", conn)
	}
	raw, err := rawOptions(cmd)
	if err != nil {
		return err
	}
	chunk, chunked, err := chunkFromFlags(cmd)
	if err != nil {
		return err
	}
	var jobs []labelfile.VolumeOutputs
	if chunked { // -o is a folder
		if cmd.NArg() != 1 {
			return usagef("volume: --chunk takes a single input")
		}
		jobs = []labelfile.VolumeOutputs{{Input: cmd.Args().First(), Output: cmd.String("output"), Labels: cmd.String("labels"),
			Preview: cmd.String("preview"), Stats: cmd.String("stats")}}
	} else if jobs, err = planVolumeJobs(cmd); err != nil {
		return err
	}
	maxMemory, err := maxMemoryFromFlags(cmd)
	if err != nil {
		return err
	}
	if maxMemory > 0 && len(jobs) > 1 && outOfCoreNames(jobs, raw, maxMemory) {
		if err := checkClobber("volume", inputFiles(cmd.Args().Slice()...), volumeOutputFiles(jobs)); err != nil {
			return err
		}
	}
	quiet := cmd.Bool("quiet")
	outputs := func(job labelfile.VolumeOutputs) []string {
		if chunked { // a folder of chunk files, the last written marking it complete
			return nil
		}
		return []string{job.Output, job.Labels, job.Preview, job.Stats}
	}
	err = runJobs(jobs, cmd.Bool("json"), std, outputs, func(job labelfile.VolumeOutputs) (volumeSummary, error) {
		if chunked {
			return labelChunk(job, chunk, settings, conn, raw, labeler, maxMemory, std, quiet)
		}
		if maxMemory > 0 && !fitsInMemory(job, raw, maxMemory) {
			return labelVolumeOutOfCore(job, settings, conn, raw, labeler, maxMemory, std, fileBar(cmd, std, job.Input), quiet)
		}
		bar := fileBar(cmd, std, job.Input)
		defer bar.Close()
		return labelVolume(job, settings, conn, raw, labeler, std, bar, quiet)
	})
	if err == nil && !chunked && !quiet && cmd.String("output")+cmd.String("labels")+cmd.String("preview")+cmd.String("stats") == "" {
		fmt.Fprintln(std.Err, "cclabel: volume: nothing was written (give -o, --labels, --preview or --stats)")
	}
	return err
}

// rawOptions reads --shape, --raw-dtype and --big-endian.
func rawOptions(cmd *cli.Command) (*formats.RawOptions, error) {
	shape, dtype := cmd.String("shape"), cmd.String("raw-dtype")
	if shape == "" && dtype == "" {
		return nil, nil
	}
	if shape == "" || dtype == "" {
		return nil, usagef("volume: raw input needs both --shape X,Y,Z and --raw-dtype")
	}
	var o formats.RawOptions
	if _, err := fmt.Sscanf(shape, "%d,%d,%d", &o.Shape[0], &o.Shape[1], &o.Shape[2]); err != nil {
		return nil, usagef("volume: --shape %q: want X,Y,Z", shape)
	}
	o.DType, o.BigEndian = dtype, cmd.Bool("big-endian")
	return &o, nil
}

// planVolumeJobs checks the output flags before any work is done.
func planVolumeJobs(cmd *cli.Command) ([]labelfile.VolumeOutputs, error) {
	inputs := cmd.Args().Slice()
	out, labels, preview, stats := cmd.String("output"), cmd.String("labels"), cmd.String("preview"), cmd.String("stats")
	if len(inputs) == 1 {
		for _, c := range []struct{ flag, path string }{{"-o", out}, {"--labels", labels}} {
			if c.path != "" && !formats.IsLabelVolumePath(c.path) {
				return nil, usagef("%s %s: unknown extension (want .nii, .nii.gz, .nrrd or .npy)", c.flag, c.path)
			}
			if c.path != "" {
				if err := labelfile.CheckOutputDir(c.path); err != nil {
					return nil, err
				}
			}
		}
		if err := checkExt("--preview", preview, ".png"); err != nil {
			return nil, err
		}
		if err := checkExt("--stats", stats, ".csv", ".json"); err != nil {
			return nil, err
		}
		jobs := []labelfile.VolumeOutputs{{Input: inputs[0], Output: out, Labels: labels, Preview: preview, Stats: stats}}
		return jobs, checkClobber("volume", inputFiles(inputs...), volumeOutputFiles(jobs))
	}
	if out == "" {
		return nil, usagef("volume: with several inputs, give -o FOLDER for the outputs")
	}
	if st, err := os.Stat(out); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("-o %s: with several inputs, -o must be an existing folder", out)
	}
	if labels != "" {
		return nil, usagef("volume: --labels takes a single input; with several, -o FOLDER names the label volumes")
	}
	if err := cmp.Or(checkJustExt("--preview", preview, ".png"), checkJustExt("--stats", stats, ".csv", ".json")); err != nil {
		return nil, err
	}
	jobs, err := labelfile.VolumeOutputsIn(out, inputs, preview, stats)
	if err != nil {
		return nil, usagef("volume: %v", err)
	}
	return jobs, checkClobber("volume", inputFiles(inputs...), volumeOutputFiles(jobs))
}

// labelVolume reads, labels and writes one volume, showing its stages on
// bar (which may be nil); quiet drops the summary line.
func labelVolume(job labelfile.VolumeOutputs, settings labelfile.Settings, conn int, raw *formats.RawOptions, labeler *cclabel.Labeler, std stdio, bar *fileprogress.Bar, quiet bool) (volumeSummary, error) {
	var times stageTimes
	clock := newStopwatch()
	bar.Stage("reading", job.Input)
	// On the CPU, a NIfTI volume's first slabs are labeled while the rest
	// is still being read (labelfile.VolumeStream).
	stream := labelfile.NewVolumeStream(labeler, settings, conn)
	dst, stop := labelArrayFor(inPlace(job.Input, raw, labeler), func() (int, bool) { return formats.VolumeVoxels(job.Input, raw) })
	defer stop()
	stream.Into(dst)
	vol, release, err := formats.MapVolumeFileStreaming(job.Input, raw, stream.Samples)
	if err != nil {
		_, _ = stream.Finish(nil, err)
		return volumeSummary{}, err
	}
	defer release()
	times.Read = clock.lap()

	bar.Stage("labeling", labelWatch(vol)...)
	vl, err := stream.Finish(vol, nil)
	if err != nil {
		return volumeSummary{}, fmt.Errorf("%s: %w", job.Input, err)
	}
	times.Label = clock.lap()

	bar.Stage("writing", volumeWrites(job)...)
	if err := labelfile.WriteVolume(job, vol, vl, settings.DType); err != nil {
		return volumeSummary{}, err
	}
	times.Write = clock.lap()
	times.Total = clock.total()
	f0 := vol.Frames[0]
	s := volumeSummary{Input: job.Input, Format: vol.Format, Width: f0.Width, Height: f0.Height, Depth: f0.Depth,
		Frames: len(vol.Frames), Components: vl.Total, Connectivity: vl.Conn, Mode: settings.Rule.String(),
		Backend: string(vl.Backend), Threads: labeler.Threads(), Seconds: times,
		LabelStages: labelStagesOf(times.Label, vl.Timing)}
	s.LabelStages.WhileReading = vl.WhileReading.Seconds()
	if vl.GPU != nil {
		s.GPU = gpuTimesOf(cclabel.BackendGPU, *vl.GPU)
	}
	if len(vol.Frames) > 1 {
		s.PerFrame = vl.PerFrame
	}
	note := labelfile.PreviewNote(job, len(vol.Frames))
	if note != "" {
		f := labelfile.PreviewFrame
		s.PreviewFrame = &f
	}
	bar.Close()
	if quiet {
		return s, nil
	}
	fmt.Fprintf(std.Err, "%s: %dx%dx%d %s %s, %d frame(s), %d components [%s c%d, %s, %d threads]; read %.3fs, label %.3fs, write %.3fs\n",
		job.Input, s.Width, s.Height, s.Depth, f0.Kind, vol.Format, s.Frames, vl.Total, s.Mode, vl.Conn,
		s.Backend, s.Threads, times.Read, times.Label, times.Write)
	if note != "" {
		fmt.Fprintf(std.Err, "%s: %s\n", job.Input, note)
	}
	return s, nil
}
