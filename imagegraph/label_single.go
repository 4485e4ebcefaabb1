package imagegraph

import "encoding/binary"

// singleValue reports whether every foreground sample of r (nonzero, not
// NaN) holds the same value; multilabel labeling then equals binary
// labeling, which has faster paths. It stops at the second distinct
// foreground value.
func singleValue(r *Raster) bool {
	switch d := r.Data.(type) {
	case []uint8:
		return singleByte(d)
	case []uint16:
		return singleInt(d)
	case []uint32:
		return singleInt(d)
	case []uint64:
		return singleInt(d)
	case []int8:
		return singleInt(d)
	case []int16:
		return singleInt(d)
	case []int32:
		return singleInt(d)
	case []int64:
		return singleInt(d)
	case []float32:
		return singleFloat(d)
	case []float64:
		return singleFloat(d)
	}
	return false
}

// singleInt is singleValue for integer samples.
func singleInt[T integer](d []T) bool {
	i := 0
	for i < len(d) && d[i] == 0 {
		i++
	}
	if i == len(d) {
		return true
	}
	v := d[i]
	for _, x := range d[i:] {
		if x != 0 && x != v {
			return false
		}
	}
	return true
}

// singleFloat is singleValue for float samples: NaN is background, and so
// are both zeros.
func singleFloat[T float32 | float64](d []T) bool {
	i := 0
	for i < len(d) && (d[i] == 0 || d[i] != d[i]) {
		i++
	}
	if i == len(d) {
		return true
	}
	v := d[i]
	for _, x := range d[i:] {
		if x != 0 && x == x && x != v {
			return false
		}
	}
	return true
}

// singleByte is singleValue for uint8 samples, eight at a time: a byte is
// acceptable when it is 0 or v, that is when it or its xor with v is 0.
func singleByte(d []uint8) bool {
	i := 0
	for i < len(d) && d[i] == 0 {
		i++
	}
	if i == len(d) {
		return true
	}
	v := d[i]
	vv := uint64(v) * 0x0101010101010101
	const chunk = 256
	for ; i+chunk <= len(d); i += chunk {
		var bad uint64
		for k := i; k < i+chunk; k += 8 {
			w := binary.LittleEndian.Uint64(d[k : k+8])
			bad |= nonzeroHigh(w) & nonzeroHigh(w^vv)
		}
		if bad != 0 {
			return false
		}
	}
	for _, x := range d[i:] {
		if x != 0 && x != v {
			return false
		}
	}
	return true
}

// nonzeroHigh sets the top bit of every nonzero byte of w (and clears the
// others): adding 0x7f to a byte's low seven bits carries into its top bit
// unless they are all zero.
func nonzeroHigh(w uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	return (w&low7 + low7 | w) & high
}
