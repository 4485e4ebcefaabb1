"""Labeling CUDA arrays on their device (cclabel._device): skipped without
CuPy or a GPU. The labels must be cclabel's CPU labels exactly, and the
same partition as cupyx.scipy.ndimage.label's for the binary rule."""

import numpy as np
import pytest

cp = pytest.importorskip("cupy")
try:
    if cp.cuda.runtime.getDeviceCount() < 1:
        pytest.skip("no CUDA device", allow_module_level=True)
except cp.cuda.runtime.CUDARuntimeError as e:  # no driver or device
    pytest.skip("no CUDA device: %s" % e, allow_module_level=True)

import cupyx.scipy.ndimage as cndi  # noqa: E402

import cclabel  # noqa: E402
from cclabel import _device  # noqa: E402
from oracle import RANK, same_partition  # noqa: E402


def cupyx_label(a, conn):
    st = cndi.generate_binary_structure(a.ndim, RANK[conn])
    return cndi.label(a != 0, structure=st)


def random_array(shape, p, seed, values=1, dtype=np.uint8):
    rng = np.random.default_rng(seed)
    a = (rng.random(shape) < p) * rng.integers(1, values + 1, size=shape)
    return a.astype(dtype)


SHAPES = {2: [(1, 1), (5, 3), (257, 311), (3, 4097), (768, 1024)],
          3: [(1, 4, 5), (7, 11, 13), (17, 33, 64), (40, 65, 129)]}
CONNS = {2: (4, 8), 3: (6, 18, 26)}


@pytest.mark.parametrize("ndim", [2, 3])
@pytest.mark.parametrize("mode", ["binary", "multilabel", "threshold", "invert"])
def test_every_kernel_mode(ndim, mode):
    for i, shape in enumerate(SHAPES[ndim]):
        for p in (0.3, 0.6):
            h = random_array(shape, p, 100 * i + int(10 * p), values=3)
            d = cp.asarray(h)
            for conn in CONNS[ndim]:
                kw = {"binary": mode == "binary"}
                if mode in ("threshold", "invert"):
                    kw = {"threshold": 2, "invert": mode == "invert"}
                got, n = cclabel.label(d, connectivity=conn, return_N=True, **kw)
                assert isinstance(got, cp.ndarray) and got.dtype == np.uint32 and got.shape == shape
                want, wn = cclabel.label(h, connectivity=conn, backend="cpu", return_N=True, **kw)
                assert n == wn, (shape, conn, mode)
                np.testing.assert_array_equal(cp.asnumpy(got), want, err_msg="%s c%d %s" % (shape, conn, mode))
                if mode == "binary":
                    ref, rn = cupyx_label(d, conn)
                    assert rn == n and same_partition(cp.asnumpy(got), cp.asnumpy(ref)), (shape, conn)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "uint16", "int16", "uint32", "int32", "float32",
                                   "int8", "uint64", "int64", "float16"])
def test_dtypes(dtype):
    h = random_array((19, 23, 29), 0.5, 7, values=4).astype(dtype)
    d = cp.asarray(h)
    for kw in ({}, {"binary": True}, {"threshold": 2}):
        if dtype == "bool" and kw:
            continue
        got, n = cclabel.label(d, return_N=True, **kw)
        # The CPU path takes no float16: its values are float32's.
        host = h.astype(np.float32) if dtype == "float16" else h
        want, wn = cclabel.label(host, backend="cpu", return_N=True, **kw)
        assert n == wn
        np.testing.assert_array_equal(cp.asnumpy(got), want)


def test_float64_multilabel_is_refused():
    with pytest.raises(TypeError):
        cclabel.label(cp.zeros((4, 4), dtype=cp.float64))


@pytest.mark.parametrize("out_dtype", ["uint32", "int32", "uint16", "uint64", "int64"])
def test_out_dtypes_and_out(out_dtype):
    h = random_array((64, 65, 66), 0.3, 3)
    d = cp.asarray(h)
    want, wn = cclabel.label(h, connectivity=6, backend="cpu", return_N=True)
    got, n = cclabel.label(d, connectivity=6, out_dtype=out_dtype, return_N=True)
    assert got.dtype == np.dtype(out_dtype) and n == wn
    np.testing.assert_array_equal(cp.asnumpy(got), want)
    out = cp.full(h.shape, 7, dtype=out_dtype)
    res = cclabel.label(d, connectivity=6, out=out)
    assert res is out
    np.testing.assert_array_equal(cp.asnumpy(out), want)


def test_uint16_overflow():
    h = np.zeros((600, 600), dtype=np.uint8)
    h[::2, ::2] = 1  # 90000 isolated pixels at 4 and 8
    with pytest.raises(OverflowError):
        cclabel.label(cp.asarray(h), out_dtype="uint16")


def test_fortran_strided_unaligned_and_background():
    h = random_array((30, 40, 50), 0.4, 5, values=3)
    f = cp.asfortranarray(cp.asarray(h))
    got = cclabel.label(f)
    assert got.flags.f_contiguous
    np.testing.assert_array_equal(cp.asnumpy(got), cclabel.label(np.asfortranarray(h), backend="cpu"))
    s = cp.asarray(h)[:, ::2, 1:]  # neither C nor Fortran contiguous
    np.testing.assert_array_equal(cp.asnumpy(cclabel.label(s)), cclabel.label(h[:, ::2, 1:], backend="cpu"))
    flat = cp.asarray(h).ravel()[1:]  # 1 byte past an aligned start
    np.testing.assert_array_equal(cp.asnumpy(cclabel.label(flat)), cclabel.label(h.ravel()[1:], backend="cpu"))
    got = cclabel.label(cp.asarray(h), background=2)
    np.testing.assert_array_equal(cp.asnumpy(got), cclabel.label(h, background=2, backend="cpu"))


def test_order_size():
    h = random_array((50, 60, 70), 0.25, 9)
    got, n = cclabel.label(cp.asarray(h), connectivity=6, order="size", return_N=True)
    want, wn = cclabel.label(h, connectivity=6, order="size", backend="cpu", return_N=True)
    assert n == wn
    np.testing.assert_array_equal(cp.asnumpy(got), want)


def test_streams():
    """Samples written on a non-blocking stream are waited for, and the
    labels are complete on return."""
    h = random_array((256, 256, 64), 0.3, 11)
    want = cclabel.label(h, connectivity=26, backend="cpu")
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        d = cp.zeros(h.shape, dtype=cp.uint8)
        for _ in range(20):  # queue work before the final write
            d += 0
        d[...] = cp.asarray(h)
        got = cclabel.label(d, connectivity=26)
    np.testing.assert_array_equal(cp.asnumpy(got), want)


def test_dlpack_and_empty():
    h = random_array((33, 35), 0.5, 13)

    class OnlyDLPack:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__()

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    got = _device.label(OnlyDLPack(cp.asarray(h)))
    np.testing.assert_array_equal(cp.asnumpy(got), cclabel.label(h, backend="cpu"))
    e, n = cclabel.label(cp.zeros((0, 5), dtype=cp.uint8), return_N=True)
    assert e.shape == (0, 5) and n == 0


def test_no_host_copy():
    """A 512^3 labeling keeps its scratch on the device between calls (the
    free memory does not move over a second call) and makes no host copy
    (the peak RSS over the call grows by far less than the input)."""
    d = (cp.random.default_rng(17).random((512, 512, 512), dtype=cp.float32) < 0.3).astype(cp.uint8)
    out = cp.empty(d.shape, dtype=cp.uint32)
    cclabel.label(d, connectivity=6, out=out)  # warm: context, kernels, scratch
    cp.cuda.Device().synchronize()
    free0, _ = cp.cuda.runtime.memGetInfo()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM
    except OSError:
        pytest.skip("cannot reset the peak RSS")
    rss0 = _status("VmRSS")
    cclabel.label(d, connectivity=6, out=out)
    peak = _status("VmHWM")
    free1, _ = cp.cuda.runtime.memGetInfo()
    assert free1 == free0
    assert peak - rss0 < d.nbytes // 8, (rss0, peak)


def _status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def test_torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    h = random_array((40, 50, 60), 0.3, 19, values=3)
    t = torch.from_numpy(h).cuda()
    got, n = cclabel.label(t, return_N=True)
    want, wn = cclabel.label(h, backend="cpu", return_N=True)
    assert isinstance(got, torch.Tensor) and got.device == t.device and got.dtype == torch.int32
    assert n == wn
    np.testing.assert_array_equal(got.cpu().numpy(), want.astype(np.int32))
    got = cclabel.label(t.to(torch.int64), binary=True, out_dtype="int64")
    np.testing.assert_array_equal(got.cpu().numpy(), cclabel.label(h, binary=True, backend="cpu"))
