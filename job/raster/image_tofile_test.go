package raster_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cclabel/cclabel/formats"
	"github.com/cclabel/cclabel/gen"
	"github.com/cclabel/cclabel/imagegraph"
	"github.com/cclabel/cclabel/job/raster"
)

// testImages returns a sparse image of more than 65535 components at
// 4-connectivity, a dense one of fewer, and one of three values in runs.
func testImages(t *testing.T) (sparse, dense, several *imagegraph.Raster) {
	t.Helper()
	sparse, err := gen.RandomRaster(1200, 1000, 1, 0.15, 4)
	if err != nil {
		t.Fatal(err)
	}
	if dense, err = gen.RandomRaster(301, 203, 1, 0.5, 3); err != nil {
		t.Fatal(err)
	}
	values := make([]uint8, 90*70)
	for i := range values {
		values[i] = uint8(i / 7 % 3)
	}
	several, err = imagegraph.NewRaster(90, 70, 1, values)
	if err != nil {
		t.Fatal(err)
	}
	return sparse, dense, several
}

// TestLabelImageToFile checks that LabelImageToFile writes the .npy bytes
// that labeling as uint32 and WriteImage write, under every dtype it
// takes: straight from the labeler when the labels fit uint16, and not at
// all otherwise (several values, or more than 65535 components), leaving
// the result to WriteImage, which then writes the same bytes as before or
// fails the same way.
func TestLabelImageToFile(t *testing.T) {
	sparse, dense, several := testImages(t)
	l := newLabeler(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		r       *imagegraph.Raster
		rule    imagegraph.Mode
		conn    int
		written bool
	}{
		{"binary", dense, imagegraph.Binary, 8, true},
		{"binary c4", dense, imagegraph.Binary, 4, true},
		{"multilabel of one value", dense, imagegraph.Multilabel, 8, true},
		{"multilabel", several, imagegraph.Multilabel, 8, false},
		{"more than 65535", sparse, imagegraph.Binary, 4, false},
	} {
		for _, dtype := range []string{"auto", "uint16"} {
			t.Run(fmt.Sprintf("%s-%s", tc.name, dtype), func(t *testing.T) {
				img := &formats.Image{Raster: tc.r}
				s := raster.Settings{Rule: imagegraph.Rule{Mode: tc.rule}, DType: dtype}
				want := raster.ImageOutputs{Input: "i", Labels: filepath.Join(dir, "want.npy")}
				got := raster.ImageOutputs{Input: "i", Labels: filepath.Join(dir, "got.npy")}
				os.Remove(want.Labels)
				os.Remove(got.Labels)
				wide, err := raster.LabelImageIn(l, img, s, tc.conn, nil)
				if err != nil {
					t.Fatal(err)
				}
				wantErr := raster.WriteImage(want, img, wide.Labels, s, nil)
				res, written, err := raster.LabelImageToFile(l, img, got, s, tc.conn)
				if err != nil {
					t.Fatal(err)
				}
				if written != tc.written || res.Labels.Count != wide.Labels.Count {
					t.Fatalf("written %v (want %v), %d components (want %d)", written, tc.written, res.Labels.Count, wide.Labels.Count)
				}
				if !written {
					if _, err := os.Stat(got.Labels); err == nil {
						t.Fatal("a file left behind by labels not written")
					}
					if res.Narrow != nil {
						err = raster.WriteImageNarrow(got, res.Labels, res.Narrow, s)
					} else {
						err = raster.WriteImage(got, img, res.Labels, s, nil)
					}
					if (err == nil) != (wantErr == nil) {
						t.Fatalf("writing the result: %v, want %v", err, wantErr)
					}
				}
				if wantErr != nil {
					if tc.name != "more than 65535" || dtype != "uint16" {
						t.Fatal(wantErr)
					}
					return
				}
				a, _ := os.ReadFile(want.Labels)
				b, _ := os.ReadFile(got.Labels)
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("label files differ (%d and %d bytes)", len(a), len(b))
				}
			})
		}
	}
	if _, _, err := raster.LabelImageToFile(l, &formats.Image{Raster: dense}, raster.ImageOutputs{Labels: filepath.Join(dir, "x.npy"), Stats: "s.csv"}, raster.Settings{DType: "auto"}, 8); err == nil {
		t.Error("LabelImageToFile took outputs uint16 labels do not serve")
	}
}

// TestCountImage checks CountImage's count against the plain labeling's
// components (filtered by size, or with the background value swapped for
// 0, by the test), and that binary labels that fit uint16 leave no label
// array.
func TestCountImage(t *testing.T) {
	sparse, dense, several := testImages(t)
	values := several.Data.Bytes()        // uint8 samples
	swapped := make([]uint8, len(values)) // background 2 as 0, and 0 as 2
	for i, v := range values {
		swapped[i] = [3]uint8{2, 1, 0}[v]
	}
	severalSwapped, _ := imagegraph.NewRaster(90, 70, 1, swapped)
	l := newLabeler(t)
	binary := imagegraph.Rule{Mode: imagegraph.Binary}
	// sizes returns the component sizes of r's plain labeling under rule.
	sizes := func(r *imagegraph.Raster, rule imagegraph.Rule, conn int) []int {
		res, err := raster.LabelImageIn(l, &formats.Image{Raster: r}, raster.Settings{Rule: rule}, conn, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := make([]int, res.Labels.Count)
		for _, v := range res.Labels.Data {
			if v != 0 {
				n[v-1]++
			}
		}
		return n
	}
	atLeast := func(n []int, m int) (c int) {
		for _, s := range n {
			if s >= m {
				c++
			}
		}
		return c
	}
	for _, tc := range []struct {
		name string
		r    *imagegraph.Raster
		s    raster.Settings
		conn int
		want int
		kept bool // a label array comes back
	}{
		{"binary", dense, raster.Settings{Rule: binary}, 8, len(sizes(dense, binary, 8)), false},
		{"binary c4", dense, raster.Settings{Rule: binary}, 4, len(sizes(dense, binary, 4)), false},
		{"one value", dense, raster.Settings{}, 8, len(sizes(dense, binary, 8)), false}, // labeled as binary
		{"order by size", dense, raster.Settings{Rule: binary, Order: raster.BySize}, 8, len(sizes(dense, binary, 8)), false},
		{"more than 65535", sparse, raster.Settings{Rule: binary}, 4, len(sizes(sparse, binary, 4)), true},
		{"min size", dense, raster.Settings{Rule: binary, MinSize: 3}, 8, atLeast(sizes(dense, binary, 8), 3), true},
		{"largest", dense, raster.Settings{Rule: binary, Largest: 5}, 8, 5, true},
		{"several values", several, raster.Settings{}, 8, len(sizes(several, imagegraph.Rule{}, 8)), true},
		{"background", several, raster.Settings{Background: 2}, 4, len(sizes(severalSwapped, imagegraph.Rule{}, 4)), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := raster.CountImage(l, &formats.Image{Raster: tc.r}, tc.s, tc.conn)
			if err != nil {
				t.Fatal(err)
			}
			if got.Labels.Count != tc.want {
				t.Errorf("%d components, want %d", got.Labels.Count, tc.want)
			}
			if kept := got.Labels.Data != nil || got.Narrow != nil; kept != tc.kept {
				t.Errorf("label array kept: %v, want %v", kept, tc.kept)
			}
		})
	}
}
