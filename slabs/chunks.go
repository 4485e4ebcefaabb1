package slabs

import (
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

	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/internal/atomicfile"
)

// The chunk files keep the prefix "outofcore:" in their errors, as the
// messages users and scripts match always had it.

// ChunkVersion is the version of the chunk files that [Chunk] describes.
const ChunkVersion = 1

// Chunk describes one chunk of a volume labeled on its own (cclabel volume
// --chunk), for a later join of all the chunks ([Join]). The chunk is
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

// ChunkPlanes returns the planes of chunk i of n of a volume of depth d.
func ChunkPlanes(i, n, d int) (z0, z1 int) {
	return int(int64(i) * int64(d) / int64(n)), int(int64(i+1) * int64(d) / int64(n))
}

// ChunkName is the base name of chunk i's files.
func ChunkName(i int) string { return fmt.Sprintf("chunk-%05d", i) }

// WriteChunkLabels writes a chunk's label file: n labels from read as
// little-endian uint32 to the file at path, its pieces read and packed on all cores
// ([atomicfile.WriteFileAt]; read is called from several goroutines at
// once).
func WriteChunkLabels(path string, n int64, read func(dst []uint32, voxel int64) error) error {
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

// ReadChunks reads the chunk descriptions chunk-*.json in dir, sorted by
// index, and checks them against each other and against the input's shape
// and sample kind. It fails with a [*MissingChunksError] when chunks are
// missing.
func ReadChunks(dir string, width, height, depth int, kind imagegraph.SampleKind) ([]*Chunk, error) {
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
		case c.Labels != ChunkName(c.Index)+".labels":
			return nil, fmt.Errorf("outofcore: chunk %d names its labels %q, want %q", c.Index, c.Labels, ChunkName(c.Index)+".labels")
		case c.Version != ChunkVersion:
			return nil, fmt.Errorf("outofcore: chunk %d: version %d, want %d", c.Index, c.Version, ChunkVersion)
		case c.Width != width || c.Height != height || c.Depth != depth || c.Kind != kind.String():
			return nil, fmt.Errorf("outofcore: chunk %d is of a %dx%dx%d %s volume, the input is %dx%dx%d %s",
				c.Index, c.Width, c.Height, c.Depth, c.Kind, width, height, depth, kind)
		case c.Rule != first.Rule || c.Connectivity != first.Connectivity || c.Chunks != first.Chunks || c.Input != first.Input:
			return nil, fmt.Errorf("outofcore: chunk %d was labeled otherwise than chunk %d (input, rule, connectivity or chunk count)", c.Index, first.Index)
		}
		if z0, z1 := ChunkPlanes(i, c.Chunks, depth); c.Z0 != z0 || c.Z1 != z1 || c.Count < 0 || int64(c.Count) > int64(z1-z0)*int64(width)*int64(height) {
			return nil, fmt.Errorf("outofcore: chunk %d covers planes %d..%d with %d labels, want planes %d..%d", i, c.Z0, c.Z1-1, c.Count, z0, z1-1)
		}
	}
	return chunks, nil
}

// MissingChunksError reports chunks [ReadChunks] did not find in the folder:
// chunks of the volume that were not labeled into it.
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

// ReadChunkLabels reads len(dst) labels of a chunk's label file f, at byte
// offset off.
func ReadChunkLabels(f *os.File, dst []uint32, off int64) error {
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
