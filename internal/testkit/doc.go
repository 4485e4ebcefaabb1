// Package testkit holds the helpers that the tests of several packages share.
// These are the shared test data and its expected results ([Dir], [Cases],
// [Graphs]), checks of error messages ([WantError]), and hand-built test
// images and files ([GreyPattern], [BuildTIFF], [EXIFSegment]). Tests that
// need the shared data skip when it is absent.
package testkit
