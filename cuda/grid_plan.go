package cuda

import (
	"fmt"
	"unsafe"
)

// Tile and row geometry of the block-based grid kernels
// (kernels/ecl_grid_blocks.cu: BTX, the TY and TZ of blocks_local2 and
// blocks_local3, BSEG, SCAN_TILE, RELABEL_ROWS, RELABEL_ROWS18).
const (
	tileBlocksX    = 32
	tile2BlocksY   = 32
	tile3BlocksYZ  = 8
	segmentBlocksX = 256
	scanTile       = 4096
	relabelRows    = 4 // 2x2(x2) blocks
	relabelRows18  = 2 // 2x2x1 blocks
)

// Tile geometry of the tile kernels (kernels/ecl_grid_tiles.cu: TX2, TY2,
// TX3, TY3, TZ3, TILE_THREADS, ROOTS_WORDS).
const (
	tile2X      = 128
	tile2Y      = 16
	tile3X      = 64
	tile3Y      = 8
	tile3Z      = 8
	tileThreads = 256
	rootsWords  = 32 // mask words per tiles_roots warp (ROOTS_WORDS)
)

// Tile geometry of the value-block kernels (kernels/ecl_grid_vblocks.cu:
// BTX x VB_TY x VB_TZ blocks, vblocks_border's BBorder<VB_TY, VB_TZ, true>).
const (
	vtileBlocksY = 8
	vtileBlocksZ = 4
)

// valuesThreads is grid_values' thread block size
// (kernels/ecl_grid_values.cu: its __launch_bounds__).
const valuesThreads = 256

// valuesWidth is the sample width, in bytes, of each grid_values kernel
// (kernels/ecl_grid_values.cu: GRID_VALUES(suffix, width)): the integer
// sample types.
var valuesWidth = map[string]int{"u8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4}

// gridKernels names a family of grid kernels.
type gridKernels int

const (
	// autoKernels: LabelGrid chooses (Context.force).
	autoKernels gridKernels = iota
	// tileKernels: one vertex per voxel (kernels/ecl_grid_tiles.cu), every
	// rule and connectivity.
	tileKernels
	// blockKernels: one vertex per 2x2(x2) block
	// (kernels/ecl_grid_blocks.cu), binary and threshold rules at 8, 26
	// and 18 (2x2x1 blocks there: a 2x2 square of a plane is a clique).
	blockKernels
	// valueBlockKernels: one vertex per value of a 2x2x2 block
	// (kernels/ecl_grid_vblocks.cu), then the tile kernels' numbering; any
	// rule at 26. LabelGrid takes them only when Context.force asks: the
	// run kernels label multilabel volumes faster (docs/gpu.md).
	valueBlockKernels
	// runKernels: one vertex per run of a row (kernels/ecl_grid_runs.cu),
	// then the tile kernels' root pass; every rule and connectivity.
	runKernels
)

// Geometry of the run kernels (kernels/ecl_grid_runs.cu): runSegment
// voxels of a row per warp (RSEG), runWarps warps per thread block
// (RUN_WARPS).
const (
	runSegment = 256
	runWarps   = 8
)

// gridPlan is the kernel sequence that labels one grid.
type gridPlan struct {
	shape     *gridShape
	suffix    string
	kernels   gridKernels
	flat      bool   // block kernels on 2x2x1 blocks (18-connectivity)
	counts    int    // counts: a word per 32 voxels (tile kernels), per voxel row and segment (block kernels) or per 256-voxel row segment (run kernels)
	rootBits  int    // words of the block kernels' root bitmap, after the counts
	tiles     uint32 // blocks_local, vblocks_local or tiles_local thread blocks (one per tile)
	blocks    int    // blocks of the grid (block kernels: blockReps' entries)
	relabel   uint32 // blocks_relabel thread blocks
	border    uint32 // blocks_border or vblocks_border threads per thread block
	fill      uint32 // thread blocks that fill the device
	n         int64
	countsLen int32
	counts64  int64   // counts, for zero_u32 (tile kernels: the masks)
	sumsLen   int32   // scan_tiles thread blocks
	cursor    uintptr // device address of the representatives' cursor (after the root bitmap)
	bits      uintptr // device address of the root bitmap
	blockReps uintptr // device address of the blocks' representatives
	zeroed    int64   // words cleared before the block kernels: the counts, the bitmap and the cursor
	words     int64   // run kernels: mask words, a bit per voxel (runs are at most as many)
	wordsLen  int32   // words, for scan_tiles
	wordSums  int32   // scan_tiles thread blocks over the root counts
	runTotal  uintptr // device address of the run count (the total buffer's second word)
	rootSums  uintptr // device address of the root counts' sums (in the labels buffer, after the counts)
	values    uintptr // run kernels: device address of grid_values' two words for runs_count to fill, or 0
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// planGrid plans the kernels of family kernels for shape (value blocks
// only for volumes at 26-connectivity).
func (c *Context) planGrid(shape *gridShape, suffix string, kernels gridKernels) *gridPlan {
	w, h, d := int(shape.w), int(shape.h), int(shape.d)
	p := &gridPlan{shape: shape, suffix: suffix, kernels: kernels, fill: c.blocks, n: int64(w) * int64(h) * int64(d)}
	bw, bh, bd := ceilDiv(w, 2), ceilDiv(h, 2), ceilDiv(d, 2)
	if kernels == runKernels {
		// A count per segment; a mask bit and, in the labels buffer, a
		// root count per 32 runs.
		p.counts = ceilDiv(w, runSegment) * h * d
		p.countsLen = int32(p.counts)
		p.sumsLen = int32(ceilDiv(p.counts, scanTile))
		p.tiles = uint32(ceilDiv(p.counts, runWarps))
		p.words = int64(ceilDiv(int(p.n), 32))
		p.wordsLen = int32(p.words)
		p.wordSums = int32(ceilDiv(int(p.words), scanTile))
		return p
	}
	if kernels != blockKernels {
		// One mask word and one count per 32 voxels.
		switch {
		case kernels == valueBlockKernels:
			p.tiles = uint32(ceilDiv(bw, tileBlocksX) * ceilDiv(bh, vtileBlocksY) * ceilDiv(bd, vtileBlocksZ))
			p.border = uint32(32 * (vtileBlocksY + 2*(vtileBlocksZ-1) + 2*ceilDiv(vtileBlocksY*vtileBlocksZ, 32)))
		case d == 1:
			p.tiles = uint32(ceilDiv(w, tile2X) * ceilDiv(h, tile2Y))
		default:
			p.tiles = uint32(ceilDiv(w, tile3X) * ceilDiv(h, tile3Y) * ceilDiv(d, tile3Z))
		}
		p.counts = ceilDiv(int(p.n), 32)
		p.countsLen = int32(p.counts)
		p.counts64 = int64(p.counts)
		p.sumsLen = int32(ceilDiv(p.counts, scanTile))
		return p
	}
	rows := relabelRows
	if p.flat = shape.conn == 18; p.flat { // blocks of one plane
		bd, rows = d, relabelRows18
	}
	p.blocks = bw * bh * bd
	tilesX := ceilDiv(bw, tileBlocksX)
	// blocks_border: row warps for the y and z faces, two column warps per
	// x face (kernels' BBorder).
	if d == 1 {
		p.tiles = uint32(tilesX * ceilDiv(bh, tile2BlocksY))
		p.border = 32 * (1 + 2)
	} else {
		p.tiles = uint32(tilesX * ceilDiv(bh, tile3BlocksYZ) * ceilDiv(bd, tile3BlocksYZ))
		p.border = 32 * (tile3BlocksYZ + 2*(tile3BlocksYZ-1) + 2*2)
	}
	segs := ceilDiv(bw, segmentBlocksX)
	p.relabel = uint32(segs * ceilDiv(bh, rows) * bd)
	p.counts = d * h * segs
	p.rootBits = p.counts * segmentBlocksX / 32 // a bit per voxel row and block column
	p.zeroed = int64(p.counts + p.rootBits + 1)
	p.countsLen = int32(p.counts)
	p.sumsLen = int32(ceilDiv(p.counts, scanTile))
	return p
}

// countEntries is the length of the counts buffer: the counts, then the
// block kernels' root bitmap and the cursor the tiles take the offsets of
// their lists of representatives from.
func (p *gridPlan) countEntries() int {
	if p.kernels != blockKernels {
		return p.counts
	}
	return p.counts + p.rootBits + 1
}

// sumsEntries is the length of the sums buffer.
func (p *gridPlan) sumsEntries() int { return max(1, int(p.sumsLen)) }

// tileEntries is the length of the tileReps buffer. Block kernels: an
// (offset, count) pair per tile for the representatives listed in the
// labels buffer (at most one per nonempty block, so the labels buffer
// holds them), then each block's representative (blockReps). Tile and
// value-block kernels: the representative masks, a word per 32 voxels.
func (p *gridPlan) tileEntries() int {
	if p.kernels == runKernels {
		return int(p.words)
	}
	if p.kernels != blockKernels {
		return p.counts
	}
	return 2*int(p.tiles) + p.blocks
}

// labelEntries is the length of the labels buffer: a label per voxel, and
// for the run kernels at least the root counts and their sums, which it
// holds before the labels.
func (p *gridPlan) labelEntries() int {
	if p.kernels == runKernels {
		return max(int(p.n), int(p.words)+int(p.wordSums))
	}
	return int(p.n)
}

// totalEntries is the length of the total buffer: the component count,
// and for the run kernels the run count.
func (p *gridPlan) totalEntries() int {
	if p.kernels == runKernels {
		return 2
	}
	return 1
}

// steps returns the launches over the device buffers: samples, parent,
// labels, counts, sums, per-tile counts and the component total.
func (p *gridPlan) steps(in, parent, labels, counts, sums, tileReps, total *uintptr) []kernelStep {
	shape := unsafe.Pointer(p.shape)
	ptr := func(u *uintptr) unsafe.Pointer { return unsafe.Pointer(u) }
	if p.kernels == runKernels {
		return p.runSteps(in, parent, labels, counts, sums, tileReps, total)
	}
	if p.kernels != blockKernels { // tileReps holds the masks
		n64, conn := unsafe.Pointer(&p.n), fmt.Sprintf("_c%d_", p.shape.conn)
		local := kernelStep{"tiles_local" + conn + p.suffix, p.tiles, tileThreads, []unsafe.Pointer{ptr(in), ptr(parent), ptr(tileReps), shape}}
		border := kernelStep{"tiles_border" + conn + p.suffix, p.tiles, tileThreads, []unsafe.Pointer{ptr(in), ptr(parent), shape}}
		if p.kernels == valueBlockKernels {
			local.Name, border.Name = "vblocks_local_"+p.suffix, "vblocks_border_"+p.suffix
			border.Threads = p.border
		}
		steps := []kernelStep{
			{"zero_u32", uint32(min(ceilDiv(p.counts, threadsPerBlock), int(p.fill))), threadsPerBlock, []unsafe.Pointer{ptr(tileReps), unsafe.Pointer(&p.counts64)}},
			local,
			border,
			// A warp per rootsWords mask words, 8 warps a block.
			{"tiles_roots", uint32(ceilDiv(p.counts, 8*rootsWords)), 256, []unsafe.Pointer{ptr(parent), ptr(tileReps), ptr(counts), n64}},
			{"scan_tiles", uint32(p.sumsLen), 1024, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.countsLen), ptr(sums)}},
			{"grid_scan", 1, 1024, []unsafe.Pointer{ptr(sums), unsafe.Pointer(&p.sumsLen), ptr(total)}},
			{"tiles_relabel", uint32(ceilDiv(int(p.n), 1024)), 256, []unsafe.Pointer{ptr(parent), ptr(tileReps), ptr(counts), ptr(sums), ptr(labels), n64}},
		}
		if p.kernels == tileKernels && p.shape.w%32 == 0 {
			// Each mask word is one warp row of a tile, which tiles_local
			// stores whole: no clearing needed.
			steps = steps[1:]
		}
		return steps
	}
	dim, flat := "2_", ""
	switch {
	case p.flat:
		dim, flat = "18_", "18"
	case p.shape.d > 1:
		dim = "3_"
	}
	sfx := p.suffix
	p.bits = *counts + 4*uintptr(p.counts)
	p.cursor = p.bits + 4*uintptr(p.rootBits)
	p.blockReps = *tileReps + 4*2*uintptr(p.tiles)
	return []kernelStep{
		{"zero_u32", uint32(min(ceilDiv(int(p.zeroed), threadsPerBlock), int(p.fill))), threadsPerBlock, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.zeroed)}},
		{"blocks_local" + dim + sfx, p.tiles, 256, []unsafe.Pointer{ptr(in), ptr(parent), ptr(&p.blockReps), ptr(labels), ptr(&p.cursor), ptr(tileReps), shape}},
		{"blocks_border" + dim + sfx, p.tiles, p.border, []unsafe.Pointer{ptr(in), ptr(parent), ptr(&p.blockReps), shape}},
		{"blocks_roots", uint32(ceilDiv(int(p.tiles), 8)), 256, []unsafe.Pointer{ptr(parent), ptr(labels), ptr(tileReps), unsafe.Pointer(&p.tiles), ptr(counts), ptr(&p.bits), shape}},
		{"scan_tiles", uint32(p.sumsLen), 1024, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.countsLen), ptr(sums)}},
		{"grid_scan", 1, 1024, []unsafe.Pointer{ptr(sums), unsafe.Pointer(&p.sumsLen), ptr(total)}},
		// A warp per tile over its representatives, as blocks_roots.
		{"blocks_number", uint32(ceilDiv(int(p.tiles), 8)), 256, []unsafe.Pointer{ptr(parent), ptr(labels), ptr(tileReps), unsafe.Pointer(&p.tiles), ptr(counts), ptr(sums), ptr(&p.bits), shape}},
		{"blocks_relabel" + flat + "_" + sfx, p.relabel, segmentBlocksX, []unsafe.Pointer{ptr(in), ptr(parent), ptr(&p.blockReps), ptr(labels), shape}},
	}
}

// runSteps returns the run kernels' launches (steps' buffers; tileReps
// holds the masks, labels the root counts and their sums until
// runs_relabel).
func (p *gridPlan) runSteps(in, parent, labels, counts, sums, masks, total *uintptr) []kernelStep {
	shape := unsafe.Pointer(p.shape)
	ptr := func(u *uintptr) unsafe.Pointer { return unsafe.Pointer(u) }
	p.runTotal = *total + 4
	p.rootSums = *labels + 4*uintptr(p.words)
	warps := 32 * runWarps
	conn := fmt.Sprintf("_c%d_%s", p.shape.conn, p.suffix)
	fill := uint32(max(1, min(ceilDiv(int(p.words)*32, threadsPerBlock), int(p.fill))))
	return []kernelStep{
		// Grid-stride: a block reduction of values' words, then atomics.
		{"runs_count_" + p.suffix, min(p.tiles, p.fill), uint32(warps), []unsafe.Pointer{ptr(in), ptr(counts), shape, ptr(&p.values)}},
		{"scan_tiles", uint32(p.sumsLen), 1024, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.countsLen), ptr(sums)}},
		{"grid_scan", 1, 1024, []unsafe.Pointer{ptr(sums), unsafe.Pointer(&p.sumsLen), ptr(&p.runTotal)}},
		{"runs_init", fill, threadsPerBlock, []unsafe.Pointer{ptr(parent), ptr(masks), ptr(&p.runTotal), unsafe.Pointer(&p.words)}},
		{"runs_link" + conn, p.tiles, uint32(warps), []unsafe.Pointer{ptr(in), ptr(counts), ptr(sums), ptr(parent), shape}},
		// A warp per rootsWords mask words, 8 warps a block.
		{"tiles_roots", uint32(ceilDiv(int(p.words), 8*rootsWords)), 256, []unsafe.Pointer{ptr(parent), ptr(masks), ptr(labels), unsafe.Pointer(&p.n)}},
		{"scan_tiles", uint32(p.wordSums), 1024, []unsafe.Pointer{ptr(labels), unsafe.Pointer(&p.wordsLen), ptr(&p.rootSums)}},
		{"grid_scan", 1, 1024, []unsafe.Pointer{ptr(&p.rootSums), unsafe.Pointer(&p.wordSums), ptr(total)}},
		{"runs_number", fill, threadsPerBlock, []unsafe.Pointer{ptr(parent), ptr(masks), ptr(labels), ptr(&p.rootSums), ptr(&p.runTotal)}},
		{"runs_relabel_" + p.suffix, p.tiles, uint32(warps), []unsafe.Pointer{ptr(in), ptr(counts), ptr(sums), ptr(parent), ptr(labels), shape}},
	}
}
