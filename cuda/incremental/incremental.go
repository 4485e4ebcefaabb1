package incremental

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/cclabel/cclabel/cuda"
	"github.com/cclabel/cclabel/cuda/internal/driver"
	"github.com/cclabel/cclabel/ecl/incremental"
	"github.com/cclabel/cclabel/imagegraph"
)

// Incremental is the GPU backend of [incremental.Connectivity].
//
// Its parent array is resident on the device. Batches of edges are
// uploaded through reused device buffers (and the context's pinned staging
// buffers) and hooked by kernels/ecl_incremental.cu, one edge per thread,
// with ECL-CC's compare-and-swap hooking of the larger root under the
// smaller and intermediate pointer jumping. Representatives are each
// component's smallest vertex, as on the CPU, and the component count is
// exact.
//
// An Incremental uses its [cuda.Context]'s methods, so it is not safe for
// concurrent use, nor beside other calls on the same Context.
// [Incremental.Close] frees its device memory.
type Incremental struct {
	c      *driver.Context
	n      int
	count  int64
	parent driver.Buffer
	// stat holds the hook count and the first bad pair of a pass.
	stat driver.Buffer
	// us and vs receive a chunk of a batch; capacity is their size in
	// vertices.
	us, vs   driver.Buffer
	capacity int
	// dirty records hooks since the last compress pass.
	dirty bool
	// giant is the bitmap of the vertices in the component that the last
	// compress pass found largest (kernels/ecl_incremental.cu), valid
	// after a compress pass with giantFilter set.
	giant                   driver.Buffer
	giantFilter, giantValid bool
	// maxChunk bounds the edges uploaded at once; passEdges the edges
	// hooked between two compress passes of one chunk (0: one pass).
	maxChunk, passEdges int
	last                cuda.Timing
	scratch             []int32 // ConnectedBatch's answers as words
	start, end          driver.Event
}

var _ incremental.Connectivity = (*Incremental)(nil)

const (
	// threadsPerBlock is the thread block size of the incremental kernels.
	threadsPerBlock = 256
	// incNoBad is the kernels' IncNoBad: no pair out of range.
	incNoBad = math.MaxInt32
	// incMaxChunk is the default bound on the edges uploaded at once
	// (1 GiB of device memory for both endpoints).
	incMaxChunk = 1 << 27
	// incCompressShare: a pass over m items compresses the tree first
	// when it holds hooks since the last compress and m·incCompressShare
	// reaches the vertex count (the compress pass reads every vertex).
	incCompressShare = 8
)

// New returns an [Incremental] of n isolated vertices on the device of ctx.
func New(ctx *cuda.Context, n int) (*Incremental, error) {
	c := ctx.Driver()
	if n < 0 || n > imagegraph.MaxKernelVoxels {
		return nil, fmt.Errorf("cuda: incremental: vertex count %d out of range [0, %d] (the kernels' 32-bit indices)", n, imagegraph.MaxKernelVoxels)
	}
	inc, err := newIncremental(c, n)
	if err != nil {
		return nil, err
	}
	inc.count = int64(n)
	err = c.Do(func() error {
		if n == 0 {
			return nil
		}
		nn := int32(n)
		return c.Launch("inc_init", inc.blocks(n), threadsPerBlock, unsafe.Pointer(&nn), unsafe.Pointer(&inc.parent.Ptr))
	})
	if err != nil {
		inc.Close()
		return nil, err
	}
	return inc, nil
}

// From returns an [Incremental] whose components are those of parent.
//
// parent holds the representatives of a static labeling
// (ecl.Result.Parent), or any forest in which every vertex points at
// itself or at a smaller vertex. parent is copied to the device; the
// caller keeps it.
func From(ctx *cuda.Context, parent []int32) (*Incremental, error) {
	c := ctx.Driver()
	if len(parent) > imagegraph.MaxKernelVoxels {
		return nil, fmt.Errorf("cuda: incremental: %d vertices: the kernels take at most %d (32-bit indices)", len(parent), imagegraph.MaxKernelVoxels)
	}
	roots, bad := countRoots(parent)
	if bad >= 0 {
		return nil, fmt.Errorf("cuda: incremental: vertex %d points at %d, want a vertex in [0, %d]", bad, parent[bad], bad)
	}
	inc, err := newIncremental(c, len(parent))
	if err != nil {
		return nil, err
	}
	inc.count = roots
	inc.dirty = true
	err = c.Do(func() error {
		if len(parent) == 0 {
			return nil
		}
		return c.UploadStaged(inc.parent.Ptr, unsafe.Pointer(&parent[0]), uint64(4*len(parent)))
	})
	if err != nil {
		inc.Close()
		return nil, err
	}
	return inc, nil
}

// newIncremental allocates the parent array, the status words and the
// timing events.
func newIncremental(c *driver.Context, n int) (*Incremental, error) {
	inc := &Incremental{c: c, n: n, maxChunk: incMaxChunk, passEdges: max(n, 1<<20), giantFilter: true}
	err := c.Do(func() error {
		if free, err := c.FreeMemory(); err != nil {
			return err
		} else if need := uint64(4 * n); need > free {
			return fmt.Errorf("cuda: incremental: %d vertices need %d MiB of device memory, %d MiB are free", n, need>>20, free>>20)
		}
		var err error
		if inc.parent, err = c.Alloc(uint64(4 * n)); err != nil {
			return err
		}
		if inc.stat, err = c.Alloc(16); err != nil {
			return err
		}
		if inc.start, err = c.NewEvent(); err != nil {
			return err
		}
		inc.end, err = c.NewEvent()
		return err
	})
	if err != nil {
		inc.Close()
		return nil, err
	}
	return inc, nil
}

// Close frees the device memory; the Incremental cannot be used after.
func (inc *Incremental) Close() error {
	if inc.c == nil {
		return nil
	}
	c := inc.c
	inc.c = nil
	return c.Do(func() error {
		for _, b := range []driver.Buffer{inc.parent, inc.stat, inc.us, inc.vs, inc.giant} {
			c.Free(b)
		}
		for _, e := range []driver.Event{inc.start, inc.end} {
			if e != 0 {
				c.Destroy(e)
			}
		}
		return nil
	})
}

// NumVertices returns the number of vertices.
func (inc *Incremental) NumVertices() int { return inc.n }

// Components returns the number of components.
func (inc *Incremental) Components() int { return int(inc.count) }

// LastTiming returns the time of each stage of the last Insert.
//
// Upload is the copies of its edges (wall time), Kernel the device time of
// its kernels (check, compress and hook passes).
func (inc *Incremental) LastTiming() cuda.Timing { return inc.last }

// Insert adds the undirected edges (us[i], vs[i]).
//
// It checks every ID before inserting anything (on the device, or on the
// host when the batch is uploaded in several chunks), so a failed Insert
// changes nothing.
func (inc *Incremental) Insert(us, vs []int32) error {
	if err := inc.usable("insert", len(us), len(vs)); err != nil {
		return err
	}
	inc.last = cuda.Timing{}
	m := len(us)
	if m == 0 {
		return nil
	}
	hostChecked := false
	if m > inc.maxChunk {
		if i := firstOutOfRange(us, vs, inc.n); i >= 0 {
			return inc.rangeError("insert", i, us, vs)
		}
		hostChecked = true
	}
	return inc.c.Do(func() error {
		for off := 0; off < m; off += inc.maxChunk {
			k := min(inc.maxChunk, m-off)
			hooks, bad, err := inc.insertChunk(us[off:off+k], vs[off:off+k], !hostChecked)
			if err != nil {
				return err
			}
			if bad >= 0 {
				return inc.rangeError("insert", off+bad, us, vs)
			}
			inc.count -= int64(hooks)
			inc.dirty = inc.dirty || hooks > 0
		}
		return nil
	})
}

// insertChunk uploads and hooks one chunk of edges and returns the hooks
// and the first pair out of range (-1 when none, and nothing changed
// otherwise) (call inside do).
func (inc *Incremental) insertChunk(us, vs []int32, check bool) (hooks, bad int, err error) {
	k := len(us)
	if err := inc.reserve(k); err != nil {
		return 0, -1, err
	}
	start := time.Now()
	if err := inc.uploadPair(us, vs); err != nil {
		return 0, -1, err
	}
	inc.last.Upload += time.Since(start)
	return inc.hookResident(k, check)
}

// hookResident hooks the k edges in the device buffers us and vs: checks
// them (with check), compresses first when that pays, and hooks them in
// passes of passEdges with a compress pass between two; it returns the
// hooks and the first pair out of range, -1 when none (call inside do).
func (inc *Incremental) hookResident(k int, check bool) (hooks, bad int, err error) {
	c := inc.c
	if err := c.Record(inc.start); err != nil {
		return 0, -1, err
	}
	if err := inc.begin(k, inc.us, inc.vs, check); err != nil {
		return 0, -1, err
	}
	pass := inc.passEdges
	if pass <= 0 {
		pass = k
	}
	for lo := 0; lo < k; lo += pass {
		if lo > 0 {
			if err := inc.compress(); err != nil {
				return 0, -1, err
			}
		}
		l, h := int32(lo), int32(min(lo+pass, k))
		var giant uintptr
		if inc.giantFilter && inc.giantValid {
			giant = inc.giant.Ptr
		}
		if err := c.Launch("inc_hook", inc.blocks(int(h-l)), threadsPerBlock, unsafe.Pointer(&l), unsafe.Pointer(&h),
			unsafe.Pointer(&inc.us.Ptr), unsafe.Pointer(&inc.vs.Ptr), unsafe.Pointer(&inc.parent.Ptr), unsafe.Pointer(&inc.stat.Ptr),
			unsafe.Pointer(&giant)); err != nil {
			return 0, -1, err
		}
	}
	if err := c.Record(inc.end); err != nil {
		return 0, -1, err
	}
	stat, err := inc.status()
	if err != nil {
		return 0, -1, err
	}
	d, err := c.Elapsed(inc.start, inc.end)
	if err != nil {
		return 0, -1, err
	}
	inc.last.Kernel += d
	if stat[1] != incNoBad {
		return 0, int(stat[1]), nil
	}
	return int(stat[0]), -1, nil
}

// begin resets the status words, checks the k pairs of us and vs (with
// check) and compresses the tree when a pass over k items pays for it
// (call inside do).
func (inc *Incremental) begin(k int, us, vs driver.Buffer, check bool) error {
	c := inc.c
	if err := c.Launch("inc_reset", 1, 1, unsafe.Pointer(&inc.stat.Ptr)); err != nil {
		return err
	}
	if check {
		kk, n := int32(k), int32(inc.n)
		if err := c.Launch("inc_check", inc.blocks(k), threadsPerBlock, unsafe.Pointer(&kk), unsafe.Pointer(&n),
			unsafe.Pointer(&us.Ptr), unsafe.Pointer(&vs.Ptr), unsafe.Pointer(&inc.stat.Ptr)); err != nil {
			return err
		}
	}
	if inc.dirty && k*incCompressShare >= inc.n {
		return inc.compress()
	}
	return nil
}

// compress points every vertex at its root and, with giantFilter,
// rebuilds the giant bitmap (call inside do).
func (inc *Incremental) compress() error {
	c, n := inc.c, int32(inc.n)
	if n == 0 {
		return nil
	}
	if err := c.Launch("inc_compress", inc.blocks(inc.n), threadsPerBlock, unsafe.Pointer(&n), unsafe.Pointer(&inc.parent.Ptr)); err != nil {
		return err
	}
	inc.dirty = false
	if !inc.giantFilter {
		return nil
	}
	if inc.giant.Ptr == 0 {
		var err error
		if inc.giant, err = c.Alloc(uint64(4 * ((inc.n + 31) / 32))); err != nil {
			return err
		}
	}
	if err := c.Launch("inc_pick_giant", 1, 32, unsafe.Pointer(&n), unsafe.Pointer(&inc.parent.Ptr), unsafe.Pointer(&inc.stat.Ptr)); err != nil {
		return err
	}
	if err := c.Launch("inc_giant_bits", inc.blocks(inc.n), threadsPerBlock, unsafe.Pointer(&n), unsafe.Pointer(&inc.parent.Ptr),
		unsafe.Pointer(&inc.stat.Ptr), unsafe.Pointer(&inc.giant.Ptr)); err != nil {
		return err
	}
	inc.giantValid = true
	return nil
}

// status downloads the hook count and the first bad pair, waiting for
// the kernels (call inside do).
func (inc *Incremental) status() ([2]int32, error) {
	var s [2]int32
	err := inc.c.Download(s[:], inc.stat)
	return s, err
}

// ConnectedBatch sets dst[i] to whether us[i] and vs[i] are in the same
// component.
func (inc *Incremental) ConnectedBatch(us, vs []int32, dst []bool) error {
	if err := inc.usable("connected", len(us), len(vs)); err != nil {
		return err
	}
	if len(dst) != len(us) {
		return fmt.Errorf("cuda: incremental: connected: %d queries but %d answers", len(us), len(dst))
	}
	return inc.c.Do(func() error {
		for off := 0; off < len(us); off += inc.maxChunk {
			k := min(inc.maxChunk, len(us)-off)
			if err := inc.reserve(k); err != nil {
				return err
			}
			if err := inc.uploadPair(us[off:off+k], vs[off:off+k]); err != nil {
				return err
			}
			if err := inc.begin(k, inc.us, inc.vs, true); err != nil {
				return err
			}
			kk := int32(k)
			if err := inc.c.Launch("inc_connected", inc.blocks(k), threadsPerBlock, unsafe.Pointer(&kk),
				unsafe.Pointer(&inc.us.Ptr), unsafe.Pointer(&inc.vs.Ptr), unsafe.Pointer(&inc.parent.Ptr), unsafe.Pointer(&inc.stat.Ptr)); err != nil {
				return err
			}
			if stat, err := inc.status(); err != nil {
				return err
			} else if stat[1] != incNoBad {
				return inc.rangeError("connected", off+int(stat[1]), us, vs)
			}
			if cap(inc.scratch) < k {
				inc.scratch = make([]int32, k)
			}
			words := inc.scratch[:k]
			if err := inc.c.DownloadStaged(unsafe.Pointer(&words[0]), inc.us.Ptr, uint64(4*k)); err != nil {
				return err
			}
			for i, w := range words {
				dst[off+i] = w != 0
			}
		}
		return nil
	})
}

// RepresentativesBatch sets dst[i] to the representative of vs[i].
//
// The representative is the smallest vertex of its component.
func (inc *Incremental) RepresentativesBatch(vs, dst []int32) error {
	if err := inc.usable("representatives", len(vs), len(vs)); err != nil {
		return err
	}
	if len(dst) != len(vs) {
		return fmt.Errorf("cuda: incremental: representatives: %d queries but %d answers", len(vs), len(dst))
	}
	return inc.c.Do(func() error {
		for off := 0; off < len(vs); off += inc.maxChunk {
			k := min(inc.maxChunk, len(vs)-off)
			if err := inc.reserve(k); err != nil {
				return err
			}
			if err := inc.c.UploadStaged(inc.vs.Ptr, unsafe.Pointer(&vs[off]), uint64(4*k)); err != nil {
				return err
			}
			if err := inc.begin(k, inc.vs, inc.vs, true); err != nil {
				return err
			}
			kk := int32(k)
			if err := inc.c.Launch("inc_representatives", inc.blocks(k), threadsPerBlock, unsafe.Pointer(&kk),
				unsafe.Pointer(&inc.vs.Ptr), unsafe.Pointer(&inc.parent.Ptr), unsafe.Pointer(&inc.stat.Ptr)); err != nil {
				return err
			}
			if stat, err := inc.status(); err != nil {
				return err
			} else if stat[1] != incNoBad {
				return inc.rangeError("representatives", off+int(stat[1]), vs, vs)
			}
			if err := inc.c.DownloadStaged(unsafe.Pointer(&dst[off]), inc.vs.Ptr, uint64(4*k)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Representatives returns every vertex's representative, after a compress
// pass.
//
// A representative is the smallest vertex of its component, as
// ecl.Result.Parent holds them.
func (inc *Incremental) Representatives() ([]int32, error) {
	if inc.c == nil {
		return nil, fmt.Errorf("cuda: incremental: representatives: closed")
	}
	reps := make([]int32, inc.n)
	if inc.n == 0 {
		return reps, nil
	}
	err := inc.c.Do(func() error {
		if err := inc.compress(); err != nil {
			return err
		}
		if err := inc.c.Sync(); err != nil {
			return err
		}
		return inc.c.DownloadStaged(unsafe.Pointer(&reps[0]), inc.parent.Ptr, uint64(4*inc.n))
	})
	if err != nil {
		return nil, err
	}
	return reps, nil
}
