package cuda

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGridPlanMatchesKernels ties the Go side's copy of the block
// kernels' geometry to the defines and template arguments in
// kernels/ecl_grid_blocks.cu, so that one cannot change without the other.
func TestGridPlanMatchesKernels(t *testing.T) {
	src, err := kernelFiles.ReadFile("kernels/ecl_grid_blocks.cu")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for name, want := range map[string]int{"BTX": tileBlocksX, "BSEG": segmentBlocksX, "SCAN_TILE": scanTile, "RELABEL_ROWS": relabelRows} {
		m := regexp.MustCompile(`(?m)^#define ` + name + ` (\d+)`).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no #define %s in ecl_grid_blocks.cu", name)
		}
		if got, _ := strconv.Atoi(m[1]); got != want {
			t.Errorf("%s is %d in the kernels, %d in grid_plan.go", name, got, want)
		}
	}
	for _, call := range []string{
		"blocks_local<T, " + strconv.Itoa(tile2BlocksY) + ", 1, false>",
		"blocks_local<T, " + strconv.Itoa(tile3BlocksYZ) + ", " + strconv.Itoa(tile3BlocksYZ) + ", true>",
		"blocks_border<T, " + strconv.Itoa(tile2BlocksY) + ", 1, false>",
		"blocks_border<T, " + strconv.Itoa(tile3BlocksYZ) + ", " + strconv.Itoa(tile3BlocksYZ) + ", true>",
		"BBorder<" + strconv.Itoa(tile2BlocksY) + ", 1, false>::threads",
		"BBorder<" + strconv.Itoa(tile3BlocksYZ) + ", " + strconv.Itoa(tile3BlocksYZ) + ", true>::threads",
	} {
		if !strings.Contains(text, call) {
			t.Errorf("ecl_grid_blocks.cu has no %s: the tiles differ from grid_plan.go", call)
		}
	}
	tiles, err := kernelFiles.ReadFile("kernels/ecl_grid_tiles.cu")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"TX2": tile2X, "TY2": tile2Y, "TX3": tile3X, "TY3": tile3Y, "TZ3": tile3Z, "TILE_THREADS": tileThreads} {
		m := regexp.MustCompile(`(?m)^#define ` + name + ` (\d+)`).FindStringSubmatch(string(tiles))
		if m == nil {
			t.Fatalf("no #define %s in ecl_grid_tiles.cu", name)
		}
		if got, _ := strconv.Atoi(m[1]); got != want {
			t.Errorf("%s is %d in the tile kernels, %d in grid_plan.go", name, got, want)
		}
	}
	// BBorder's thread count: row warps (TY + 2(TZ-1) in 3D, 1 in 2D) and
	// two column warps per x face, as planGrid launches.
	if !strings.Contains(text, "rowWarps = D3 ? TY + 2 * (TZ - 1) : 1") ||
		!strings.Contains(text, "columnWarps = 2 * ((TY * TZ + 31) / 32)") {
		t.Error("BBorder's warp counts changed: update planGrid's border threads")
	}
}
