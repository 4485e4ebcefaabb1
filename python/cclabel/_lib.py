"""Loading libcclabel.so, its status codes, and fork safety.

The library is loaded on the first call that needs it (``_lib()``), from
``$CCLABEL_LIBRARY`` when set, else from ``libcclabel.so`` beside this file.
ctypes releases the GIL during every call into it.
"""

import ctypes
import os
import threading

# The status codes of cclabel.h.
OK, EINVAL, ETYPE, ETOOLARGE, ERANGE, EDEVICE, EINTERNAL = range(7)

# The dtype codes of cclabel.h, by NumPy dtype name.
DTYPES = {
    "bool": 1, "uint8": 2, "uint16": 3, "uint32": 4, "uint64": 5,
    "int8": 6, "int16": 7, "int32": 8, "int64": 9,
    "float32": 10, "float64": 11,
}

BACKENDS = {"auto": 0, "gpu": 1, "cpu": 2, "serial": 3}
ORDERS = {"first": 0, "size": 1}

ERRLEN = 1024

_lock = threading.Lock()
_handle = None
_loaded_before_fork = False


class CclabelError(RuntimeError):
    """An error of libcclabel that no built-in exception names: the GPU
    backend failing (code CCL_EDEVICE) or an internal failure."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _after_fork_in_child():
    global _handle, _loaded_before_fork
    if _handle is not None:
        _loaded_before_fork = True
        _handle = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def library_path():
    """Returns the path libcclabel.so is loaded from."""
    env = os.environ.get("CCLABEL_LIBRARY")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libcclabel.so")


def _declare(lib):
    c = ctypes
    p, i, i64, d, sz = c.c_void_p, c.c_int, c.c_int64, c.c_double, c.c_size_t
    pi64 = c.POINTER(c.c_int64)
    err = [c.c_char_p, sz]
    lib.ccl_abi_version.argtypes = []
    lib.ccl_abi_version.restype = i
    lib.ccl_label.argtypes = [p, i, i, pi64, pi64, p, i, i, d, i, d, i, i, i, i, i64, i64, pi64] + err
    lib.ccl_label.restype = i
    lib.ccl_statistics.argtypes = [p, i, i, pi64, pi64, i64, p, i, pi64, p, i, i, p, p] + err
    lib.ccl_statistics.restype = i
    lib.ccl_contacts.argtypes = [p, i, i, pi64, pi64, i64, p, i, p, p, p, i64, pi64] + err
    lib.ccl_contacts.restype = i
    lib.ccl_graph_components.argtypes = [i64, p, p, i, i64, i, i, p, pi64] + err
    lib.ccl_graph_components.restype = i
    lib.ccl_devices.argtypes = [c.c_char_p, sz, c.POINTER(sz)] + err
    lib.ccl_devices.restype = i


def _lib():
    """Returns the loaded ctypes.CDLL of libcclabel.so, loading it on first use.

    Raises RuntimeError in a child forked from a process that had loaded
    it: the Go runtime does not survive fork.
    """
    global _handle
    if _loaded_before_fork:
        raise RuntimeError(
            "cclabel: this process was forked after libcclabel was loaded in its "
            "parent, and the Go runtime inside it does not survive fork; use "
            "multiprocessing's 'spawn' start method "
            "(multiprocessing.set_start_method('spawn') or "
            "multiprocessing.get_context('spawn')), or load cclabel only in the children"
        )
    h = _handle
    if h is not None:
        return h
    with _lock:
        if _handle is None:
            path = library_path()
            if not os.path.exists(path):
                raise ImportError(
                    "cclabel: %s is missing; install the package with "
                    "`pip install ./python` or build it with "
                    "`go build -buildmode=c-shared -o python/cclabel/libcclabel.so ./capi`" % path
                )
            lib = ctypes.CDLL(path)
            _declare(lib)
            if lib.ccl_abi_version() != 1:
                raise ImportError("cclabel: %s has ABI version %d, not 1" % (path, lib.ccl_abi_version()))
            _handle = lib
        return _handle


def _errbuf():
    """Returns a fresh message buffer for one call."""
    return ctypes.create_string_buffer(ERRLEN)


_EXCEPTIONS = {
    EINVAL: ValueError,
    ETYPE: TypeError,
    ETOOLARGE: MemoryError,
    ERANGE: OverflowError,
}


def _check(code, errbuf):
    """Raises the Python exception of a status code, with errbuf's message:
    ValueError (CCL_EINVAL), TypeError (CCL_ETYPE), MemoryError
    (CCL_ETOOLARGE), OverflowError (CCL_ERANGE), CclabelError (CCL_EDEVICE,
    CCL_EINTERNAL and unknown codes). Returns None for CCL_OK."""
    if code == OK:
        return
    msg = errbuf.value.decode("utf-8", "replace") if errbuf is not None else ""
    msg = msg or "cclabel: error code %d" % code
    exc = _EXCEPTIONS.get(code)
    if exc is None:
        raise CclabelError(code, msg)
    raise exc(msg)
