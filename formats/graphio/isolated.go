package graphio

import (
	"fmt"
	"math/bits"
)

// isolatedSlack is how many vertices a header may declare beyond the two
// per entry that its entries can touch before the reader warns.
const isolatedSlack = 1 << 16

// isolatedWarning returns a warning when a text header (header: "size
// line", "p line") declares n vertices, far more than its count promised
// entries (noun: "entry", "edge") can touch, or "" when it does not.
// The warning names how many vertices the edges us, vs touch: every other
// vertex is isolated, yet costs the graph its offset.
func isolatedWarning(header, noun string, n, count int64, us, vs []int32) string {
	if n <= isolatedSlack || (n-isolatedSlack-1)/2 < count { // n <= 2*count + isolatedSlack, without overflow
		return ""
	}
	seen := make([]uint64, (n+63)/64)
	for i, u := range us {
		v := vs[i]
		seen[u/64] |= 1 << (u % 64)
		seen[v/64] |= 1 << (v % 64)
	}
	touched := 0
	for _, w := range seen {
		touched += bits.OnesCount64(w)
	}
	return fmt.Sprintf("%s declares %d vertices, but only %d of them appear in its %d %s: the other %d are isolated",
		header, n, touched, count, plural(count, noun), n-int64(touched))
}

// plural returns noun ("entry", "edge") in the plural unless count is 1.
func plural(count int64, noun string) string {
	switch {
	case count == 1:
		return noun
	case noun[len(noun)-1] == 'y':
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
