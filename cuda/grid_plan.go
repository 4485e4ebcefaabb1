package cuda

import (
	"fmt"
	"unsafe"
)

// Tile and row geometry of the block-based grid kernels
// (kernels/ecl_grid_blocks.cu: BTX, the TY and TZ of blocks_local2 and
// blocks_local3, BSEG, SCAN_TILE, RELABEL_ROWS).
const (
	tileBlocksX    = 32
	tile2BlocksY   = 32
	tile3BlocksYZ  = 8
	segmentBlocksX = 256
	scanTile       = 4096
	relabelRows    = 2
)

// Tile geometry of the tile kernels (kernels/ecl_grid_tiles.cu: TX2, TY2,
// TX3, TY3, TZ3, TILE_THREADS).
const (
	tile2X      = 128
	tile2Y      = 16
	tile3X      = 64
	tile3Y      = 8
	tile3Z      = 8
	tileThreads = 256
)

// valuesThreads is grid_values' thread block size
// (kernels/ecl_grid_values.cu: its __launch_bounds__).
const valuesThreads = 256

// valuesWidth is the sample width, in bytes, of each grid_values kernel
// (kernels/ecl_grid_values.cu: GRID_VALUES(suffix, width)): the integer
// sample types.
var valuesWidth = map[string]int{"u8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4}

// gridPlan is the kernel sequence that labels one grid.
type gridPlan struct {
	shape     *gridShape
	suffix    string
	blocks    bool   // block-based kernels (binary or threshold at 8 or 26), else the tile kernels
	counts    int    // entries of the counts buffer
	tiles     uint32 // blocks_local thread blocks
	rows      uint32 // blocks_number thread blocks
	relabel   uint32 // blocks_relabel thread blocks
	border    uint32 // blocks_border threads per thread block (one per tile)
	fill      uint32 // thread blocks that fill the device
	n         int64
	countsLen int32
	counts64  int64
	sumsLen   int32   // scan_tiles thread blocks
	cursor    uintptr // device address of the representatives' cursor
	one       int64   // 1, the cursor's length
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// planGrid plans the kernels for shape: the block-based ones when blocks
// is set, else the voxel-based ones.
func (c *Context) planGrid(shape *gridShape, suffix string, blocks bool) *gridPlan {
	w, h, d := int(shape.w), int(shape.h), int(shape.d)
	p := &gridPlan{shape: shape, suffix: suffix, blocks: blocks, fill: c.blocks, n: int64(w) * int64(h) * int64(d), one: 1}
	if !blocks {
		// One mask word and one count per 32 voxels.
		if d == 1 {
			p.tiles = uint32(ceilDiv(w, tile2X) * ceilDiv(h, tile2Y))
		} else {
			p.tiles = uint32(ceilDiv(w, tile3X) * ceilDiv(h, tile3Y) * ceilDiv(d, tile3Z))
		}
		p.counts = ceilDiv(int(p.n), 32)
		p.countsLen = int32(p.counts)
		p.counts64 = int64(p.counts)
		p.sumsLen = int32(ceilDiv(p.counts, scanTile))
		return p
	}
	bw, bh, bd := ceilDiv(w, 2), ceilDiv(h, 2), ceilDiv(d, 2)
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
	p.rows = uint32(segs * bh * bd)
	p.relabel = uint32(segs * ceilDiv(bh, relabelRows) * bd)
	p.counts = d * h * segs
	p.countsLen = int32(p.counts)
	p.counts64 = int64(p.counts)
	p.sumsLen = int32(ceilDiv(p.counts, scanTile))
	return p
}

// sumsEntries is the length of the sums buffer.
func (p *gridPlan) sumsEntries() int { return max(1, int(p.sumsLen)) }

// tileEntries is the length of the tileReps buffer. Block kernels: an
// (offset, count) pair per tile for the representatives listed in the
// labels buffer (at most one per nonempty block, so the labels buffer
// holds them), then the cursor the tiles take their offsets from. Tile
// kernels: the representative masks, a word per 32 voxels.
func (p *gridPlan) tileEntries() int {
	if !p.blocks {
		return p.counts
	}
	return 2*int(p.tiles) + 1
}

// steps returns the launches over the device buffers: samples, parent,
// labels, counts, sums, per-tile counts and the component total.
func (p *gridPlan) steps(in, parent, labels, counts, sums, tileReps, total *uintptr) []kernelStep {
	shape := unsafe.Pointer(p.shape)
	ptr := func(u *uintptr) unsafe.Pointer { return unsafe.Pointer(u) }
	if !p.blocks { // tileReps holds the masks
		n64, conn := unsafe.Pointer(&p.n), fmt.Sprintf("_c%d_", p.shape.conn)
		return []kernelStep{
			{"zero_u32", uint32(min(ceilDiv(p.counts, threadsPerBlock), int(p.fill))), threadsPerBlock, []unsafe.Pointer{ptr(tileReps), unsafe.Pointer(&p.counts64)}},
			{"tiles_local" + conn + p.suffix, p.tiles, tileThreads, []unsafe.Pointer{ptr(in), ptr(parent), ptr(tileReps), shape}},
			{"tiles_border" + conn + p.suffix, p.tiles, tileThreads, []unsafe.Pointer{ptr(in), ptr(parent), shape}},
			{"tiles_roots", uint32(ceilDiv(int(p.n), 256)), 256, []unsafe.Pointer{ptr(parent), ptr(tileReps), ptr(counts), n64}},
			{"scan_tiles", uint32(p.sumsLen), 1024, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.countsLen), ptr(sums)}},
			{"grid_scan", 1, 1024, []unsafe.Pointer{ptr(sums), unsafe.Pointer(&p.sumsLen), ptr(total)}},
			{"tiles_relabel", uint32(ceilDiv(int(p.n), 1024)), 256, []unsafe.Pointer{ptr(parent), ptr(tileReps), ptr(counts), ptr(sums), ptr(labels), n64}},
		}
	}
	dim := "2_"
	if p.shape.d > 1 {
		dim = "3_"
	}
	sfx := p.suffix
	p.cursor = *tileReps + 4*2*uintptr(p.tiles)
	return []kernelStep{
		{"zero_u32", uint32(min(ceilDiv(p.counts, threadsPerBlock), int(p.fill))), threadsPerBlock, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.counts64)}},
		{"zero_u32", 1, 32, []unsafe.Pointer{ptr(&p.cursor), unsafe.Pointer(&p.one)}},
		{"blocks_local" + dim + sfx, p.tiles, 256, []unsafe.Pointer{ptr(in), ptr(parent), ptr(labels), ptr(tileReps), shape}},
		{"blocks_border" + dim + sfx, p.tiles, p.border, []unsafe.Pointer{ptr(in), ptr(parent), shape}},
		{"blocks_roots", uint32(ceilDiv(int(p.tiles), 8)), 256, []unsafe.Pointer{ptr(parent), ptr(labels), ptr(tileReps), unsafe.Pointer(&p.tiles), ptr(counts), shape}},
		{"scan_tiles", uint32(p.sumsLen), 1024, []unsafe.Pointer{ptr(counts), unsafe.Pointer(&p.countsLen), ptr(sums)}},
		{"grid_scan", 1, 1024, []unsafe.Pointer{ptr(sums), unsafe.Pointer(&p.sumsLen), ptr(total)}},
		{"blocks_number_" + sfx, p.rows, segmentBlocksX, []unsafe.Pointer{ptr(in), ptr(parent), ptr(counts), ptr(sums), ptr(labels), shape}},
		{"blocks_relabel_" + sfx, p.relabel, segmentBlocksX, []unsafe.Pointer{ptr(in), ptr(parent), ptr(labels), shape}},
	}
}
