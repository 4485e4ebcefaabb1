package incremental_test

import (
	"fmt"

	"github.com/cclabel/cclabel/ecl/incremental"
)

func ExampleUnionFind() {
	uf, _ := incremental.New(6, 2)
	// First batch: 0-1 and 4-5.
	_ = uf.Insert([]int32{0, 5}, []int32{1, 4})
	c, _ := uf.Connected(1, 4)
	fmt.Println(uf.Components(), c)
	// Second batch joins the two pairs through 1-5.
	_ = uf.Insert([]int32{1}, []int32{5})
	c, _ = uf.Connected(0, 4)
	r, _ := uf.Representative(5)
	fmt.Println(uf.Components(), c, r)
	// Output:
	// 4 false
	// 3 true 0
}
