package grid_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/cclabel/cclabel/imagegraph/gridcc/grid"
	"github.com/cclabel/cclabel/imagegraph/gridcc/runs"
)

// byteMaskKeys serves binary keys (nonzero bytes are foreground).
type byteMaskKeys struct {
	width int
	pix   []uint8
}

func (m byteMaskKeys) Keys(row int, dst []uint32) {
	src := m.pix[row*m.width : (row+1)*m.width]
	dst = dst[:len(src)]
	for i, p := range src {
		dst[i] = uint32(min(p, 1))
	}
}

// Mask packs the nonzero bytes of a row into bits.
func (m byteMaskKeys) Mask(row int, dst []uint64) {
	clear(dst)
	grid.PackNonzeroBytes(m.pix[row*m.width:(row+1)*m.width], dst)
}

// BenchmarkLabelGrid times grid labeling of a random binary image
// (p=0.6, 8-connectivity) and volume (p=0.3, 26-connectivity), in pixels/s:
// 2048² and 128³, and 8192² and 512³ with CCLABEL_BENCH_FULL=1.
func BenchmarkLabelGrid(b *testing.B) {
	cases := []struct {
		name  string
		shape grid.GridShape
		conn  int
		p     float64
	}{
		{"image2048p06c8", grid.GridShape{Width: 2048, Height: 2048, Depth: 1}, 8, 0.6},
		{"image8192p06c8", grid.GridShape{Width: 8192, Height: 8192, Depth: 1}, 8, 0.6},
		{"volume128p03c26", grid.GridShape{Width: 128, Height: 128, Depth: 128}, 26, 0.3},
		{"volume512p03c26", grid.GridShape{Width: 512, Height: 512, Depth: 512}, 26, 0.3},
	}
	for _, c := range cases {
		if c.shape.Len() > 1<<24 && os.Getenv("CCLABEL_BENCH_FULL") != "1" {
			continue // 8192² and 512³ need CCLABEL_BENCH_FULL=1
		}
		b.Run(c.name, func(b *testing.B) {
			pix := make([]uint8, c.shape.Len())
			rng := rand.New(rand.NewPCG(1, 1))
			for i := range pix {
				if rng.Float64() < c.p {
					pix[i] = 1
				}
			}
			labels := make([]uint32, len(pix))
			for _, threads := range []int{1, 2} {
				if c.conn == 26 {
					b.Run(fmt.Sprintf("binary26/threads%d", threads), func(b *testing.B) {
						for b.Loop() {
							if _, err := grid.LabelBinary26(c.shape.Width, c.shape.Height, c.shape.Depth, byteMaskKeys{c.shape.Width, pix}, labels, threads); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(len(pix))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
					})
				}
				if c.conn == 8 {
					b.Run(fmt.Sprintf("binary8/threads%d", threads), func(b *testing.B) {
						for b.Loop() {
							if _, err := grid.LabelBinary8(c.shape.Width, c.shape.Height, byteMaskKeys{c.shape.Width, pix}, labels, threads); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(len(pix))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
					})
				}
				b.Run(fmt.Sprintf("threads%d", threads), func(b *testing.B) {
					for b.Loop() {
						if _, err := runs.LabelGrid[uint32](c.shape, c.conn, byteMaskKeys{c.shape.Width, pix}, labels, threads); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(len(pix))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
				})
			}
		})
	}
}
