package band

// WriteRuns writes a row: labels[k] over [starts[k], ends[k]), 0 elsewhere
// (the runs in order, disjoint), and returns the OR of the labels.
func WriteRuns(dst []uint32, starts, ends []int32, labels []uint32) uint32 {
	var or uint32
	ends = ends[:len(starts)]
	labels = labels[:len(starts)]
	for _, label := range labels {
		or |= label
	}
	from, k := 0, writeRunsFast(dst, starts, ends, labels)
	if k > 0 {
		from = int(ends[k-1])
	}
	for ; k < len(starts); k++ {
		end := int(ends[k])
		FillSpan(dst, from, int(starts[k]), end, labels[k])
		from = end
	}
	Clear32(dst[from:])
	return or
}

// WriteBounds writes a row: labels[k] over [bounds[2k], bounds[2k+1]), 0
// elsewhere (the runs in order, disjoint).
func WriteBounds(dst []uint32, bounds []int32, labels []uint32) {
	bounds = bounds[:2*len(labels)]
	from, k := 0, writeBoundsFast(dst, bounds, labels)
	if k > 0 {
		from = int(bounds[2*k-1])
	}
	for ; k < len(labels); k++ {
		end := int(bounds[2*k+1])
		FillSpan(dst, from, int(bounds[2*k]), end, labels[k])
		from = end
	}
	Clear32(dst[from:])
}

// FastWrites reports whether [WriteRuns] and [WriteBounds] write eight
// entries a store. Rows of short runs then cost them no more than any
// other way of writing them.
func FastWrites() bool { return fastWrites() }
