package cclabel_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cclabel/cclabel"
	"github.com/cclabel/cclabel/ecl"
)

func TestSpanningForestFacade(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	const n = 3000
	var us, vs []int32
	for range 2500 {
		us, vs = append(us, int32(rng.IntN(n))), append(vs, int32(rng.IntN(n)))
	}
	g, err := ecl.FromEdges(n, us, vs)
	if err != nil {
		t.Fatal(err)
	}
	want := ecl.ComponentsBFS(g)
	for _, opts := range []cclabel.Options{
		{}, {Backend: cclabel.BackendSerial}, {Backend: cclabel.BackendCPU, Threads: 3, Algorithm: ecl.Afforest},
		{Backend: cclabel.BackendCPU, Algorithm: ecl.Auto},
	} {
		lab, err := cclabel.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		res, f, err := lab.SpanningForest(g)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if !slices.Equal(res.Result.Parent, want) {
			t.Errorf("%+v: representatives differ from BFS", opts)
		}
		if err := ecl.VerifyForest(g, f); err != nil {
			t.Errorf("%+v: %v", opts, err)
		}
		if res.Algorithm == ecl.Auto {
			t.Errorf("%+v: Auto not resolved", opts)
		}
		lab.Close()
	}
	lab, err := cclabel.New(cclabel.Options{Backend: cclabel.BackendCPU, Algorithm: ecl.ECLaf})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := lab.SpanningForest(g); err == nil {
		t.Error("ECLaf forest accepted")
	}
}

func ExampleLabeler_SpanningForest() {
	// A path 0-1-2 and a triangle 3-4-5.
	g, _ := ecl.FromEdges(6, []int32{0, 1, 3, 4, 5}, []int32{1, 2, 4, 5, 3})
	lab, _ := cclabel.New(cclabel.Options{Backend: cclabel.BackendSerial})
	defer lab.Close()
	res, f, _ := lab.SpanningForest(g)
	fmt.Println(res.Result.Count, f.Len(), f.U, f.V)
	// Output: 2 4 [0 1 3 3] [1 2 4 5]
}
