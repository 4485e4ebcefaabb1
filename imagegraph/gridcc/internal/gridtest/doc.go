// Package gridtest holds what the tests of the grid labelers (ecl/grid and
// ecl/grid/runs) share: a breadth-first oracle (BFSLabels), a grid served
// from a key array (SliceKeys), and the awkward shapes, patterns and
// thread counts they are checked on.
package gridtest
