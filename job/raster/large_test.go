package raster

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cclabel/cclabel/formats/npy"
	"github.com/cclabel/cclabel/imagegraph"
)

// cubes is a volume of 2x2x2 cubes on a grid of pitch 4: voxel (x, y, z)
// is foreground when x, y and z are all 0 or 1 mod 4. The cubes are the
// components at every connectivity (gaps of two planes), numbered by
// their first voxel: cube (cx, cy, cz) has label cz*nx*ny + cy*nx + cx + 1
// with nx = ceil(w/4) and ny = ceil(h/4) (a cube cut by the border still
// counts). The oracle needs no labeler at all, at any size.
type cubes struct{ w, h, d int }

func (c cubes) sample(x, y, z int) uint8 {
	if x%4 < 2 && y%4 < 2 && z%4 < 2 {
		return 1
	}
	return 0
}

func (c cubes) label(x, y, z int) uint32 {
	if c.sample(x, y, z) == 0 {
		return 0
	}
	nx, ny := (c.w+3)/4, (c.h+3)/4
	return uint32((z/4)*nx*ny + (y/4)*nx + x/4 + 1)
}

func (c cubes) count() int { return ((c.w + 3) / 4) * ((c.h + 3) / 4) * ((c.d + 3) / 4) }

// write writes the volume as a uint8 .npy, plane by plane.
func (c cubes) write(t testing.TB, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := npy.WriteHeader(bw, "uint8", []int{c.d, c.h, c.w}); err != nil {
		t.Fatal(err)
	}
	row := make([]uint8, c.w)
	for z := range c.d {
		for y := range c.h {
			for x := range row {
				row[x] = c.sample(x, y, z)
			}
			bw.Write(row)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

// check reads a uint32 .npy of labels plane by plane against the oracle.
func (c cubes) check(t testing.TB, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var pre [10]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, binary.LittleEndian.Uint16(pre[8:]))
	if _, err := io.ReadFull(br, head); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(head), "'<u4'") {
		t.Fatalf("labels header %q: want uint32", head)
	}
	row := make([]byte, 4*c.w)
	for z := range c.d {
		for y := range c.h {
			if _, err := io.ReadFull(br, row); err != nil {
				t.Fatal(err)
			}
			for x := range c.w {
				if got, want := binary.LittleEndian.Uint32(row[4*x:]), c.label(x, y, z); got != want {
					t.Fatalf("label at (%d, %d, %d) is %d, want %d", x, y, z, got, want)
				}
			}
		}
	}
}

// TestCubesOracle labels cube volumes out of core at slabs that cut the
// cubes and checks every label against the closed form. With
// CCLABEL_LARGE_TESTS=1 it also labels 2048x2048x520 voxels (more than
// 2^31; about 2 GB in, 9 GB spilled, 9 GB out in $TMPDIR) within 512 MiB.
func TestCubesOracle(t *testing.T) {
	dir := t.TempDir()
	binary := imagegraph.Rule{Mode: imagegraph.Binary}
	for _, c := range []cubes{{5, 3, 7}, {33, 17, 23}, {64, 64, 41}} {
		in, out := filepath.Join(dir, "c.npy"), filepath.Join(dir, "l.npy")
		c.write(t, in)
		for _, conn := range []int{6, 18, 26} {
			for _, thick := range []int{1, 3, 5} {
				res, err := LabelOutOfCore(in, nil, out, OutOfCoreOptions{Rule: binary, Connectivity: conn, DType: "uint32", TempDir: dir, SlabPlanes: thick})
				if err != nil {
					t.Fatal(err)
				}
				if res.Count != c.count() {
					t.Fatalf("%v c%d slabs of %d: %d components, want %d", c, conn, thick, res.Count, c.count())
				}
				c.check(t, out)
			}
		}
	}
	if ok, _ := strconv.ParseBool(os.Getenv("CCLABEL_LARGE_TESTS")); !ok {
		return
	}
	c := cubes{2048, 2048, 520}
	big := t.TempDir()
	in, out := filepath.Join(big, "c.npy"), filepath.Join(big, "l.npy")
	c.write(t, in)
	res, err := LabelOutOfCore(in, nil, out, OutOfCoreOptions{Rule: binary, Connectivity: 26, DType: "uint32", TempDir: big, MaxMemory: 512 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%dx%dx%d (%d voxels): %d components in %d slabs of %d planes; read %v, label %v, write %v", c.w, c.h, c.d,
		int64(c.w)*int64(c.h)*int64(c.d), res.Count, res.Slabs, res.SlabPlanes, res.Read, res.Label, res.Write)
	if res.Count != c.count() {
		t.Fatalf("%d components, want %d", res.Count, c.count())
	}
	c.check(t, out)
}
