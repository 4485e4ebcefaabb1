import numpy as np
import pytest

import cclabel
from oracle import first_occurrence, full, reference, same_partition, scipy_binary

DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "float32", "float64"]
CONNS = {1: [None, 2], 2: [None, 4, 8], 3: [None, 6, 18, 26]}
SHAPES = {1: (257,), 2: (37, 53), 3: (11, 13, 17)}


def sample(rng, ndim, dtype, values=3):
    a = rng.integers(-1 if np.dtype(dtype).kind in "if" else 0, values, size=SHAPES[ndim])
    if dtype == "bool":
        return a > 0
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("fortran", [False, True])
def test_multilabel_and_binary(dtype, ndim, fortran):
    rng = np.random.default_rng(hash((dtype, ndim, fortran)) & 0xFFFF)
    a = sample(rng, ndim, dtype)
    if fortran:
        a = np.asfortranarray(a)
    for conn in CONNS[ndim]:
        c = conn or full(ndim)
        for mode in ("multilabel", "binary"):
            got, n = cclabel.label(a, connectivity=conn, binary=mode == "binary", return_N=True, threads=2)
            want, m = reference(a, c, mode)
            assert n == m, (mode, conn)
            assert got.flags.f_contiguous == fortran or ndim == 1
            assert np.array_equal(got, want), (mode, conn)  # the numbering rule exactly
            assert first_occurrence(got)
            if mode == "binary":
                s, k = scipy_binary(a, c)
                assert k == n and same_partition(got, s)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64"])
@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("fortran", [False, True])
def test_threshold(dtype, invert, fortran):
    rng = np.random.default_rng(7)
    a = (rng.random((19, 23, 29)) * 100).astype(dtype)
    if fortran:
        a = np.asfortranarray(a)
    for conn in (6, 18, 26):
        got, n = cclabel.label(a, connectivity=conn, threshold=40, invert=invert, return_N=True)
        want, m = reference(a, conn, "threshold", 40, invert)
        assert n == m and np.array_equal(got, want)


def test_background():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, size=(31, 41)).astype(np.int16)
    for conn in (4, 8):
        got, n = cclabel.label(a, connectivity=conn, background=2, return_N=True)
        want, m = reference(a, conn, "multilabel", background=2)
        assert n == m and np.array_equal(got, want)
    with pytest.raises(ValueError):
        cclabel.label(a, binary=True, background=2)


@pytest.mark.parametrize("out_dtype", ["uint16", "uint32", "uint64", "int32", "int64"])
@pytest.mark.parametrize("binary", [False, True])
def test_out_dtype_and_out(out_dtype, binary):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, size=(64, 48)).astype(np.uint8)
    want, m = reference(a, 8, "binary" if binary else "multilabel")
    got = cclabel.label(a, binary=binary, out_dtype=out_dtype)
    assert got.dtype == np.dtype(out_dtype) and np.array_equal(got, want)
    out = np.full(a.shape, 99, dtype=out_dtype)
    res, n = cclabel.label(a, binary=binary, out=out, return_N=True)
    assert res is out and n == m and np.array_equal(out, want)


def test_uint16_overflow():
    a = np.zeros(2 * 70000, dtype=np.uint8)
    a[::2] = 1
    with pytest.raises(OverflowError):
        cclabel.label(a, binary=True, out_dtype=np.uint16)
    assert cclabel.label(a, binary=True).max() == 70000


def test_order_size():
    rng = np.random.default_rng(11)
    a = rng.random((40, 50)) > 0.55
    first, n = cclabel.label(a, connectivity=4, return_N=True)
    by_size = cclabel.label(a, connectivity=4, order="size")
    assert same_partition(first, by_size)
    sizes = np.bincount(by_size.ravel())[1:]
    assert len(sizes) == n and np.all(np.diff(sizes) <= 0)
    # Ties go to the first to occur.
    old = np.bincount(first.ravel())[1:]
    perm = sorted(range(1, n + 1), key=lambda k: (-old[k - 1], k))
    lut = np.zeros(n + 1, dtype=np.uint32)
    lut[perm] = np.arange(1, n + 1)
    assert np.array_equal(lut[first], by_size)


def test_non_contiguous_is_copied():
    rng = np.random.default_rng(2)
    base = rng.integers(0, 2, size=(30, 40, 50)).astype(np.uint8)
    view = base[::2, 1::3, ::-1]
    got = cclabel.label(view, connectivity=6)
    want, _ = reference(np.ascontiguousarray(view), 6)
    assert np.array_equal(got, want)


def test_one_plane_volume_is_2d():
    rng = np.random.default_rng(4)
    a = rng.integers(0, 2, size=(1, 30, 40)).astype(np.uint8)
    for conn, c2 in ((6, 4), (18, 8), (26, 8)):
        got = cclabel.label(a, connectivity=conn)
        want, _ = reference(a[0], c2)
        assert np.array_equal(got[0], want)


def test_empty_and_trivial():
    assert cclabel.label(np.zeros((0, 5), np.uint8)).shape == (0, 5)
    z, n = cclabel.label(np.zeros((4, 4), np.uint8), return_N=True)
    assert n == 0 and not z.any()
    o, n = cclabel.label(np.ones((3, 3, 3), np.float64), return_N=True)
    assert n == 1 and (o == 1).all()


@pytest.mark.parametrize("backend", ["auto", "cpu", "serial"])
def test_backends_and_threads(backend):
    rng = np.random.default_rng(9)
    a = rng.random((64, 64, 32)) > 0.6
    want, _ = reference(a, 26, "binary")
    for threads in (0, 1, 2):
        assert np.array_equal(cclabel.label(a, binary=True, backend=backend, threads=threads), want)


def test_errors():
    a = np.ones((4, 4), np.uint8)
    with pytest.raises(ValueError):
        cclabel.label(a, connectivity=6)
    with pytest.raises(ValueError):
        cclabel.label(a, connectivity=5)
    with pytest.raises(TypeError):
        cclabel.label(a.astype(np.complex64))
    with pytest.raises(TypeError):
        cclabel.label(a.astype(np.float16))
    with pytest.raises(ValueError):
        cclabel.label(np.ones((2, 2, 2, 2), np.uint8))
    with pytest.raises(ValueError):
        cclabel.label(a, binary=True, threshold=1)
    with pytest.raises(ValueError):
        cclabel.label(a, invert=True)
    with pytest.raises(ValueError):
        cclabel.label(a, order="random")
    with pytest.raises(ValueError):
        cclabel.label(a, backend="tpu")
    with pytest.raises(ValueError):
        cclabel.label(a, out=np.empty((4, 5), np.uint32))
    with pytest.raises(ValueError):
        cclabel.label(np.asfortranarray(np.ones((4, 5), np.uint8)), out=np.empty((4, 5), np.uint32))
    with pytest.raises(TypeError):
        cclabel.label(a, out_dtype=np.float32)
    with pytest.raises(ValueError):
        cclabel.label(a, threads=-1)


def test_gpu_dispatch_hook(monkeypatch):
    class Fake:
        __cuda_array_interface__ = {}

    import sys
    import types

    seen = {}
    mod = types.ModuleType("cclabel._device")

    def fake_label(arr, **kw):
        seen.update(kw)
        return "device"

    mod.label = fake_label
    monkeypatch.setitem(sys.modules, "cclabel._device", mod)
    assert cclabel.label(Fake(), connectivity=6, binary=True) == "device"
    assert set(seen) == {"connectivity", "binary", "threshold", "invert", "background", "out_dtype",
                         "order", "threads", "return_N", "out"}
    assert cclabel.label(Fake(), backend="gpu") == "device"
    for backend in ("cpu", "serial"):
        with pytest.raises(ValueError):
            cclabel.label(Fake(), backend=backend)


def test_dust_and_largest_k():
    rng = np.random.default_rng(13)
    a = (rng.random((30, 40, 20)) > 0.65).astype(np.uint8) * rng.integers(1, 3, size=(30, 40, 20)).astype(np.uint8)
    lab, n = reference(a, 26, "multilabel")
    sizes = np.bincount(lab.ravel())
    for t in (1, 2, 5, 20):
        want = a.copy()
        small = sizes < t
        small[0] = False
        want[small[lab]] = 0
        assert np.array_equal(cclabel.dust(a, t), want)
    b = a.copy()
    assert cclabel.dust(b, 5, in_place=True) is b and np.array_equal(b, cclabel.dust(a, 5))
    for k in (0, 1, 3, n, n + 5):
        got, m = cclabel.largest_k(a, k, return_N=True)
        order = sorted(range(1, n + 1), key=lambda x: (-sizes[x], x))[:k]
        keep = np.zeros(n + 1, bool)
        keep[order] = True
        want = np.where(keep[lab], lab, 0)
        # Kept components numbered 1..m by first occurrence.
        lut = np.zeros(n + 1, np.int64)
        lut[np.flatnonzero(keep)] = np.arange(1, keep.sum() + 1)
        assert m == min(k, n) and np.array_equal(got, lut[want])
    for k in (0, 2):  # the arguments are checked for every k
        with pytest.raises(ValueError):
            cclabel.largest_k(a, k, connectivity=5)


def test_gpu_dispatch_without_device_module(monkeypatch):
    import sys

    class Fake:
        __cuda_array_interface__ = {}

    monkeypatch.setitem(sys.modules, "cclabel._device", None)  # import fails
    with pytest.raises(RuntimeError, match="_device"):
        cclabel.label(Fake())
