package main

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/cclabel/cclabel/ecl"
)

// csrEdges returns the arcs of a CSR matrix of n rows (indptr of n+1
// entries, indices of indptr[n] entries, both of type T) as edge lists,
// checking every index.
func csrEdges[T int32 | int64](n int, indptr, indices unsafe.Pointer, nnz int64) (us, vs []int32, err error) {
	ptr := unsafe.Slice((*T)(indptr), n+1)
	if ptr[0] != 0 || int64(ptr[n]) != nnz {
		return nil, nil, errorf(codeInvalid, "cclabel: indptr runs from %d to %d, not 0 to %d", int64(ptr[0]), int64(ptr[n]), nnz)
	}
	for v := 0; v < n; v++ {
		if ptr[v+1] < ptr[v] {
			return nil, nil, errorf(codeInvalid, "cclabel: indptr decreases at row %d", v)
		}
	}
	idx := unsafe.Slice((*T)(indices), nnz)
	us = make([]int32, nnz)
	vs = make([]int32, nnz)
	for v := 0; v < n; v++ {
		for j := ptr[v]; j < ptr[v+1]; j++ {
			u := idx[j]
			if u < 0 || int64(u) >= int64(n) {
				return nil, nil, errorf(codeInvalid, "cclabel: column index %d of row %d outside 0..%d", int64(u), v, n-1)
			}
			us[j], vs[j] = int32(v), int32(u)
		}
	}
	return us, vs, nil
}

// ccl_graph_components labels the connected components of the graph of an
// n x n CSR matrix (indptr, indices of index_dtype int32 or int64, nnz
// entries), its arcs taken as undirected edges (weak connectivity), into
// labels: n int32 values 0..count-1 numbered by each component's smallest
// vertex, as scipy.sparse.csgraph.connected_components numbers them.
// See cclabel.h.
//
//export ccl_graph_components
func ccl_graph_components(n C.int64_t, indptr, indices unsafe.Pointer, indexDtype C.int, nnz C.int64_t,
	backend C.int, threads C.int, labels *C.int32_t, count *C.int64_t,
	errbuf *C.char, errlen C.size_t) C.int {
	err := guard(func() error {
		if n < 0 || int64(n) >= math.MaxInt32 {
			return errorf(codeTooLarge, "cclabel: graphs of fewer than 2^31-1 vertices, not %d", int64(n))
		}
		if nnz < 0 {
			return errorf(codeInvalid, "cclabel: %d entries", int64(nnz))
		}
		lab, err := labeler(int(backend), int(threads))
		if err != nil {
			return err
		}
		if n == 0 {
			if count != nil {
				*count = 0
			}
			return nil
		}
		if indptr == nil || labels == nil || (nnz > 0 && indices == nil) {
			return errorf(codeInvalid, "cclabel: a NULL array")
		}
		var us, vs []int32
		switch int(indexDtype) {
		case dtInt32:
			us, vs, err = csrEdges[int32](int(n), indptr, indices, int64(nnz))
		case dtInt64:
			us, vs, err = csrEdges[int64](int(n), indptr, indices, int64(nnz))
		default:
			err = errorf(codeType, "cclabel: CSR indices of dtype code %d: use int32 or int64", int(indexDtype))
		}
		if err != nil {
			return err
		}
		g, err := ecl.FromEdgesParallel(int(n), us, vs, int(threads))
		if err != nil {
			return errorf(codeInvalid, "%v", err)
		}
		us, vs = nil, nil
		res, err := lab.LabelGraph(g)
		if err != nil {
			return err
		}
		dst := unsafe.Slice((*uint32)(unsafe.Pointer(labels)), int(n))
		res.Result.LabelsInto(dst, int(threads))
		for i := range dst {
			dst[i]-- // 1..count to 0..count-1, in place as int32
		}
		if count != nil {
			*count = C.int64_t(res.Result.Count)
		}
		return nil
	})
	return setError(err, errbuf, errlen)
}
