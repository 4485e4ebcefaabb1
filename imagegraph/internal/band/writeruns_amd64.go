//go:build !purego

package band

import "golang.org/x/sys/cpu"

// writeRunsFast writes the first runs of a row as WriteRuns does, eight
// entries a store, overshooting as FillSpan does, and returns how many it
// wrote: every run that ends eight entries or more before dst's end (the
// runs from the first that does not are left), or none without AVX2.
func writeRunsFast(dst []uint32, starts, ends []int32, labels []uint32) int {
	n := fastRuns(dst, ends, 1)
	if n > 0 {
		writeFast(dst, starts, ends, 1, labels, n)
	}
	return n
}

// writeBoundsFast is writeRunsFast for runs given as bounds (start, end
// pairs).
func writeBoundsFast(dst []uint32, bounds []int32, labels []uint32) int {
	if len(labels) == 0 {
		return 0
	}
	n := fastRuns(dst, bounds[1:], 2)
	if n > 0 {
		writeFast(dst, bounds, bounds[1:], 2, labels, n)
	}
	return n
}

// writeTouchingFast writes the first runs of a row as WriteTouching does
// (dst before bounds[0] already cleared), eight entries a store,
// overshooting as FillSpan does, and returns how many it wrote: every run
// that ends eight entries or more before dst's end, or none without AVX2.
func writeTouchingFast(dst []uint32, bounds []uint16, labels []uint32) int {
	if !fastWrites() {
		return 0
	}
	n := len(labels)
	for n > 0 && int(bounds[n])+8 > len(dst) {
		n--
	}
	if n == 0 {
		return 0
	}
	// Each run's first blocks blocks, up to the last run that leaves room
	// for them; one for the others (see writeFast).
	blocks := runBlocks(len(dst), len(labels))
	m := n
	for m > 0 && int(bounds[m-1])+8*blocks > len(dst) {
		m--
	}
	if m > 0 {
		writeTouchingAVX2(&dst[0], &bounds[0], &labels[0], m, blocks)
	}
	if m < n {
		writeTouchingAVX2(&dst[0], &bounds[m], &labels[m], n-m, 1)
	}
	return n
}

// writeFast writes the first n runs (from starts[k*step] to ends[k*step])
// of a row with writeRunsAVX2; every one ends eight entries or more before
// dst's end. Where runs are long (label maps), each run's first
// runBlocks blocks of eight are written without a test on its length,
// up to the last run that leaves room for them; the others, and every run
// where runs are short, one.
func writeFast(dst []uint32, starts, ends []int32, step int, labels []uint32, n int) {
	blocks := runBlocks(len(dst), len(labels))
	m := n
	for m > 0 && int(starts[(m-1)*step])+8*blocks > len(dst) {
		m--
	}
	stride := 4 * step
	if m > 0 {
		writeRunsAVX2(&dst[0], &starts[0], &ends[0], stride, &labels[0], m, 0, blocks)
	}
	if m < n {
		from := 0
		if m > 0 {
			from = int(ends[(m-1)*step])
		}
		writeRunsAVX2(&dst[0], &starts[m*step], &ends[m*step], stride, &labels[m], n-m, from, 1)
	}
}

// runBlocks returns the blocks of eight entries that writeRunsAVX2 writes
// for each run of a row of width entries and runs runs before testing its
// length: one where runs are short (their mean span, gaps included, under
// 16 entries), else about twice the mean span, at most eight blocks.
func runBlocks(width, runs int) int {
	if runs == 0 || width < 16*runs {
		return 1
	}
	return min(8, (2*width/runs+7)/8)
}

// fastRuns returns how many of the runs ending at ends[0], ends[step], ...
// (len(ends)/step rounded up of them) writeRunsAVX2 can write into dst:
// those ending eight entries or more before its end; none without AVX2.
func fastRuns(dst []uint32, ends []int32, step int) int {
	if !fastWrites() {
		return 0
	}
	n := (len(ends) + step - 1) / step
	for n > 0 && int(ends[(n-1)*step])+8 > len(dst) {
		n--
	}
	return n
}

// writeRunsAVX2 writes n runs into dst, the k-th from starts and ends
// k*stride bytes on: for each, zeros in blocks of eight from the previous
// run's end (from for the first) while short of its start, then its label
// in blocks blocks of eight from its start, and in further blocks while
// short of its end.
//
//go:noescape
func writeRunsAVX2(dst *uint32, starts, ends *int32, stride int, labels *uint32, n, from, blocks int)

// writeTouchingAVX2 writes n touching runs into dst, the k-th from
// bounds[k] to bounds[k+1]: its label in blocks blocks of eight from its
// start, and in further blocks while short of its end.
//
//go:noescape
func writeTouchingAVX2(dst *uint32, bounds *uint16, labels *uint32, n, blocks int)

// fastWrites reports whether writeRunsAVX2 can run.
func fastWrites() bool { return cpu.X86.HasAVX2 }
