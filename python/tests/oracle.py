"""Independent oracles for the tests: scikit-image and scipy labelings, and
the checks of a partition and of cclabel's numbering rule."""

import numpy as np
import scipy.ndimage as ndi
import skimage.measure

# skimage's connectivity (1..ndim) of a cclabel connectivity.
RANK = {4: 1, 8: 2, 6: 1, 18: 2, 26: 3, 2: 1}


def full(ndim):
    return {1: 2, 2: 8, 3: 26}[ndim]


def reference(a, conn, mode="multilabel", threshold=None, invert=False, background=0):
    """Labels a in cclabel's canonical numbering (1..N by first occurrence in
    a's memory order) with scikit-image, and returns (labels, N)."""
    if mode == "binary":
        v = (a != 0).astype(np.uint8)
    elif mode == "threshold":
        v = (a < threshold) if invert else (a >= threshold)
        v = v.astype(np.uint8)
    else:
        v = a
    rank = min(RANK[conn], a.ndim)
    fortran = a.flags.f_contiguous and not a.flags.c_contiguous
    w = v.T if fortran else v  # memory order as C order
    w = np.ascontiguousarray(w)
    if mode == "multilabel" and background != 0:
        # background as 0: exchange the two values.
        w = w.copy()
        zero = w == 0
        w[w == background] = 0
        w[zero] = background
    lab, n = skimage.measure.label(w, background=0, connectivity=rank, return_num=True)
    return (lab.T if fortran else lab), n


def scipy_binary(a, conn):
    """scipy.ndimage.label of a != 0 at connectivity conn."""
    st = ndi.generate_binary_structure(a.ndim, min(RANK[conn], a.ndim))
    return ndi.label(a != 0, structure=st)


def same_partition(x, y):
    """Reports whether label arrays x and y are the same partition: a
    bijection between their labels, 0 to 0."""
    x = np.asarray(x).ravel().astype(np.int64)
    y = np.asarray(y).ravel().astype(np.int64)
    if x.shape != y.shape or not np.array_equal(x == 0, y == 0):
        return False
    pairs = np.unique(np.stack([x, y]), axis=1)
    return len(np.unique(pairs[0])) == pairs.shape[1] == len(np.unique(pairs[1]))


def first_occurrence(lab):
    """Reports whether lab numbers its components 1..N by first occurrence in
    its memory order."""
    flat = np.asarray(lab).ravel(order="K")
    fg = flat[flat != 0]
    if fg.size == 0:
        return True
    u, idx = np.unique(fg, return_index=True)
    order = u[np.argsort(idx)]
    return np.array_equal(order, np.arange(1, len(u) + 1))
