package raster

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/formats/raw"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
	"github.com/cclabel/cclabel/slabs"
)

// ChunkVersion is the version of the chunk files [LabelChunk] writes.
const ChunkVersion = 1

// Chunk describes one chunk of a volume labeled by [LabelChunk]. The chunk is
// planes Z0..Z1-1, labeled 1..Count by first occurrence within the chunk, in
// the file Labels beside the chunk's JSON file: little-endian uint32 labels,
// x fastest, no header.
type Chunk struct {
	Version int `json:"version"`
	// Input is the labeled file's base name; Width, Height, Depth and Kind
	// its shape and sample type.
	Input  string `json:"input"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Depth  int    `json:"depth"`
	Kind   string `json:"kind"`
	// Rule and Connectivity are the labeling's.
	Rule         string `json:"rule"`
	Connectivity int    `json:"connectivity"`
	// Index of Chunks; planes Z0..Z1-1.
	Index  int `json:"index"`
	Chunks int `json:"chunks"`
	Z0     int `json:"z0"`
	Z1     int `json:"z1"`
	// Count is the number of components within the chunk.
	Count int `json:"count"`
	// Labels is the name of the label file.
	Labels string `json:"labels"`
}

// chunkPlanes returns the planes of chunk i of n of a volume of depth d.
func chunkPlanes(i, n, d int) (z0, z1 int) {
	return int(int64(i) * int64(d) / int64(n)), int(int64(i+1) * int64(d) / int64(n))
}

// chunkName is the base name of chunk i's files.
func chunkName(i int) string { return fmt.Sprintf("chunk-%05d", i) }

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
	z0, z1 := chunkPlanes(index, chunks, s.Depth)
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
		Z0: z0, Z1: z1, Count: out.Count, Labels: chunkName(index) + ".labels"}
	start = time.Now()
	// The labels and their description appear together, or neither.
	g, err := atomicfile.NewGroup(filepath.Join(dir, c.Labels), filepath.Join(dir, chunkName(index)+".json"))
	if err != nil {
		return nil, nil, fmt.Errorf("outofcore: %w", err)
	}
	defer g.Abort()
	voxels := int64(z1-z0) * int64(s.Width) * int64(s.Height)
	err = writeLittleEndian(filepath.Join(dir, c.Labels), voxels, sp.ReadLabels)
	if err != nil {
		return nil, nil, fmt.Errorf("outofcore: %w", err)
	}
	desc, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	err = atomicfile.WriteFile(filepath.Join(dir, chunkName(index)+".json"), func(w io.Writer) error {
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

// writeLittleEndian writes n labels from read as little-endian uint32 to
// the file at path, its pieces read and packed on all cores
// ([atomicfile.WriteFileAt]; read is called from several goroutines at
// once).
func writeLittleEndian(path string, n int64, read func(dst []uint32, voxel int64) error) error {
	scratch := sync.Pool{New: func() any { s := make([]uint32, atomicfile.ChunkBytes/4); return &s }}
	return atomicfile.WriteFileAt(path, 4*n, 0, func(dst []byte, off int64) error {
		buf := scratch.Get().(*[]uint32)
		defer scratch.Put(buf)
		labels := (*buf)[:len(dst)/4]
		if err := read(labels, off/4); err != nil {
			return err
		}
		for i, l := range labels {
			binary.LittleEndian.PutUint32(dst[4*i:4*i+4:4*i+4], l)
		}
		return nil
	})
}

// readChunks reads and checks the chunk descriptions in dir against the
// input's stream.
func readChunks(dir string, width, height, depth int, kind imagegraph.SampleKind) ([]*Chunk, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "chunk-*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("outofcore: no chunk-*.json in %s", dir)
	}
	var chunks []*Chunk
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("outofcore: %w", err)
		}
		var c Chunk
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("outofcore: %s: %w", p, err)
		}
		chunks = append(chunks, &c)
	}
	sort.Slice(chunks, func(a, b int) bool { return chunks[a].Index < chunks[b].Index })
	first := chunks[0]
	if first.Chunks < 1 || first.Chunks > depth {
		return nil, fmt.Errorf("outofcore: chunk %d says %d chunks of a volume of %d planes", first.Index, first.Chunks, depth)
	}
	if err := imagegraph.ValidConnectivity(first.Connectivity, true); err != nil {
		return nil, fmt.Errorf("outofcore: chunk %d: %w", first.Index, err)
	}
	for i, c := range chunks {
		if c.Index < 0 || c.Index >= first.Chunks || (i > 0 && c.Index == chunks[i-1].Index) {
			return nil, fmt.Errorf("outofcore: chunk index %d repeated or out of 0..%d", c.Index, first.Chunks-1)
		}
	}
	if missing := missingChunks(chunks, first.Chunks); len(missing) > 0 {
		return nil, &MissingChunksError{Dir: dir, Chunks: first.Chunks, Missing: missing}
	}
	for i, c := range chunks {
		switch {
		case c.Labels != chunkName(c.Index)+".labels":
			return nil, fmt.Errorf("outofcore: chunk %d names its labels %q, want %q", c.Index, c.Labels, chunkName(c.Index)+".labels")
		case c.Version != ChunkVersion:
			return nil, fmt.Errorf("outofcore: chunk %d: version %d, want %d", c.Index, c.Version, ChunkVersion)
		case c.Width != width || c.Height != height || c.Depth != depth || c.Kind != kind.String():
			return nil, fmt.Errorf("outofcore: chunk %d is of a %dx%dx%d %s volume, the input is %dx%dx%d %s",
				c.Index, c.Width, c.Height, c.Depth, c.Kind, width, height, depth, kind)
		case c.Rule != first.Rule || c.Connectivity != first.Connectivity || c.Chunks != first.Chunks || c.Input != first.Input:
			return nil, fmt.Errorf("outofcore: chunk %d was labeled otherwise than chunk %d (input, rule, connectivity or chunk count)", c.Index, first.Index)
		}
		if z0, z1 := chunkPlanes(i, c.Chunks, depth); c.Z0 != z0 || c.Z1 != z1 || c.Count < 0 || int64(c.Count) > int64(z1-z0)*int64(width)*int64(height) {
			return nil, fmt.Errorf("outofcore: chunk %d covers planes %d..%d with %d labels, want planes %d..%d", i, c.Z0, c.Z1-1, c.Count, z0, z1-1)
		}
	}
	return chunks, nil
}

// MissingChunksError reports chunks [Merge] did not find in the folder. It is
// [Merge]'s error when chunks of the volume were not labeled into the folder.
type MissingChunksError struct {
	Dir     string
	Chunks  int   // the chunk count
	Missing []int // the missing indices, ascending
}

func (e *MissingChunksError) Error() string {
	idx := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		idx[i] = strconv.Itoa(m)
	}
	return fmt.Sprintf("outofcore: %d of %d chunks missing from %s: chunk %s (label each with 'cclabel volume --chunk I/%d')",
		len(e.Missing), e.Chunks, e.Dir, strings.Join(idx, ", "), e.Chunks)
}

// missingChunks returns the indices in 0..n-1 that no chunk has; chunks
// are sorted by index, without repeats.
func missingChunks(chunks []*Chunk, n int) []int {
	var missing []int
	next := 0
	for _, c := range chunks {
		for ; next < c.Index; next++ {
			missing = append(missing, next)
		}
		next = c.Index + 1
	}
	for ; next < n; next++ {
		missing = append(missing, next)
	}
	return missing
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
	chunks, err := readChunks(dir, s.Width, s.Height, s.Depth, s.Kind)
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
			if err := readLittleEndian(files[k], part, 4*(voxel-starts[k])); err != nil {
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
	if err := readLittleEndian(e.files[i], labels[:plane], 0); err != nil {
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
		if err := readLittleEndian(e.files[i], labels[plane:2*plane], 4*int64(c.Z1-c.Z0-1)*int64(plane)); err != nil {
			return 0, 0, fmt.Errorf("%s: %w", c.Labels, err)
		}
	}
	return k, c.Count, nil
}

// joinChunks joins the chunks' labels at their seams.
func joinChunks(s *raw.Stream, chunks []*Chunk, files []*os.File, rule imagegraph.Rule, conn int) (*slabs.Relabeling, error) {
	c0 := chunks[0]
	kind, err := kindOf(c0.Kind)
	if err != nil {
		return nil, err
	}
	return slabs.Join(chunkEnds{s, chunks, files}, c0.Width, c0.Height, kind, cclabel.CPULabelFunc(rule, conn, 1))
}

// readLittleEndian reads len(dst) little-endian uint32 labels at byte
// offset off of f.
func readLittleEndian(f *os.File, dst []uint32, off int64) error {
	b := bytesOf(dst)
	if _, err := f.ReadAt(b, off); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the label file is shorter than its chunk")
		}
		return err
	}
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return nil
}

// kindOf parses a sample kind's name.
func kindOf(name string) (imagegraph.SampleKind, error) {
	for k := imagegraph.Uint8; k <= imagegraph.RGB; k++ {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("outofcore: unknown sample kind %q", name)
}
