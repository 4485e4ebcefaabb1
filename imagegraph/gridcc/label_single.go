package gridcc

import (
	"encoding/binary"
	"runtime"

	"github.com/cclabel/cclabel/internal/parallel"
)

// singleChunk is the number of samples under which a raster is scanned by
// one goroutine.
const singleChunk = 1 << 20

// singleParallel splits d among goroutines, each scanning its part with
// scan (which returns the first foreground value, whether there is one,
// and whether it is the only one), and combines their answers.
func singleParallel[T comparable](d []T, threads int, scan func([]T) (T, bool, bool)) bool {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	threads = max(1, min(threads, len(d)/singleChunk))
	type part struct {
		v            T
		found, alone bool
	}
	parts := make([]part, parallel.ClampThreads(threads, len(d)))
	parallel.RangesIndexed(len(d), threads, func(t, lo, hi int) {
		p := &parts[t]
		p.v, p.found, p.alone = scan(d[lo:hi])
	})
	var v T
	found := false
	for _, p := range parts {
		switch {
		case !p.alone:
			return false
		case !p.found:
		case !found:
			v, found = p.v, true
		case p.v != v:
			return false
		}
	}
	return true
}

// scanInt returns the first nonzero sample of d, whether there is one, and
// whether all nonzero samples equal it.
func scanInt[T integer](d []T) (T, bool, bool) {
	i := 0
	for i < len(d) && d[i] == 0 {
		i++
	}
	if i == len(d) {
		return 0, false, true
	}
	v := d[i]
	for _, x := range d[i:] {
		if x != 0 && x != v {
			return v, true, false
		}
	}
	return v, true, true
}

// scanFloat is scanInt for float samples: NaN is background, and so are
// both zeros.
func scanFloat[T float32 | float64](d []T) (T, bool, bool) {
	i := 0
	for i < len(d) && (d[i] == 0 || d[i] != d[i]) {
		i++
	}
	if i == len(d) {
		return 0, false, true
	}
	v := d[i]
	for _, x := range d[i:] {
		if x != 0 && x == x && x != v {
			return v, true, false
		}
	}
	return v, true, true
}

// scanByte is scanInt for uint8 samples, eight at a time: a byte is
// acceptable when it is 0 or v, that is when it or its xor with v is 0.
func scanByte(d []uint8) (uint8, bool, bool) {
	i := 0
	for i < len(d) && d[i] == 0 {
		i++
	}
	if i == len(d) {
		return 0, false, true
	}
	v := d[i]
	// Chunks of 64 KiB on AVX2, so that a second value stops the scan soon.
	for ; i+1<<16 <= len(d); i += 1 << 16 {
		other, n := otherBytes(d[i:i+1<<16], v)
		if other {
			return v, true, false
		}
		if n == 0 {
			break
		}
	}
	vv := uint64(v) * 0x0101010101010101
	const chunk = 256
	for ; i+chunk <= len(d); i += chunk {
		var bad uint64
		for k := i; k < i+chunk; k += 8 {
			w := binary.LittleEndian.Uint64(d[k : k+8])
			bad |= nonzeroHigh(w) & nonzeroHigh(w^vv)
		}
		if bad != 0 {
			return v, true, false
		}
	}
	for _, x := range d[i:] {
		if x != 0 && x != v {
			return v, true, false
		}
	}
	return v, true, true
}

// nonzeroHigh sets the top bit of every nonzero byte of w (and clears the
// others): adding 0x7f to a byte's low seven bits carries into its top bit
// unless they are all zero.
func nonzeroHigh(w uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	return (w&low7 + low7 | w) & high
}
