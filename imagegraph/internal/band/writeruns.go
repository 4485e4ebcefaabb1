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

// WriteTouching writes a row of runs that touch each other: labels[k]
// over [bounds[k], bounds[k+1]), 0 before bounds[0] and from
// bounds[len(labels)] on (len(labels)+1 bounds, increasing). It returns the
// OR of the labels.
func WriteTouching(dst []uint32, bounds []uint16, labels []uint32) uint32 {
	var or uint32
	for _, label := range labels {
		or |= label
	}
	if len(labels) == 0 {
		Clear32(dst)
		return 0
	}
	bounds = bounds[:len(labels)+1]
	from := int(bounds[0])
	Clear32(dst[:from])
	k := writeTouchingFast(dst, bounds, labels)
	from = int(bounds[k])
	for ; k < len(labels); k++ {
		end := int(bounds[k+1])
		FillSpan(dst, from, from, end, labels[k])
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

// WriteBounds16 is [WriteBounds] writing uint16 labels; every label must
// fit.
func WriteBounds16(dst []uint16, bounds []int32, labels []uint32) {
	bounds = bounds[:2*len(labels)]
	from := 0
	for k, label := range labels {
		start, end := int(bounds[2*k]), int(bounds[2*k+1])
		clear(dst[from:start])
		fill16(dst[start:end], uint16(label))
		from = end
	}
	clear(dst[from:])
}

// fill16 sets every element of s to v, four at a time.
func fill16(s []uint16, v uint16) {
	i := 0
	for ; i+4 <= len(s); i += 4 {
		t := s[i : i+4 : i+4]
		t[0], t[1], t[2], t[3] = v, v, v, v
	}
	for ; i < len(s); i++ {
		s[i] = v
	}
}
