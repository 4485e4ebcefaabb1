"""cclabel: connected-component labeling of NumPy arrays (and, through
cclabel._device, CUDA arrays) with the cclabel engine.

Labels are 0 for background and 1..N in order of first occurrence in the
array's memory order (C order: last axis fastest; Fortran order: first axis
fastest). The output has the input's shape and memory order. C and Fortran
contiguous inputs are read in place; other strides are copied first.
docs/python.md describes every function.
"""

import ctypes
import json

import numpy as np

from ._lib import (  # noqa: F401  (re-exported for cclabel._device)
    BACKENDS,
    DTYPES,
    ERANGE,
    ORDERS,
    CclabelError,
    _check,
    _errbuf,
    _lib,
    library_path,
)

__all__ = [
    "label",
    "statistics",
    "contacts",
    "dust",
    "largest_k",
    "graph_components",
    "devices",
    "CclabelError",
]

__version__ = "0.1.0"

_LABEL_DTYPES = ("uint16", "uint32", "uint64", "int32", "int64")
_I64P = ctypes.POINTER(ctypes.c_int64)


def _is_gpu_array(arr):
    if hasattr(arr, "__cuda_array_interface__"):
        return True
    mod = type(arr).__module__ or ""
    if mod.startswith("torch") and bool(getattr(arr, "is_cuda", False)):
        return True
    # DLPack alone: a CUDA (2) or CUDA managed (13) device.
    dev = getattr(arr, "__dlpack_device__", None)
    if dev is not None and not isinstance(arr, np.ndarray):
        try:
            return dev()[0] in (2, 13)
        except Exception:
            return False
    return False


def _dims(a):
    """Returns ctypes arrays of a's shape and byte strides."""
    nd = a.ndim
    shape = (ctypes.c_int64 * max(nd, 1))(*a.shape)
    strides = (ctypes.c_int64 * max(nd, 1))(*a.strides)
    return shape, strides


def _fortran_only(a):
    return a.flags.f_contiguous and not a.flags.c_contiguous


def _prepare(arr, name="arr"):
    """Returns arr as a C or Fortran contiguous native-endian ndarray of a
    supported dtype, copying only when it is neither (or non-native)."""
    a = np.asarray(arr)
    if a.ndim < 1 or a.ndim > 3:
        raise ValueError("cclabel: %s must have 1 to 3 dimensions, not %d" % (name, a.ndim))
    if a.dtype.name not in DTYPES:
        raise TypeError("cclabel: %s has dtype %s; supported: %s" % (name, a.dtype, ", ".join(DTYPES)))
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="), order="K")
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        a = np.ascontiguousarray(a)  # documented: other strides are copied
    return a


def _rule(binary, threshold, invert):
    if binary and threshold is not None:
        raise ValueError("cclabel: binary and threshold exclude each other")
    if invert and threshold is None:
        raise ValueError("cclabel: invert needs a threshold")
    if threshold is not None:
        return 2, float(threshold)
    if binary:
        return 1, 0.0
    return 0, 0.0


def _enum(table, value, what):
    try:
        return table[value]
    except (KeyError, TypeError):
        raise ValueError("cclabel: %s must be one of %s, not %r" % (what, ", ".join(table), value)) from None


def _output(a, out, out_dtype):
    """Returns the output array for a: out, checked, or a new one."""
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError("cclabel: out must be a NumPy array")
        if out.shape != a.shape:
            raise ValueError("cclabel: out has shape %s, the input %s" % (out.shape, a.shape))
        if out_dtype is not None and np.dtype(out_dtype) != out.dtype:
            raise ValueError("cclabel: out has dtype %s, out_dtype is %s" % (out.dtype, np.dtype(out_dtype)))
        if out.dtype.name not in _LABEL_DTYPES or not out.dtype.isnative:
            raise TypeError("cclabel: out must have dtype uint16, uint32, uint64, int32 or int64, not %s" % out.dtype)
        if not out.flags.writeable:
            raise ValueError("cclabel: out is read-only")
        same = out.flags.f_contiguous if _fortran_only(a) else out.flags.c_contiguous
        if not same:
            raise ValueError("cclabel: out must be contiguous in the input's memory order (%s)"
                             % ("Fortran" if _fortran_only(a) else "C"))
        if np.shares_memory(out, a):
            raise ValueError("cclabel: out overlaps the input")
        return out
    dt = np.dtype(out_dtype if out_dtype is not None else np.uint32)
    if dt.name not in _LABEL_DTYPES:
        raise TypeError("cclabel: out_dtype must be uint16, uint32, uint64, int32 or int64, not %s" % dt)
    return np.empty(a.shape, dtype=dt, order="F" if _fortran_only(a) else "C")


def _label(arr, connectivity, binary, threshold, invert, background, out_dtype, order,
           backend, threads, out, min_size=0, largest=0):
    a = _prepare(arr)
    mode, thr = _rule(binary, threshold, invert)
    conn = 0 if connectivity is None else int(connectivity)
    res = _output(a, out, out_dtype)
    lib = _lib()
    shape, strides = _dims(a)
    count = ctypes.c_int64(0)
    err = _errbuf()
    code = lib.ccl_label(
        a.ctypes.data, DTYPES[a.dtype.name], a.ndim, shape, strides,
        res.ctypes.data, DTYPES[res.dtype.name],
        mode, thr, int(bool(invert)), float(background),
        conn, _enum(ORDERS, order, "order"), _enum(BACKENDS, backend, "backend"), int(threads),
        int(min_size), int(largest), ctypes.byref(count), err, len(err))
    _check(code, err)
    return res, int(count.value)


def label(arr, connectivity=None, binary=False, threshold=None, invert=False, background=0,
          out_dtype=None, order="first", backend="auto", threads=0, return_N=False, out=None):
    """Labels the connected components of arr and returns the labels
    (with N, the number of components, when return_N).

    arr: a 1D, 2D or 3D array of bool, (u)int8..64, float32 or float64 (or a
    CUDA array, labeled on its device by cclabel._device). The rule: equal
    nonzero values connect (multilabel, the default); binary=True: any
    nonzero value is foreground; threshold=t: values >= t are foreground
    (< t with invert=True). background: the value that is background under
    the multilabel rule (a value other than 0 labels a copy of arr).
    connectivity: None for the full one (8 in 2D, 26 in 3D, as the cclabel
    CLI), else 4 or 8 (2D), 6, 18 or 26 (3D). out_dtype: uint32 (default),
    uint16, uint64, int32 or int64. order: 'first' numbers components by
    first occurrence in memory order, 'size' by decreasing size (ties by
    first occurrence). backend: 'auto', 'gpu', 'cpu' or 'serial'. threads:
    CPU threads, 0 for all cores. out: an array to write the labels into
    (arr's shape, contiguous in arr's memory order).
    """
    if _is_gpu_array(arr):
        if backend not in ("auto", "gpu"):
            raise ValueError("cclabel: a CUDA array is labeled on its GPU: backend must be 'auto' or "
                             "'gpu', not %r" % (backend,))
        try:
            from ._device import label as _label_device
        except ImportError as e:
            raise RuntimeError("cclabel: labeling CUDA arrays needs cclabel._device, which is "
                               "not available here (%s)" % e) from e
        return _label_device(arr, connectivity=connectivity, binary=binary, threshold=threshold,
                             invert=invert, background=background, out_dtype=out_dtype, order=order,
                             threads=threads, return_N=return_N, out=out)
    res, n = _label(arr, connectivity, binary, threshold, invert, background, out_dtype, order,
                    backend, threads, out)
    return (res, n) if return_N else res


def largest_k(arr, k, connectivity=None, binary=False, threshold=None, invert=False, background=0,
              out_dtype=None, order="first", backend="auto", threads=0, return_N=False, out=None):
    """Labels arr as label() does and keeps its k largest components (ties
    to the first to occur), numbered 1..min(k, N) by first occurrence (or by
    size with order='size'); everything else is 0."""
    k = int(k)
    if k < 0:
        raise ValueError("cclabel: k must be >= 0, not %d" % k)
    res, n = _label(arr, connectivity, binary, threshold, invert, background, out_dtype, order,
                    backend, threads, out, largest=max(k, 1))
    if k == 0:  # labeled all the same, so that its arguments are checked as for any k
        res[...] = 0
        n = 0
    return (res, n) if return_N else res


def dust(arr, threshold, connectivity=None, binary=False, background=0, in_place=False,
         backend="auto", threads=0):
    """Returns arr with every component of fewer than threshold elements
    set to background (cc3d.dust). Components are those of label() under
    the multilabel rule, or the binary one with binary=True. in_place writes
    into arr itself (which must then be a writeable NumPy array)."""
    a = _prepare(arr)
    if in_place and a is not arr:
        raise ValueError("cclabel: in_place needs a C or Fortran contiguous NumPy array of native byte order")
    labels, _ = _label(a, connectivity, binary, None, False, background, np.uint32, "first",
                       backend, threads, None, min_size=max(int(threshold), 0))
    if binary:
        removed = (labels == 0) & (a != 0)
        fill = 0
    else:
        removed = (labels == 0) & (a != background)
        fill = background
    res = a if in_place else a.copy(order="K")
    res[removed] = fill
    return res


def _measure_labels(labels):
    """Returns labels as a uint16 or uint32 array that measuring reads, and
    the component count (its maximum)."""
    a = np.asarray(labels)
    if a.dtype.kind not in "ui" and a.dtype != np.bool_:
        raise TypeError("cclabel: labels must be an integer array, not %s" % a.dtype)
    if a.ndim < 1 or a.ndim > 3:
        raise ValueError("cclabel: labels must have 1 to 3 dimensions, not %d" % a.ndim)
    count = int(a.max()) if a.size else 0
    if a.size and a.dtype.kind == "i" and int(a.min()) < 0:
        raise ValueError("cclabel: negative labels")
    if count > 0xFFFFFFFF:
        raise OverflowError("cclabel: label %d past uint32" % count)
    if count > a.size:
        # Checked before the tables of count rows are allocated.
        raise ValueError("cclabel: label %d in an array of %d elements: labels are 1..N with N at most "
                         "the element count (renumber sparse labels first, e.g. with "
                         "np.unique(labels, return_inverse=True))" % (count, a.size))
    if a.dtype.name not in ("uint16", "uint32") or not a.dtype.isnative:
        a = a.astype(np.uint32, order="K")
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        a = np.ascontiguousarray(a)
    return a, count


def _spacing(spacing, ndim):
    if spacing is None:
        return None, None
    sp = np.ascontiguousarray(np.broadcast_to(np.asarray(spacing, dtype=np.float64), (ndim,)))
    return sp, sp.ctypes.data


class BoundingBoxes:
    """The bounding boxes of statistics(), indexed by label: a tuple of slices
    per label (None for the background, label 0), made on access so that
    millions of components cost no Python objects until they are read."""

    def __init__(self, bmin, bmax):
        self._min, self._max = bmin, bmax

    def __len__(self):
        return len(self._min)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        k = range(len(self))[k]  # bounds and negative indices as a list's
        if k == 0:
            return None
        return tuple(slice(int(lo), int(hi) + 1) for lo, hi in zip(self._min[k], self._max[k]))

    def __iter__(self):
        return (self[k] for k in range(len(self)))

    def __repr__(self):
        return "BoundingBoxes(%d labels)" % len(self)


def statistics(labels, intensity=None, spacing=None, surface=False, threads=0):
    """Measures every component of a label array (0 background, 1..N) and
    returns a dict of NumPy arrays indexed by label, as cc3d.statistics
    does: row 0 is the background, of which only 'voxel_counts' is measured
    (its other rows hold NaN, or -1 for the boxes). Coordinates are in array
    axis order; spacing (one value, or one per axis) weighs the surface and
    the equivalent diameter.

    Keys: voxel_counts (int64), bounding_boxes (a BoundingBoxes: slice
    tuples by label, None for 0, made on access), bbox_min and bbox_max (inclusive, int64, (N+1, ndim)), centroids,
    equivalent_diameters; with intensity: intensity_sum, intensity_mean,
    intensity_min, intensity_max, intensity_std, weighted_centroids; with
    surface=True: surface (the perimeter in 2D).
    """
    a, count = _measure_labels(labels)
    nd = a.ndim
    ip, idt, ist = None, 0, None
    if intensity is not None:
        im = _prepare(intensity, "intensity")
        if im.shape != a.shape:
            raise ValueError("cclabel: intensity has shape %s, the labels %s" % (im.shape, a.shape))
        if _fortran_only(a) != _fortran_only(im) and a.ndim > 1 and a.size > 1:
            im = np.asfortranarray(im) if _fortran_only(a) else np.ascontiguousarray(im)
        ip, idt = im.ctypes.data, DTYPES[im.dtype.name]
        ist = (ctypes.c_int64 * nd)(*im.strides)
    sp, spp = _spacing(spacing, nd)
    ints = np.empty((count, 1 + 2 * nd), dtype=np.int64)
    floats = np.empty((count, 2 * nd + 7), dtype=np.float64)
    shape, strides = _dims(a)
    err = _errbuf()
    code = _lib().ccl_statistics(
        a.ctypes.data, DTYPES[a.dtype.name], nd, shape, strides, count,
        ip, idt, ist, spp, int(bool(surface)), int(threads),
        ints.ctypes.data, floats.ctypes.data, err, len(err))
    _check(code, err)

    def col(block, cols, fill):
        r = np.empty((count + 1,) + block[:, cols].shape[1:], dtype=block.dtype)
        r[0] = fill
        r[1:] = block[:, cols]
        return r

    sizes = col(ints, 0, 0)
    sizes[0] = a.size - int(ints[:, 0].sum())
    bmin = col(ints, slice(1, 1 + nd), -1)
    bmax = col(ints, slice(1 + nd, 1 + 2 * nd), -1)
    nan = np.nan
    stats = {
        "voxel_counts": sizes,
        "bbox_min": bmin,
        "bbox_max": bmax,
        "bounding_boxes": BoundingBoxes(bmin, bmax),
        "centroids": col(floats, slice(0, nd), nan),
        "equivalent_diameters": col(floats, nd, nan),
    }
    if intensity is not None:
        for j, name in enumerate(("intensity_sum", "intensity_mean", "intensity_min",
                                  "intensity_max", "intensity_std")):
            stats[name] = col(floats, nd + 1 + j, nan)
        stats["weighted_centroids"] = col(floats, slice(nd + 7, 2 * nd + 7), nan)
    if surface:
        stats["surface"] = col(floats, nd + 6, nan)
    return stats


def contacts(labels, spacing=None, threads=0):
    """Returns the pairs of components of a label array that share a face
    (6-neighbours in 3D, 4 in 2D) as a dict of arrays: 'pairs' ((K, 2)
    uint32, a < b, ordered by a then b), 'faces' (int64, the shared faces)
    and 'areas' (float64, their area, or length in 2D, weighed by spacing)."""
    a, count = _measure_labels(labels)
    nd = a.ndim
    sp, spp = _spacing(spacing, nd)
    shape, strides = _dims(a)
    cap = 4 * count + 64
    lib = _lib()
    while True:
        pairs = np.empty((cap, 2), dtype=np.uint32)
        faces = np.empty(cap, dtype=np.int64)
        areas = np.empty(cap, dtype=np.float64)
        n = ctypes.c_int64(0)
        err = _errbuf()
        code = lib.ccl_contacts(a.ctypes.data, DTYPES[a.dtype.name], nd, shape, strides, count,
                                spp, int(threads), pairs.ctypes.data, faces.ctypes.data,
                                areas.ctypes.data, cap, ctypes.byref(n), err, len(err))
        if code == ERANGE and n.value > cap:  # room for n.value rows
            cap = int(n.value)
            continue
        _check(code, err)
        k = int(n.value)
        return {"pairs": pairs[:k].copy(), "faces": faces[:k].copy(), "areas": areas[:k].copy()}


def graph_components(csr, backend="auto", threads=0):
    """Returns (n, labels) for the undirected graph of a square sparse matrix
    (any scipy.sparse format) or of (indptr, indices) CSR arrays: the
    number of connected components and an int32 label 0..n-1 per vertex,
    numbered as scipy.sparse.csgraph.connected_components(directed=False)
    numbers them (by each component's smallest vertex). An entry (i, j)
    joins i and j whatever its value, as scipy's does for stored entries."""
    if isinstance(csr, tuple):
        if len(csr) != 2:
            raise ValueError("cclabel: graph_components takes a sparse matrix or (indptr, indices)")
        indptr, indices = (np.asarray(x) for x in csr)
    else:
        try:
            m = csr.tocsr()
        except AttributeError:
            raise TypeError("cclabel: graph_components takes a scipy.sparse matrix or (indptr, indices)") from None
        if m.shape[0] != m.shape[1]:
            raise ValueError("cclabel: the matrix is %dx%d, not square" % m.shape)
        indptr, indices = m.indptr, m.indices
    if indptr.ndim != 1 or indices.ndim != 1 or len(indptr) < 1:
        raise ValueError("cclabel: indptr and indices must be 1D, indptr non-empty")
    if indptr.dtype.kind not in "iu" or indices.dtype.kind not in "iu":
        raise TypeError("cclabel: indptr and indices must be integer arrays")
    wide = indptr.dtype.itemsize > 4 or indices.dtype.itemsize > 4 or indptr.dtype == np.uint32 \
        or indices.dtype == np.uint32
    dt = np.int64 if wide else np.int32
    indptr = np.ascontiguousarray(indptr, dtype=dt)
    end = int(indptr[-1])
    if 0 <= end < len(indices):  # scipy ignores the entries past indptr[-1]
        indices = indices[:end]
    indices = np.ascontiguousarray(indices, dtype=dt)
    n = len(indptr) - 1
    labels = np.empty(n, dtype=np.int32)
    count = ctypes.c_int64(0)
    err = _errbuf()
    code = _lib().ccl_graph_components(n, indptr.ctypes.data, indices.ctypes.data, DTYPES[dt.__name__],
                                       len(indices), _enum(BACKENDS, backend, "backend"), int(threads),
                                       labels.ctypes.data, ctypes.byref(count), err, len(err))
    _check(code, err)
    return int(count.value), labels


def devices():
    """Returns the GPU status as a dict: available (bool), reason (why not),
    driver (the CUDA version) and devices (the GPUs the driver sees)."""
    lib = _lib()
    n = ctypes.c_size_t(0)
    size = 4096
    while True:
        buf = ctypes.create_string_buffer(size)
        err = _errbuf()
        code = lib.ccl_devices(buf, size, ctypes.byref(n), err, len(err))
        if code == ERANGE and n.value + 1 > size:
            size = n.value + 1
            continue
        _check(code, err)
        return json.loads(buf.value.decode("utf-8"))
