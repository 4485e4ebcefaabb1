package csrfile

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

// egrFile writes g as an .egr file (offWidth 4) or .egr64 file (8) and
// returns its path, the offset of its offsets and its size.
func egrFile(t *testing.T, g *ecl.Graph, offWidth int) (string, int64, int64) {
	t.Helper()
	var b []byte
	if offWidth == 4 {
		b = binary.LittleEndian.AppendUint32(b, uint32(g.NumVertices()))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(g.Neighbors)))
	} else {
		b = binary.LittleEndian.AppendUint64(b, uint64(g.NumVertices()))
		b = binary.LittleEndian.AppendUint64(b, uint64(len(g.Neighbors)))
	}
	base := int64(len(b))
	for _, o := range g.Offsets {
		if offWidth == 4 {
			b = binary.LittleEndian.AppendUint32(b, uint32(o))
		} else {
			b = binary.LittleEndian.AppendUint64(b, uint64(o))
		}
	}
	for _, u := range g.Neighbors {
		b = binary.LittleEndian.AppendUint32(b, uint32(u))
	}
	path := filepath.Join(t.TempDir(), "g.egr")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, base, int64(len(b))
}

// TestMapMatchesRead checks that a mapped file gives the graph [Read]
// reads, for both offset widths, and that writing to the mapped arrays
// leaves the file as it was.
func TestMapMatchesRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	us, vs := make([]int32, 5000), make([]int32, 5000)
	for i := range us {
		us[i], vs[i] = rng.Int32N(3000), rng.Int32N(3000)
	}
	g, err := ecl.FromEdges(3000, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{4, 8} {
		t.Run(map[int]string{4: "egr", 8: "egr64"}[w], func(t *testing.T) {
			path, base, size := egrFile(t, g, w)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n, m := int64(g.NumVertices()), int64(len(g.Neighbors))
			read, _, err := Read(f, base, base, n, m, w, false, size, 2)
			if err != nil {
				t.Fatal(err)
			}
			mapped, release, err := Map(f, base, n, m, w, size, 2)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(mapped.Offsets, read.Offsets) || !slices.Equal(mapped.Neighbors, read.Neighbors) {
				t.Fatal("mapped and read graphs differ")
			}
			clear(mapped.Neighbors)
			if err := release(); err != nil {
				t.Fatal(err)
			}
			if after, err := os.ReadFile(path); err != nil || !slices.Equal(after, before) {
				t.Fatalf("writing to the mapping changed the file (%v)", err)
			}
		})
	}
}

// TestMapCutFile checks that a file shorter than the size given is not
// mapped (a read of its missing pages would raise SIGBUS).
func TestMapCutFile(t *testing.T) {
	g := &ecl.Graph{Offsets: make([]int64, 1<<12), Neighbors: nil}
	path, base, size := egrFile(t, g, 4)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	probe, err := mapFile(f, int(size))
	if err != nil {
		t.Skip("mapping unsupported:", err)
	}
	perr := populateRead(probe)
	unmapFile(probe)
	if perr != nil {
		t.Skip("MADV_POPULATE_READ unsupported here:", perr)
	}
	const more = 1 << 20 // claimed edges beyond the file's end
	if _, _, err := Map(f, base, int64(len(g.Offsets)-1), more, 4, size+4*more, 1); err == nil {
		t.Fatal("a file cut short was mapped")
	}
}
