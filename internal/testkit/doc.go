// Package testkit holds the helpers that the tests of several packages
// share: the shared test data and its expected results ([Dir], [Cases],
// [Graphs]; tests that need it skip when it is absent), checks of error
// messages ([WantError]), hand-built test images and files ([GreyPattern],
// [BuildTIFF], [EXIFSegment]), and the grid labelers' breadth-first oracle
// and patterns ([BFSLabels], [SliceKeys]).
package testkit
