package ecl_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/cclabel/cclabel/ecl"
	"github.com/cclabel/cclabel/gen"
)

// The benchmark graphs match the ECL-CC paper's inputs in shape:
// 2d-2e20.sym (grid 1024²), r4-2e23.sym at 2^22 vertices, rmat at scale 20.
var benchGraphs = map[string]func() (*ecl.Graph, error){
	"grid1024":   sync.OnceValues(func() (*ecl.Graph, error) { return gen.GridGraph(1024, 1024) }),
	"random2e22": sync.OnceValues(func() (*ecl.Graph, error) { return gen.RandomGraph(1<<22, 4, 1) }),
	"rmat20":     sync.OnceValues(func() (*ecl.Graph, error) { return gen.RMATGraph(20, 16, 1) }),
}

// BenchmarkComponents times the labeling kernel (representatives, count and
// sequential labels) of every implementation, including the plain BFS
// baseline. Edges/s is reported per stored arc.
func BenchmarkComponents(b *testing.B) {
	impls := []struct {
		name string
		run  func(g *ecl.Graph) []int32
	}{
		{"bfs", ecl.ComponentsBFS},
		{"serial", ecl.ComponentsSerial},
		{"parallel1", func(g *ecl.Graph) []int32 { return ecl.ComponentsParallel(g, 1) }},
		{"parallel2", func(g *ecl.Graph) []int32 { return ecl.ComponentsParallel(g, 2) }},
		{"eclaf1", func(g *ecl.Graph) []int32 { return ecl.ComponentsAtomicFree(g, 1) }},
		{"eclaf2", func(g *ecl.Graph) []int32 { return ecl.ComponentsAtomicFree(g, 2) }},
	}
	for _, graph := range []string{"grid1024", "random2e22", "rmat20"} {
		b.Run(graph, func(b *testing.B) {
			g, err := benchGraphs[graph]()
			if err != nil {
				b.Fatal(err)
			}
			for _, impl := range impls {
				b.Run(impl.name, func(b *testing.B) {
					for b.Loop() {
						impl.run(g)
					}
					b.ReportMetric(float64(g.NumEdges())*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
				})
			}
		})
	}
}

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
	ecl.PackNonzeroBytes(m.pix[row*m.width:(row+1)*m.width], dst)
}

// BenchmarkLabelGrid times grid labeling of a random binary image
// (p=0.6, 8-connectivity) and volume (p=0.3, 26-connectivity), in pixels/s:
// 2048² and 128³, and 8192² and 512³ with CCLABEL_BENCH_FULL=1.
func BenchmarkLabelGrid(b *testing.B) {
	cases := []struct {
		name  string
		shape ecl.GridShape
		conn  int
		p     float64
	}{
		{"image2048p06c8", ecl.GridShape{Width: 2048, Height: 2048, Depth: 1}, 8, 0.6},
		{"image8192p06c8", ecl.GridShape{Width: 8192, Height: 8192, Depth: 1}, 8, 0.6},
		{"volume128p03c26", ecl.GridShape{Width: 128, Height: 128, Depth: 128}, 26, 0.3},
		{"volume512p03c26", ecl.GridShape{Width: 512, Height: 512, Depth: 512}, 26, 0.3},
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
							if _, err := ecl.LabelBinary26(c.shape.Width, c.shape.Height, c.shape.Depth, byteMaskKeys{c.shape.Width, pix}, labels, threads); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(len(pix))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
					})
				}
				if c.conn == 8 {
					b.Run(fmt.Sprintf("binary8/threads%d", threads), func(b *testing.B) {
						for b.Loop() {
							if _, err := ecl.LabelBinary8(c.shape.Width, c.shape.Height, byteMaskKeys{c.shape.Width, pix}, labels, threads); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(float64(len(pix))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
					})
				}
				b.Run(fmt.Sprintf("threads%d", threads), func(b *testing.B) {
					for b.Loop() {
						if _, err := ecl.LabelGrid[uint32](c.shape, c.conn, byteMaskKeys{c.shape.Width, pix}, labels, threads); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(len(pix))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpx/s")
				})
			}
		})
	}
}
