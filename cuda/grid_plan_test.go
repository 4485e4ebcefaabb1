package cuda

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/imagegraph"
)

// TestGridPlanMatchesKernels ties the Go side's copies of the kernels'
// geometry (grid_plan.go, stats.go) to the defines and template arguments
// in kernels/*.cu, so that one cannot change without the other.
func TestGridPlanMatchesKernels(t *testing.T) {
	src, err := kernelFiles.ReadFile("kernels/ecl_grid_blocks.cu")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	checkDefines(t, text, "ecl_grid_blocks.cu", "grid_plan.go", map[string]int{"BTX": tileBlocksX, "BSEG": segmentBlocksX, "SCAN_TILE": scanTile, "RELABEL_ROWS": relabelRows, "RELABEL_ROWS18": relabelRows18})
	y2, yz3 := strconv.Itoa(tile2BlocksY), strconv.Itoa(tile3BlocksYZ)
	for _, call := range []string{
		"BLOCKS_LOCAL(blocks_local2_##suffix, T, " + y2 + ", 1, false, 2)",
		"BLOCKS_LOCAL(blocks_local3_##suffix, T, " + yz3 + ", " + yz3 + ", true, 2)",
		"BLOCKS_LOCAL(blocks_local18_##suffix, T, " + yz3 + ", " + yz3 + ", true, 1)",
		"BLOCKS_BORDER(blocks_border2_##suffix, T, " + y2 + ", 1, false, 2)",
		"BLOCKS_BORDER(blocks_border3_##suffix, T, " + yz3 + ", " + yz3 + ", true, 2)",
		"BLOCKS_BORDER(blocks_border18_##suffix, T, " + yz3 + ", " + yz3 + ", true, 1)",
		"__launch_bounds__(BBorder<TY, TZ, D3>::threads)",
	} {
		if !strings.Contains(text, call) {
			t.Errorf("ecl_grid_blocks.cu has no %s: the tiles differ from grid_plan.go", call)
		}
	}
	tiles, err := kernelFiles.ReadFile("kernels/ecl_grid_tiles.cu")
	if err != nil {
		t.Fatal(err)
	}
	checkDefines(t, string(tiles), "ecl_grid_tiles.cu", "grid_plan.go", map[string]int{"TX2": tile2X, "TY2": tile2Y, "TX3": tile3X, "TY3": tile3Y, "TZ3": tile3Z, "TILE_THREADS": tileThreads, "ROOTS_WORDS": rootsWords})
	vblocks, err := kernelFiles.ReadFile("kernels/ecl_grid_vblocks.cu")
	if err != nil {
		t.Fatal(err)
	}
	checkDefines(t, string(vblocks), "ecl_grid_vblocks.cu", "grid_plan.go", map[string]int{"VB_TY": vtileBlocksY, "VB_TZ": vtileBlocksZ})
	runs, err := kernelFiles.ReadFile("kernels/ecl_grid_runs.cu")
	if err != nil {
		t.Fatal(err)
	}
	checkDefines(t, string(runs), "ecl_grid_runs.cu", "grid_plan.go", map[string]int{"RSEG": runSegment, "RUN_WARPS": runWarps})
	stats, err := kernelFiles.ReadFile("kernels/stats.cu")
	if err != nil {
		t.Fatal(err)
	}
	checkDefines(t, string(stats), "stats.cu", "stats.go", map[string]int{"STATS_SEG": statsSeg, "STATS_THREADS": statsThreads})
	if !strings.Contains(string(vblocks), "__launch_bounds__(BBorder<VB_TY, VB_TZ, true>::threads, VB_BORDER_CTAS)") {
		t.Error("vblocks_border's thread count is no longer BBorder's: update planGrid's border threads")
	}
	// BBorder's thread count: row warps (TY + 2(TZ-1) in 3D, 1 in 2D) and
	// two column warps per x face, as planGrid launches.
	if !strings.Contains(text, "rowWarps = D3 ? TY + 2 * (TZ - 1) : 1") ||
		!strings.Contains(text, "columnWarps = 2 * ((TY * TZ + 31) / 32)") {
		t.Error("BBorder's warp counts changed: update planGrid's border threads")
	}
}

// checkDefines checks that the #define of each name in src, the text of
// the kernel file file, is the value want gives, the Go side's in goFile.
func checkDefines(t *testing.T, src, file, goFile string, want map[string]int) {
	t.Helper()
	for name, w := range want {
		m := regexp.MustCompile(`(?m)^#define ` + name + ` +(\d+)`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("no #define %s in %s", name, file)
		}
		if got, _ := strconv.Atoi(m[1]); got != w {
			t.Errorf("%s is %d in %s, %d in %s", name, got, file, w, goFile)
		}
	}
}

// TestGridValuesMatchesKernels ties grid.go's single-value check to
// kernels/ecl_grid_values.cu: a grid_values kernel of the right sample
// width for every integer sample type the grid kernels take (none for
// float32), and the thread block size of its launch.
func TestGridValuesMatchesKernels(t *testing.T) {
	src, err := kernelFiles.ReadFile("kernels/ecl_grid_values.cu")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	defined := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^GRID_VALUES\((\w+), (\d)\)$`).FindAllStringSubmatch(text, -1) {
		defined[m[1]], _ = strconv.Atoi(m[2])
	}
	for kind, suffix := range gridKernelSuffix {
		width, ok := valuesWidth[suffix]
		if kind == imagegraph.Float32 {
			if ok || defined[suffix] != 0 {
				t.Errorf("float32 samples (%s) take grid_values: -0 and NaN are background too", suffix)
			}
			continue
		}
		if !ok {
			t.Errorf("%v samples (%s) have no grid_values width", kind, suffix)
		}
		if defined[suffix] != width {
			t.Errorf("grid_values_%s: width %d in the kernels, %d in grid_plan.go", suffix, defined[suffix], width)
		}
	}
	if len(defined) != len(valuesWidth) {
		t.Errorf("the kernels define grid_values for %v, grid_plan.go for %v", defined, valuesWidth)
	}
	if !strings.Contains(text, "__launch_bounds__("+strconv.Itoa(valuesThreads)+") grid_values_##suffix") {
		t.Errorf("grid_values' launch bounds differ from valuesThreads (%d)", valuesThreads)
	}
}

// TestBlockPlans checks the block kernels' launches for each block shape
// without a GPU: 2x2 blocks in 2D, 2x2x2 at 26, 2x2x1 at 18 (their names,
// relabel rows and buffer lengths).
func TestBlockPlans(t *testing.T) {
	c := &Context{blocks: 1056}
	for _, tc := range []struct {
		w, h, d, conn       int32
		local, relabel      string
		bd, rows, relabelTB int
	}{
		{100, 30, 1, 8, "blocks_local2_u8", "blocks_relabel_u8", 1, relabelRows, 1 * ceilDiv(15, relabelRows) * 1},
		{600, 30, 9, 26, "blocks_local3_u8", "blocks_relabel_u8", 5, relabelRows, 2 * ceilDiv(15, relabelRows) * 5},
		{600, 30, 9, 18, "blocks_local18_u8", "blocks_relabel18_u8", 9, relabelRows18, 2 * ceilDiv(15, relabelRows18) * 9},
	} {
		shape := gridShape{w: tc.w, h: tc.h, d: tc.d, conn: tc.conn, rule: 1}
		p := c.planGrid(&shape, "u8", blockKernels)
		bw, bh := ceilDiv(int(tc.w), 2), ceilDiv(int(tc.h), 2)
		if p.blocks != bw*bh*tc.bd || int(p.relabel) != tc.relabelTB {
			t.Errorf("c%d: %d blocks, %d relabel thread blocks; want %d, %d", tc.conn, p.blocks, p.relabel, bw*bh*tc.bd, tc.relabelTB)
		}
		if want := 2*int(p.tiles) + p.blocks; p.tileEntries() != want {
			t.Errorf("c%d: tileReps of %d entries, want %d", tc.conn, p.tileEntries(), want)
		}
		var in, parent, labels, counts, sums, tileReps, total uintptr
		var names []string
		for _, s := range p.steps(&in, &parent, &labels, &counts, &sums, &tileReps, &total) {
			names = append(names, s.Name)
		}
		want := []string{"zero_u32", tc.local, strings.Replace(tc.local, "local", "border", 1), "blocks_roots", "scan_tiles", "grid_scan", "blocks_number", tc.relabel}
		if !slices.Equal(names, want) {
			t.Errorf("c%d: launches %v, want %v", tc.conn, names, want)
		}
	}
}

// TestRunPlans checks the run kernels' launches and buffer lengths without
// a GPU: a warp per segment of a row, the masks and the root counts a word
// per 32 voxels (runs are at most as many), the labels buffer long enough
// for the root counts and their sums.
func TestRunPlans(t *testing.T) {
	c := &Context{blocks: 1056}
	for _, tc := range []struct {
		w, h, d, conn int32
	}{{1, 1, 1, 4}, {3, 1, 1, 8}, {600, 30, 1, 4}, {256, 7, 9, 6}, {257, 7, 9, 18}, {513, 3, 2, 26}, {256, 100, 100, 26}} {
		shape := gridShape{w: tc.w, h: tc.h, d: tc.d, conn: tc.conn}
		p := c.planGrid(&shape, "u16", runKernels)
		p.values = 0x8000
		segs := ceilDiv(int(tc.w), runSegment) * int(tc.h) * int(tc.d)
		n := int(tc.w * tc.h * tc.d)
		words := ceilDiv(n, 32)
		if p.countEntries() != segs || int(p.tiles) != ceilDiv(segs, runWarps) {
			t.Errorf("%v: %d counts, %d thread blocks; want %d, %d", tc, p.countEntries(), p.tiles, segs, ceilDiv(segs, runWarps))
		}
		if p.tileEntries() != words || p.labelEntries() < words+ceilDiv(words, scanTile) || p.labelEntries() < n || p.totalEntries() != 2 {
			t.Errorf("%v: masks %d, labels %d, total %d entries", tc, p.tileEntries(), p.labelEntries(), p.totalEntries())
		}
		var in, parent, labels, counts, sums, masks, total uintptr = 0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000, 0x7000
		var names []string
		steps := p.steps(&in, &parent, &labels, &counts, &sums, &masks, &total)
		for _, s := range steps {
			names = append(names, s.Name)
		}
		// runs_count is grid-stride, and its last argument grid_values'
		// words.
		if count := steps[0]; count.Blocks != min(p.tiles, c.blocks) || *(*uintptr)(count.Args[len(count.Args)-1]) != 0x8000 {
			t.Errorf("%v: runs_count on %d thread blocks, values at %#x", tc, count.Blocks, *(*uintptr)(count.Args[len(count.Args)-1]))
		}
		want := []string{"runs_count_u16", "scan_tiles", "grid_scan", "runs_init", fmt.Sprintf("runs_link_c%d_u16", tc.conn), "tiles_roots", "scan_tiles", "grid_scan", "runs_number", "runs_relabel_u16"}
		if !slices.Equal(names, want) {
			t.Errorf("%v: launches %v, want %v", tc, names, want)
		}
		if p.runTotal != total+4 || p.rootSums != labels+4*uintptr(words) {
			t.Errorf("%v: run total at %#x, root sums at %#x", tc, p.runTotal, p.rootSums)
		}
	}
}
