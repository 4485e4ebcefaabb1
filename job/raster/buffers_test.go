package raster_test

import (
	"testing"

	"github.com/cclabel/cclabel/job/raster"
)

func TestLabelBuffersGetPut(t *testing.T) {
	var none *raster.LabelBuffers
	none.Put(make([]uint32, 4))
	if none.Get(4) != nil {
		t.Error("a nil LabelBuffers returned an array")
	}
	b := &raster.LabelBuffers{Keep: 2}
	if b.Get(10) != nil {
		t.Error("an empty LabelBuffers returned an array")
	}
	small, big, bigger := make([]uint32, 10), make([]uint32, 100), make([]uint32, 1000)
	b.Put(small)
	b.Put(bigger)
	b.Put(big) // over Keep: the smallest (small) is dropped
	if got := b.Get(5); len(got) != 5 || cap(got) != 100 {
		t.Errorf("Get(5) = len %d cap %d; want the 100-entry array (the smallest that fits, small was dropped)", len(got), cap(got))
	}
	if got := b.Get(500); len(got) != 500 || &got[0] != &bigger[0] {
		t.Errorf("Get(500) did not return the 1000-entry array")
	}
	if b.Get(1) != nil {
		t.Error("Get after every array was taken returned one")
	}
	b.Keep = 0
	b.Put(small)
	if b.Get(1) != nil {
		t.Error("Keep 0 kept an array")
	}
}

// TestBatchReusesLabelArrays labels several volumes of one size through a
// batch whose label arrays are passed on: the stale contents of a reused
// array must not leak into the next file's labels.
