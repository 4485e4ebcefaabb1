package slabs

import (
	"fmt"
	"slices"
	"testing"
)

func TestMissingChunks(t *testing.T) {
	for _, c := range []struct {
		have []int
		n    int
		want []int
	}{
		{[]int{0, 1, 2}, 3, nil},
		{[]int{0, 2}, 3, []int{1}},
		{[]int{1}, 4, []int{0, 2, 3}},
		{[]int{3}, 5, []int{0, 1, 2, 4}},
	} {
		t.Run(fmt.Sprint(c.have, c.n), func(t *testing.T) {
			var chunks []*Chunk
			for _, i := range c.have {
				chunks = append(chunks, &Chunk{Index: i})
			}
			if got := missingChunks(chunks, c.n); !slices.Equal(got, c.want) {
				t.Errorf("missing %v, want %v", got, c.want)
			}
		})
	}
}
