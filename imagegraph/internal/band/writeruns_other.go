//go:build !amd64 || purego

package band

// writeRunsFast writes no run: WriteRuns writes them all.
func writeRunsFast(dst []uint32, starts, ends []int32, labels []uint32) int { return 0 }

// writeBoundsFast writes no run: WriteBounds writes them all.
func writeBoundsFast(dst []uint32, bounds []int32, labels []uint32) int { return 0 }

// writeTouchingFast writes no run: WriteTouching writes them all.
func writeTouchingFast(dst []uint32, bounds []uint16, labels []uint32) int { return 0 }

// fastWrites reports false: there is no fast row writer.
func fastWrites() bool { return false }
