// Package gridtest holds what the tests of the grid labelers share: a
// breadth-first oracle ([BFSLabels]), grids served from key arrays
// ([SliceKeys]), and the shapes, patterns and thread counts they are
// checked on.
package gridtest
