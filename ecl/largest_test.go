package ecl_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel/ecl"
)

// TestLabelsAndLargest checks Result.LabelsAndLargest against ecl's labels and
// component sizes, on graphs from none to one component.
func TestLabelsAndLargest(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ n, m int }{{0, 0}, {1, 0}, {7, 0}, {7, 3}, {100, 40}, {1000, 900}, {5000, 20000}, {3, 3}} {
		t.Run(fmt.Sprintf("n%d_m%d", c.n, c.m), func(t *testing.T) {
			us, vs := make([]int32, c.m), make([]int32, c.m)
			for i := range us {
				us[i], vs[i] = int32(r.IntN(c.n)), int32(r.IntN(c.n))
			}
			g, err := ecl.FromEdges(c.n, us, vs)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{1, 3} {
				res, err := ecl.Components(g, ecl.Options{Threads: threads})
				if err != nil {
					t.Fatal(err)
				}
				want := res.Labels(threads)
				_, wantLargest := ecl.Largest(ecl.ComponentSizes(want, res.Count))
				labels, largest := res.LabelsAndLargest(threads)
				if !slices.Equal(labels, want) || largest != wantLargest {
					t.Fatalf("%d threads: largest %d, want %d; labels equal: %v", threads, largest, wantLargest, slices.Equal(labels, want))
				}
			}
		})
	}
}
