package cuda

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/imagegraph/gridcc"
)

// TestLabelGridKept checks kept labels against the CPU's: the first and
// last planes downloaded at once (the rest of dst untouched), then the whole
// grid written through a table that reverses the numbering, small grids
// (a pageable copy) and one large enough for the staged copy; a short
// table, a second Fill and a wrong length are errors.
func TestLabelGridKept(t *testing.T) {
	c := gpuContext(t)
	rule := imagegraph.Rule{Mode: imagegraph.Binary}
	for i, s := range [][3]int{{1, 1, 1}, {7, 3, 1}, {13, 11, 7}, {257, 129, 161}, {512, 512, 40}} {
		name := fmt.Sprint(s)
		r, err := gen.RandomRaster(s[0], s[1], s[2], 0.3, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		conn := 8
		if s[2] > 1 {
			conn = 26
		}
		want, err := gridcc.Label(r, rule, gridcc.Options{Connectivity: conn, Threads: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, plane := r.Len(), s[0]*s[1]
		dst := make([]uint32, n)
		for i := range dst {
			dst[i] = 0xa5a5a5a5
		}
		k, _, err := c.LabelGridKept(r, conn, rule, dst)
		if err != nil {
			t.Fatal(err)
		}
		if k.Count != want.Count {
			t.Fatalf("%s: %d components kept, CPU %d", name, k.Count, want.Count)
		}
		for i, v := range dst {
			edge := i < plane || i >= n-plane
			if edge && v != want.Data[i] || !edge && v != 0xa5a5a5a5 {
				t.Fatalf("%s: after keeping, label %d at %d (CPU %d, first and last planes of %d)", name, v, i, want.Data[i], plane)
			}
		}
		if _, err := k.Fill(dst, make([]uint32, k.Count)); err == nil {
			t.Fatalf("%s: a table short of one took", name)
		}
		if _, err := k.Fill(dst[1:], make([]uint32, k.Count+1)); err == nil {
			t.Fatalf("%s: a Fill of %d entries took", name, n-1)
		}
		// table reverses 1..Count; 0 stays 0.
		table := make([]uint32, k.Count+1)
		for l := 1; l <= k.Count; l++ {
			table[l] = uint32(k.Count + 1 - l)
		}
		if _, err := k.Fill(dst, table); err != nil {
			t.Fatal(err)
		}
		got := make([]uint32, n)
		for i, v := range want.Data {
			got[i] = table[v]
		}
		if !slices.Equal(dst, got) {
			t.Fatalf("%s: the filled labels differ from the CPU's mapped through the table", name)
		}
		if _, err := k.Fill(dst, table); err == nil {
			t.Fatalf("%s: a second Fill took", name)
		}
		if err := k.Free(); err != nil {
			t.Fatalf("%s: Free after Fill: %v", name, err)
		}
	}
	// Free frees: a kept grid dropped without Fill.
	r, _ := gen.RandomRaster(64, 64, 8, 0.3, 9)
	k, _, err := c.LabelGridKept(r, 26, rule, make([]uint32, r.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Free(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.LabelGridKept(r, 26, rule, make([]uint32, 3)); err == nil {
		t.Fatal("LabelGridKept took 3 labels for a larger grid")
	}
}
