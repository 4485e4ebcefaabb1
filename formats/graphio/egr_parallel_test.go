package graphio

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/formats/internal/csrfile"
)

// TestReadEGRParallelMatchesStream checks that the parallel reader, used
// for inputs with ReadAt, returns what the streaming reader returns when
// the given size is wrong or the input carries weights.
func TestReadEGRParallelMatchesStream(t *testing.T) {
	defer func(p int64) { csrfile.PieceBytes = p }(csrfile.PieceBytes)
	csrfile.PieceBytes = 8
	g := &ecl.Graph{Offsets: []int64{0, 2, 3, 4, 4}, Neighbors: []int32{1, 2, 0, 0}}
	var buf bytes.Buffer
	if err := WriteEGR(&buf, g); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	withWeights := append(slices.Clone(data), make([]byte, 4*len(g.Neighbors))...)
	for _, in := range [][]byte{data, withWeights} {
		for cut := 0; cut <= len(in)+2; cut++ {
			src := append(slices.Clone(in), 7, 7)[:cut]
			for _, size := range []int64{int64(len(data)), int64(len(in)), int64(cut)} {
				want, werr := ReadEGR(struct{ io.Reader }{bytes.NewReader(src)}, size, ReadOptions{})
				got, err := ReadEGR(bytes.NewReader(src), size, ReadOptions{})
				if fmt.Sprint(err) != fmt.Sprint(werr) {
					t.Fatalf("cut %d, size %d: error %v, want %v", cut, size, err, werr)
				}
				if err == nil && (!slices.Equal(got.Graph.Offsets, want.Graph.Offsets) ||
					!slices.Equal(got.Graph.Neighbors, want.Graph.Neighbors) || got.Stats.Bytes != want.Stats.Bytes) {
					t.Fatalf("cut %d, size %d: graphs differ", cut, size)
				}
			}
		}
	}
}
