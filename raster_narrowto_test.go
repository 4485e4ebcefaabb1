package cclabel_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
)

// TestLabelRasterNarrowTo checks that LabelRasterNarrowTo on the CPU hands
// LabelRaster's labels to its rows, every row once, for binary rules in 2D
// and 3D; a multilabel raster of several values comes back as uint32
// labels, without rows.
func TestLabelRasterNarrowTo(t *testing.T) {
	for _, backend := range []cclabel.Backend{cclabel.BackendCPU, cclabel.BackendSerial} {
		l, err := cclabel.New(cclabel.Options{Backend: backend, Threads: 3})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		for _, tc := range []struct {
			d    int
			rule imagegraph.Rule
		}{
			{1, imagegraph.Rule{Mode: imagegraph.Binary}},
			{17, imagegraph.Rule{Mode: imagegraph.Binary}},
			{17, imagegraph.Rule{Mode: imagegraph.Threshold, Threshold: 1}},
		} {
			t.Run(fmt.Sprintf("%s-%d-%v", backend, tc.d, tc.rule), func(t *testing.T) {
				r, err := gen.RandomRaster(301, 133, tc.d, 0.5, 5)
				if err != nil {
					t.Fatal(err)
				}
				want, err := l.LabelRaster(r, tc.rule, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				var mu sync.Mutex
				got := make([]uint32, r.Len())
				seen := make([]int, r.Height*r.Depth)
				res, err := l.LabelRasterNarrowTo(r, tc.rule, 0, nil, func(row int, labels []uint16) error {
					mu.Lock()
					defer mu.Unlock()
					for i, v := range labels {
						got[row*r.Width+i] = uint32(v)
					}
					for y := row; y < row+len(labels)/r.Width; y++ {
						seen[y]++
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if res.Labels.Data != nil || res.Narrow != nil || res.Labels.Count != want.Labels.Count {
					t.Fatalf("labels not handed to the rows: Data %d, Narrow %d, %d components (want %d)", len(res.Labels.Data), len(res.Narrow), res.Labels.Count, want.Labels.Count)
				}
				if !slices.Equal(got, want.Labels.Data) {
					t.Fatal("labels handed to the rows differ from LabelRaster's")
				}
				for y, n := range seen {
					if n != 1 {
						t.Fatalf("row %d handed over %d times", y, n)
					}
				}
			})
		}
		// Several values, multilabel: uint32 labels, rows never called.
		data := make([]uint8, 50*40)
		for i := range data {
			data[i] = uint8(i % 3)
		}
		r, _ := imagegraph.NewRaster(50, 40, 1, data)
		res, err := l.LabelRasterNarrowTo(r, imagegraph.Rule{Mode: imagegraph.Multilabel}, 8, nil, func(int, []uint16) error {
			t.Fatal("rows called for uint32 labels")
			return nil
		})
		if err != nil || len(res.Labels.Data) != r.Len() {
			t.Fatalf("multilabel: err %v, %d labels", err, len(res.Labels.Data))
		}
		if _, err := l.LabelRasterNarrowTo(r, imagegraph.Rule{Mode: imagegraph.Binary}, 8, nil, nil); err == nil {
			t.Fatal("no error without rows")
		}
	}
}
