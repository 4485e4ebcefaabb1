"""Labeling CUDA arrays on their own GPU, with no copy to the host.

``cclabel.label`` sends here any array that exposes
``__cuda_array_interface__`` (CuPy arrays, PyTorch CUDA tensors, Numba
device arrays) and any that exposes only DLPack on a CUDA device (read
through ``cupy.from_dlpack``). The samples are read where they are, by
cclabel's kernels in the primary context of the GPU that owns them (the
context CuPy and PyTorch use), and the labels are written into an array of
the same library on the same GPU, or into ``out``.

Synchronisation: before reading the input the library waits for the stream
the array interface names (``stream``: CuPy and PyTorch give their current
stream), or, when it names none, for the whole device context; it returns
once the labels are written, so they may be used at once on any stream.

What runs on the device, and what is converted there first (never on the
host; each conversion is a device array as large as the input or smaller):

- samples of bool, uint8, uint16, int16, uint32, int32 and float32 are read
  in place when C or Fortran contiguous and 16-byte aligned; other strides
  or an unaligned start are copied to a fresh contiguous device array;
- other dtypes: under ``binary`` or ``threshold`` the foreground mask is
  computed on the device (``arr != 0``, ``arr >= threshold``, ``arr <
  threshold`` with ``invert``) and labeled; under the multilabel rule int8
  and float16 are widened to int16 and float32, (u)int64 to int32 when every
  value fits (else a TypeError), float64 is a TypeError;
- ``background`` other than 0 exchanges it with 0 in a device copy;
- labels are uint32 (int32 for PyTorch, whose uint32 has few operations),
  int32 or uint16 as the kernels write them; uint64 and int64 are widened
  on the device; uint16 with more than 65535 components is an
  OverflowError;
- ``order='size'`` renumbers on the device (a bincount, an argsort of
  unique keys and a gather), ties by first occurrence as on the CPU;
- ``threads`` is ignored (the GPU labels).

Memory: the input is never copied to the host. On the device each call
needs scratch of 4 bytes an element plus at most half a byte (8 bytes with
uint16 labels); like CuPy's and PyTorch's pools, the library keeps it for
the next call, until ``release()`` frees it.

The labels are the CPU's: 0 for background, 1..N by first occurrence in the
array's memory order.
"""

import ctypes
import math

import numpy as np

from ._lib import DTYPES, _check, _errbuf, _lib

__all__ = ["label", "release"]

# Sample dtypes the kernels read as they are.
_KERNEL_DTYPES = ("bool", "uint8", "uint16", "int16", "uint32", "int32", "float32")
# Label dtypes the library writes, and those widened from them.
_DIRECT_LABELS = ("uint32", "int32", "uint16")
_WIDE_LABELS = ("uint64", "int64")

_declared = False


def _function():
    """Returns ccl_label_device with its argument types declared."""
    global _declared
    lib = _lib()
    f = lib.ccl_label_device
    if not _declared:
        c = ctypes
        i, up, pi64 = c.c_int, c.c_size_t, c.POINTER(c.c_int64)
        f.argtypes = [up, i, i, pi64, pi64, up, i, i, c.c_double, i, i, up, pi64, c.c_char_p, c.c_size_t]
        f.restype = i
        _declared = True
    return f


def release():
    """Frees what the GPU path keeps between calls: its scratch memory and
    its handles on the devices' contexts (reopened by the next call)."""
    lib = _lib()
    lib.ccl_device_release.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.ccl_device_release.restype = ctypes.c_int
    err = _errbuf()
    _check(lib.ccl_device_release(err, len(err)), err)


_names = {}


def _dname(dt):
    """Returns dt.name, kept: NumPy builds the name anew on every access,
    which costs more than the rest of a small call's Python."""
    n = _names.get(dt)
    if n is None:
        n = _names[dt] = dt.name
    return n


def _module(a):
    return (type(a).__module__ or "").split(".")[0]


class _CuPy:
    """The operations the device path needs, on CuPy arrays."""

    name = "cupy"

    def __init__(self):
        import cupy
        self.xp = cupy

    def wrap(self, a):
        return a

    def empty(self, shape, dtype, fortran, like):
        return self.xp.empty(shape, dtype=dtype, order="F" if fortran else "C")

    def dtype(self, a):
        return np.dtype(a.dtype)

    def copy(self, a, fortran):
        return self.xp.array(a, order="F" if fortran else "C", copy=True)

    def astype(self, a, dtype):
        return a.astype(dtype, order="K")

    def mask(self, a):
        return a.astype(self.xp.uint8, order="K")

    def fits_int32(self, a):
        if a.size == 0:
            return True
        return int(a.min()) >= -(1 << 31) and int(a.max()) < (1 << 31)

    def swap_background(self, a, bg):
        b = a.copy(order="K")
        b[a == bg] = 0
        b[a == 0] = bg
        return b

    def by_size(self, lab, n):
        xp = self.xp
        counts = xp.bincount(lab.ravel(order="K").astype(xp.int64), minlength=n + 1)[1:]
        keys = -counts * (n + 1) + xp.arange(n, dtype=xp.int64)
        lut = xp.zeros(n + 1, dtype=lab.dtype)
        lut[1 + xp.argsort(keys)] = xp.arange(1, n + 1, dtype=lab.dtype)
        res = xp.empty_like(lab)
        res[...] = lut[lab]
        return res

    def put(self, out, values):
        out[...] = values


class _Torch(_CuPy):
    """The operations the device path needs, on PyTorch CUDA tensors."""

    name = "torch"

    def __init__(self):
        import torch
        self.xp = torch

    def wrap(self, a):
        return a.detach()

    def _dt(self, dtype):
        return getattr(self.xp, np.dtype(dtype).name)

    def empty(self, shape, dtype, fortran, like):
        t = self.xp.empty(tuple(reversed(shape)) if fortran else shape, dtype=self._dt(dtype), device=like.device)
        return t.permute(*reversed(range(len(shape)))) if fortran else t

    def dtype(self, a):
        return np.dtype(str(a.dtype).replace("torch.", ""))

    def copy(self, a, fortran):
        return self.empty(tuple(a.shape), self.dtype(a), fortran, a).copy_(a)

    def astype(self, a, dtype):
        return a.to(self._dt(dtype))

    def mask(self, a):
        return a.to(self.xp.uint8)

    def swap_background(self, a, bg):
        b = a.clone()
        b[a == bg] = 0
        b[a == 0] = bg
        return b

    def by_size(self, lab, n):
        torch = self.xp
        flat = lab.reshape(-1).to(torch.int64)
        counts = torch.bincount(flat, minlength=n + 1)[1:]
        keys = -counts * (n + 1) + torch.arange(n, dtype=torch.int64, device=lab.device)
        lut = torch.zeros(n + 1, dtype=torch.int64, device=lab.device)
        lut[1 + torch.argsort(keys)] = torch.arange(1, n + 1, dtype=torch.int64, device=lab.device)
        return lut[lab.to(torch.int64)].to(lab.dtype)


def _interface(a):
    cai = a.__cuda_array_interface__
    dt = np.dtype(cai["typestr"])
    shape = tuple(int(s) for s in cai["shape"])
    strides = cai.get("strides")
    if strides is None:  # C contiguous
        strides, step = [], dt.itemsize
        for s in reversed(shape):
            strides.insert(0, step)
            step *= s
    return int(cai["data"][0]), dt, shape, tuple(int(s) for s in strides), cai.get("stream")


def _contiguous(shape, strides, itemsize):
    """Returns (c, f): whether the layout is C and Fortran contiguous."""
    def check(axes):
        want = itemsize
        for ax in axes:
            if shape[ax] != 1 and strides[ax] != want:
                return False
            want *= shape[ax]
        return True
    nd = len(shape)
    return check(range(nd - 1, -1, -1)), check(range(nd))


def _adapter(arr):
    """Returns the library adapter of arr, and arr as that library's array
    (Numba arrays and DLPack-only ones become CuPy arrays sharing their
    memory), and a function giving the caller's kind of array back."""
    mod = _module(arr)
    if mod == "torch":
        return _Torch(), arr, lambda x: x
    lib = _CuPy()
    if mod == "cupy":
        return lib, arr, lambda x: x
    if hasattr(arr, "__cuda_array_interface__"):
        back = lambda x: x  # noqa: E731
        if mod == "numba":
            from numba import cuda as ncuda
            back = ncuda.as_cuda_array
        return lib, lib.xp.asarray(arr), back
    if hasattr(arr, "__dlpack__"):
        return lib, lib.xp.from_dlpack(arr), lambda x: x
    raise TypeError("cclabel: %s is not a CUDA array" % type(arr).__name__)


def _samples(lib, a, binary, threshold, invert, mode):
    """Returns a, its rule mode and invert, converted on the device when
    the kernels do not read its dtype (see the module's documentation)."""
    dt = _dname(lib.dtype(a))
    if dt in _KERNEL_DTYPES:
        return a, mode, invert
    if threshold is not None:
        return lib.mask((a < threshold) if invert else (a >= threshold)), 1, False
    if binary:
        return lib.mask(a != 0), 1, False
    if dt == "int8":
        return lib.astype(a, "int16"), mode, invert
    if dt == "float16":
        return lib.astype(a, "float32"), mode, invert
    if dt in ("int64", "uint64") and lib.fits_int32(a):
        return lib.astype(a, "int32"), mode, invert
    raise TypeError("cclabel: the GPU labels %s samples only under binary or threshold rules "
                    "(or int64 values within int32)" % dt)


def label(arr, *, connectivity=None, binary=False, threshold=None, invert=False, background=0,
          out_dtype=None, order="first", threads=0, return_N=False, out=None):
    """Labels the CUDA array arr on its GPU and returns the labels, an array
    of arr's library on its device (or out), with N when return_N.

    The arguments are cclabel.label's; the module's documentation says what
    runs on the device and what is converted there first.
    """
    if binary and threshold is not None:
        raise ValueError("cclabel: binary and threshold exclude each other")
    if invert and threshold is None:
        raise ValueError("cclabel: invert needs a threshold")
    if order not in ("first", "size"):
        raise ValueError("cclabel: order must be 'first' or 'size', not %r" % (order,))
    lib, a, back = _adapter(arr)
    a = lib.wrap(a)
    if a.ndim < 1 or a.ndim > 3:
        raise ValueError("cclabel: arr must have 1 to 3 dimensions, not %d" % a.ndim)
    mode = 2 if threshold is not None else (1 if binary else 0)
    if background != 0:
        if mode != 0:
            raise ValueError("cclabel: a background other than 0 needs the multilabel rule")
        a = lib.swap_background(a, background)
    a, mode, invert = _samples(lib, a, binary, threshold, invert, mode)
    ptr, dt, shape, strides, stream = _interface(a)
    c, f = _contiguous(shape, strides, dt.itemsize)
    fortran = f and not c
    if not (c or f) or ptr % 16:
        a = lib.copy(a, fortran)  # a fresh device array: contiguous and aligned
        ptr, dt, shape, strides, stream = _interface(a)

    want = np.dtype(out_dtype) if out_dtype is not None else None
    if out is not None:
        out_lib, o, _ = _adapter(out)
        if out_lib.name != lib.name:
            raise TypeError("cclabel: out is a %s array, the input a %s one" % (out_lib.name, lib.name))
        o = out_lib.wrap(o)
        if tuple(o.shape) != shape:
            raise ValueError("cclabel: out has shape %s, the input %s" % (tuple(o.shape), shape))
        if want is not None and want != out_lib.dtype(o):
            raise ValueError("cclabel: out has dtype %s, out_dtype is %s" % (out_lib.dtype(o), want))
        want = out_lib.dtype(o)
    if want is None:
        want = np.dtype("int32" if lib.name == "torch" else "uint32")
    wname = _dname(want)
    if wname not in _DIRECT_LABELS + _WIDE_LABELS:
        raise TypeError("cclabel: out_dtype must be uint32, int32, uint16, uint64 or int64 on the GPU, not %s" % want)
    kernel_dtype = want if wname in _DIRECT_LABELS else np.dtype("int32" if wname == "int64" else "uint32")

    res = None
    if out is not None and kernel_dtype == want and order == "first":
        optr, _, _, ostrides, _ = _interface(o)
        oc, of = _contiguous(shape, ostrides, want.itemsize)
        overlap = optr < ptr + math.prod(shape) * dt.itemsize and ptr < optr + math.prod(shape) * want.itemsize
        if overlap:
            raise ValueError("cclabel: out overlaps the input")
        if (of if fortran else oc) and optr % 16 == 0:
            res = o
    if res is None:
        res = lib.empty(shape, kernel_dtype, fortran, a)

    n = 0
    if math.prod(shape) > 0:
        rptr = _interface(res)[0]
        conn = 0 if connectivity is None else int(connectivity)
        cshape = (ctypes.c_int64 * len(shape))(*shape)
        cstrides = (ctypes.c_int64 * len(shape))(*strides)
        count = ctypes.c_int64(0)
        err = _errbuf()
        code = _function()(ptr, DTYPES[_dname(dt)], len(shape), cshape, cstrides,
                           rptr, DTYPES[_dname(kernel_dtype)], mode, float(threshold or 0.0),
                           int(bool(invert)), conn, int(stream) if stream else 0,
                           ctypes.byref(count), err, len(err))
        _check(code, err)
        n = int(count.value)
    if order == "size" and n > 0:
        res = lib.by_size(res, n)
    if out is not None:
        if res is not o:
            out_lib.put(o, res if kernel_dtype == want else lib.astype(res, wname))
        result = out
    else:
        result = back(res if kernel_dtype == want else lib.astype(res, wname))
    return (result, n) if return_N else result
