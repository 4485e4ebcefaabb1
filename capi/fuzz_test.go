package main

import (
	"encoding/binary"
	"testing"
	"unsafe"
)

// FuzzParseLayout checks parseLayout on any shape and strides: it fails
// with a code callers can test, or returns a layout whose raster holds the
// array's elements, every byte of them inside the span the strides give,
// and the one-plane rotation of measured keeps that.
func FuzzParseLayout(f *testing.F) {
	f.Add(uint8(2), int64(3), int64(5), int64(0), int64(5), int64(1), int64(0), uint8(1))
	f.Add(uint8(3), int64(2), int64(3), int64(4), int64(1), int64(2), int64(6), uint8(1))
	f.Add(uint8(3), int64(1), int64(4), int64(5), int64(80), int64(20), int64(4), uint8(4))
	f.Add(uint8(1), int64(-1), int64(0), int64(0), int64(1), int64(0), int64(0), uint8(1))
	f.Add(uint8(2), int64(1<<40), int64(1<<40), int64(0), int64(1), int64(1), int64(0), uint8(8))
	f.Fuzz(func(t *testing.T, ndim uint8, s0, s1, s2, t0, t1, t2 int64, item uint8) {
		nd, size := int(ndim%5), int(item%9)
		if size == 0 {
			size = 1
		}
		shape, strides := []int64{s0, s1, s2}, []int64{t0, t1, t2}
		if nd <= 3 {
			shape, strides = shape[:nd], strides[:nd]
		}
		l, err := parseLayout(nd, shape, strides, size)
		if err != nil {
			if c := codeOf(err); c != codeInvalid && c != codeTooLarge {
				t.Fatalf("error %v has code %d", err, c)
			}
			return
		}
		n := int64(1)
		for _, s := range shape[:nd] {
			n *= s
		}
		if int64(l.n) != n || int64(l.w)*int64(l.h)*int64(l.d) != n {
			t.Fatalf("layout %+v of %d elements", l, n)
		}
		for _, m := range []layout{l, l.measured()} {
			if m.w*m.h*m.d != l.n {
				t.Fatalf("measured layout %+v of %d elements", m, l.n)
			}
			// The raster's sides are the array's, axis by axis.
			for c, a := range m.axis {
				side := []int{m.w, m.h, m.d}[c]
				if a < 0 && side != 1 || a >= 0 && int64(side) != shape[a] {
					t.Fatalf("layout %+v: raster side %d of axis %d", m, side, a)
				}
			}
		}
		if n > 0 {
			// The last element's byte offset is inside n*size bytes.
			last := int64(0)
			for a := 0; a < nd; a++ {
				last += (shape[a] - 1) * strides[a]
			}
			if last < 0 || last+int64(size) > n*int64(size) {
				t.Fatalf("layout %+v accepts strides %v reaching byte %d of %d", l, strides, last, n*int64(size))
			}
		}
	})
}

// FuzzCSREdges checks csrEdges on any indptr and indices (int32, from the
// fuzzer's bytes): CCL_EINVAL, or edges whose ends are vertices, one an
// entry.
func FuzzCSREdges(f *testing.F) {
	words := func(v ...int32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		return b
	}
	f.Add(uint8(3), words(0, 2, 3, 3), words(1, 2, 0))
	f.Add(uint8(1), words(0, 1), words(5))
	f.Add(uint8(2), words(0, 2, 1), words(0, 1))
	f.Fuzz(func(t *testing.T, n uint8, ptrBytes, idxBytes []byte) {
		ptr := make([]int32, len(ptrBytes)/4)
		for i := range ptr {
			ptr[i] = int32(binary.LittleEndian.Uint32(ptrBytes[4*i:]))
		}
		idx := make([]int32, len(idxBytes)/4+1) // never empty, for its address
		for i := range len(idxBytes) / 4 {
			idx[i] = int32(binary.LittleEndian.Uint32(idxBytes[4*i:]))
		}
		rows := int(n)
		if len(ptr) < rows+1 {
			return // the caller gives n+1 entries
		}
		nnz := int64(len(idx) - 1)
		if len(ptr) > 0 && int64(ptr[rows]) <= nnz && ptr[rows] >= 0 {
			nnz = int64(ptr[rows])
		}
		us, vs, err := csrEdges[int32](rows, unsafe.Pointer(&ptr[0]), unsafe.Pointer(&idx[0]), nnz)
		if err != nil {
			if codeOf(err) != codeInvalid {
				t.Fatalf("error %v has code %d", err, codeOf(err))
			}
			return
		}
		if int64(len(us)) != nnz || len(vs) != len(us) {
			t.Fatalf("%d and %d edges of %d entries", len(us), len(vs), nnz)
		}
		for j := range us {
			if us[j] < 0 || int(us[j]) >= rows || vs[j] < 0 || int(vs[j]) >= rows || vs[j] != idx[j] {
				t.Fatalf("edge %d: %d-%d of %d vertices", j, us[j], vs[j], rows)
			}
		}
	})
}
