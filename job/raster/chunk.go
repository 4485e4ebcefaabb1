package raster

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/slabs"
)

// ChunkVersion is the version of the chunk files [LabelChunk] writes.
const ChunkVersion = slabs.ChunkVersion

// Chunk describes one chunk of a volume labeled by [LabelChunk], for [Merge]
// ([slabs.Chunk]).
type Chunk = slabs.Chunk

// MissingChunksError reports chunks [Merge] did not find in the folder
// ([slabs.MissingChunksError]).
type MissingChunksError = slabs.MissingChunksError

// LabelChunk labels one chunk of the volume file input into dir. The chunk is
// chunk index of chunks (planes split evenly); its labels and description go
// into dir (chunk-IIIII.labels and chunk-IIIII.json), for [Merge]. It holds
// what [LabelOutOfCore] holds for the chunk's planes (opts.MaxMemory; the
// whole chunk as one slab when neither it nor opts.SlabPlanes is set).
func LabelChunk(input string, rawOpts *formats.RawOptions, dir string, index, chunks int, opts OutOfCoreOptions) (*Chunk, *OutOfCoreResult, error) {
	if err := imagegraph.ValidConnectivity(opts.Connectivity, true); err != nil {
		return nil, nil, err
	}
	if err := opts.Rule.Validate(); err != nil {
		return nil, nil, err
	}
	s, ref, err := formats.OpenVolumeStream(input, rawOpts)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	if chunks < 1 || index < 0 || index >= chunks || chunks > s.Depth {
		return nil, nil, fmt.Errorf("outofcore: chunk %d/%d of a volume of %d planes", index, chunks, s.Depth)
	}
	z0, z1 := slabs.ChunkPlanes(index, chunks, s.Depth)
	res := &OutOfCoreResult{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind, Format: ref.Format,
		Rule: opts.Rule, Connectivity: opts.Connectivity}
	thick := z1 - z0
	switch plane := s.Width * s.Height; {
	case opts.SlabPlanes > 0:
		thick = min(thick, opts.SlabPlanes)
	case opts.MaxMemory > 0:
		p, err := Plan(opts.MaxMemory, plane, s.Kind.Size())
		if err != nil {
			return nil, nil, err
		}
		thick = min(thick, p)
	}
	res.SlabPlanes = thick
	start := time.Now()
	if err := s.Skip(z0); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", input, err)
	}
	res.Read += time.Since(start)
	rule := opts.Rule
	rule.Slope, rule.Inter = ref.Slope, ref.Inter
	sp, out, err := labelRange(s, z1-z0, rule, opts, thick, res)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", input, err)
	}
	defer sp.Close()
	res.Count, res.Slabs = out.Count, out.Slabs
	c := &Chunk{Version: ChunkVersion, Input: filepath.Base(input), Width: s.Width, Height: s.Height, Depth: s.Depth,
		Kind: s.Kind.String(), Rule: opts.Rule.String(), Connectivity: opts.Connectivity, Index: index, Chunks: chunks,
		Z0: z0, Z1: z1, Count: out.Count, Labels: slabs.ChunkName(index) + ".labels"}
	start = time.Now()
	// The labels and their description appear together, or neither.
	g, err := atomicfile.NewGroup(filepath.Join(dir, c.Labels), filepath.Join(dir, slabs.ChunkName(index)+".json"))
	if err != nil {
		return nil, nil, fmt.Errorf("outofcore: %w", err)
	}
	defer g.Abort()
	voxels := int64(z1-z0) * int64(s.Width) * int64(s.Height)
	err = slabs.WriteChunkLabels(filepath.Join(dir, c.Labels), voxels, sp.ReadLabels)
	if err != nil {
		return nil, nil, fmt.Errorf("outofcore: %w", err)
	}
	desc, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	err = atomicfile.WriteFile(filepath.Join(dir, slabs.ChunkName(index)+".json"), func(w io.Writer) error {
		_, err := w.Write(append(desc, '\n'))
		return err
	})
	if err == nil {
		err = g.Commit()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("outofcore: %w", err)
	}
	res.Write = time.Since(start)
	return c, res, nil
}

// Merge joins the chunks [LabelChunk] wrote and writes the volume's labels.
// It joins the chunks in dir for the volume file input and writes the labels
// to output (.nii, .nii.gz or .npy): the labels [LabelOutOfCore] gives, bit
// for bit. It reads the input once for the planes at the chunks' seams and
// holds two planes per seam and the union-find over the chunks' labels.
func Merge(input string, rawOpts *formats.RawOptions, dir, output string, dtype string) (*OutOfCoreResult, error) {
	if err := checkOutput(output, dtype); err != nil {
		return nil, err
	}
	s, ref, err := formats.OpenVolumeStream(input, rawOpts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	chunks, err := slabs.ReadChunks(dir, s.Width, s.Height, s.Depth, s.Kind)
	if err != nil {
		return nil, err
	}
	rule, err := imagegraph.ParseRule(chunks[0].Rule)
	if err != nil {
		return nil, fmt.Errorf("outofcore: %w", err)
	}
	rule.Slope, rule.Inter = ref.Slope, ref.Inter
	conn := chunks[0].Connectivity
	res := &OutOfCoreResult{Width: s.Width, Height: s.Height, Depth: s.Depth, Kind: s.Kind, Format: ref.Format, Slabs: len(chunks),
		Rule: rule, Connectivity: conn}
	files := make([]*os.File, len(chunks))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	plane := s.Width * s.Height
	for i, c := range chunks {
		f, err := os.Open(filepath.Join(dir, c.Labels))
		if err != nil {
			return nil, fmt.Errorf("outofcore: %w", err)
		}
		files[i] = f
		if st, err := f.Stat(); err != nil || st.Size() != 4*int64(c.Z1-c.Z0)*int64(plane) {
			return nil, fmt.Errorf("outofcore: %s does not hold the chunk's %d planes of labels", c.Labels, c.Z1-c.Z0)
		}
	}
	start := time.Now()
	m, err := joinChunks(s, chunks, files, rule, conn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input, err)
	}
	res.Label = time.Since(start)
	res.Count = m.Count
	starts := make([]int64, len(chunks))
	for i, c := range chunks {
		starts[i] = int64(c.Z0) * int64(plane)
	}
	read := func(dst []uint32, voxel int64) error {
		for len(dst) > 0 {
			k := sort.Search(len(starts), func(i int) bool { return starts[i] > voxel }) - 1
			end := int64(chunks[k].Z1) * int64(plane)
			part := dst[:min(int64(len(dst)), end-voxel)]
			if err := slabs.ReadChunkLabels(files[k], part, 4*(voxel-starts[k])); err != nil {
				return fmt.Errorf("outofcore: %s: %w", chunks[k].Labels, err)
			}
			if err := m.Map(k, part); err != nil {
				return err
			}
			dst, voxel = dst[len(part):], voxel+int64(len(part))
		}
		return nil
	}
	start = time.Now()
	if err := formats.WriteVolumeLabelsFunc(output, ref, uint32(m.Count), cmp.Or(dtype, "auto"), read); err != nil {
		return nil, err
	}
	res.Write = time.Since(start)
	return res, nil
}

// chunkEnds gives [slabs.Join] the chunks' end planes: the input's
// samples, streamed in order, and the labels of the chunk files.
type chunkEnds struct {
	s      *raw.Stream
	chunks []*Chunk
	files  []*os.File
}

func (e chunkEnds) Slabs() int { return len(e.chunks) }

// Ends reads chunk i's first and last planes and their labels. A chunk of one
// plane gives that plane once.
func (e chunkEnds) Ends(i int, ends *imagegraph.Raster, labels []uint32) (k, count int, err error) {
	c := e.chunks[i]
	plane := c.Width * c.Height
	k = min(2, c.Z1-c.Z0)
	first, _ := slabs.Planes(ends, 0, 1)
	if err := e.s.Skip(c.Z0 - e.s.Planes()); err != nil {
		return 0, 0, err
	}
	if err := e.s.ReadPlanes(first); err != nil {
		return 0, 0, err
	}
	if err := slabs.ReadChunkLabels(e.files[i], labels[:plane], 0); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", c.Labels, err)
	}
	if k == 2 {
		last, _ := slabs.Planes(ends, 1, 2)
		if err := e.s.Skip(c.Z1 - 1 - e.s.Planes()); err != nil {
			return 0, 0, err
		}
		if err := e.s.ReadPlanes(last); err != nil {
			return 0, 0, err
		}
		if err := slabs.ReadChunkLabels(e.files[i], labels[plane:2*plane], 4*int64(c.Z1-c.Z0-1)*int64(plane)); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", c.Labels, err)
		}
	}
	return k, c.Count, nil
}

// joinChunks joins the chunks' labels at their seams.
func joinChunks(s *raw.Stream, chunks []*Chunk, files []*os.File, rule imagegraph.Rule, conn int) (*slabs.Relabeling, error) {
	// ReadChunks checked that the chunks are of the stream's shape and kind.
	return slabs.Join(chunkEnds{s, chunks, files}, s.Width, s.Height, s.Kind, cclabel.CPULabelFunc(rule, conn, 1))
}
