#!/usr/bin/env python3
"""Times cclabel.label on CuPy arrays against cupyx.scipy.ndimage.label on
the same arrays, on one GPU, and shows that labeling makes no host copy.

    python3 bench/python_gpu_vs_cupyx.py [--reps 11] [--json FILE]

Inputs (uint8 0/1, made on the device): 8192^2 random p=0.6 at 8, 512^3
random p=0.3 at 26 and at 6, 512^3 blobs p=0.5 (radius 3) at 6. The ratio
is cclabel.label(a, connectivity=c) (its default rule, multilabel: on 0/1
arrays the partition of the nonzero elements) against
cupyx.scipy.ndimage.label(a, structure); each allocates its output, as a
caller would. Also timed: binary=True, out= a preallocated array, and the
C call alone. The runs alternate, each
between two device synchronisations, and the medians are compared. The
partitions must be identical (a bijection between the two labelings,
checked on the device).

No host copy: the host's peak RSS (VmHWM, reset through
/proc/self/clear_refs) over one 512^3 call, and the device's free memory
(cupy.cuda.runtime.memGetInfo) before the first call and after each call:
the difference is the scratch the library keeps between calls, and must
not grow. A PyTorch CUDA tensor is labeled too when torch is importable.
"""

import argparse
import json
import statistics
import sys
import time

import cupy as cp
import cupyx.scipy.ndimage as cndi
import numpy as np

import cclabel
import cclabel._device

RANK = {4: 1, 8: 2, 6: 1, 18: 2, 26: 3}


def random_input(shape, p, seed):
    return (cp.random.default_rng(seed).random(shape, dtype=cp.float32) < p).astype(cp.uint8)


def blobs_input(shape, density, radius, seed):
    """Uniform noise blurred three times by a box of side 2*radius+1 along
    every axis, thresholded so that a fraction density is foreground."""
    f = cp.random.default_rng(seed).random(shape, dtype=cp.float32)
    for _ in range(3):
        f = cndi.uniform_filter(f, size=2 * radius + 1, mode="constant")
    t = cp.quantile(f.ravel()[:: max(1, f.size // (1 << 22))], 1 - density)
    return (f >= t).astype(cp.uint8)


def same_partition(x, y, nx, ny):
    """Reports whether x and y are the same partition, on the device."""
    if nx != ny or not bool(cp.all((x == 0) == (y == 0))):
        return False
    keys = x.astype(cp.int64).ravel() * (ny + 1) + y.astype(cp.int64).ravel()
    return int(cp.unique(keys).size) == nx + (1 if bool(cp.any(x == 0)) else 0)


def library_call(a, out, conn):
    """ccl_label_device alone, as cclabel.label calls it on a C-contiguous
    uint8 array into out (multilabel)."""
    import ctypes

    cai = a.__cuda_array_interface__
    shape = (ctypes.c_int64 * a.ndim)(*a.shape)
    strides = (ctypes.c_int64 * a.ndim)(*a.strides)
    count = ctypes.c_int64(0)
    err = ctypes.create_string_buffer(1024)
    code = cclabel._device._function()(cai["data"][0], 2, a.ndim, shape, strides, out.data.ptr, 4, 0, 0.0, 0,
                                       conn, cai.get("stream") or 0, ctypes.byref(count), err, len(err))
    assert code == 0, err.value
    return count.value


def sync():
    cp.cuda.Device().synchronize()


def timed(f):
    sync()
    t = time.perf_counter()
    r = f()
    sync()
    return time.perf_counter() - t, r


def vm(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def reset_peak_rss():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--json")
    args = ap.parse_args()

    dev = cp.cuda.Device()
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"].decode()
    print("device: %s, cupy %s" % (name, cp.__version__))
    cases = [
        ("8192^2 random p=0.6", lambda: random_input((8192, 8192), 0.6, 1), 8),
        ("512^3 random p=0.3", lambda: random_input((512, 512, 512), 0.3, 1), 26),
        ("512^3 random p=0.3", lambda: random_input((512, 512, 512), 0.3, 1), 6),
        ("512^3 blobs p=0.5", lambda: blobs_input((512, 512, 512), 0.5, 3, 1), 6),
    ]
    results = []
    free_after = []
    for what, make, conn in cases:
        a = make()
        st = cndi.generate_binary_structure(a.ndim, RANK[conn])

        def ours():
            return cclabel.label(a, connectivity=conn, return_N=True)

        def ours_binary():
            return cclabel.label(a, connectivity=conn, binary=True, return_N=True)

        def theirs():
            return cndi.label(a, structure=st)

        (lab, n), (ref, rn) = ours(), theirs()  # warm both
        same = same_partition(lab, ref, n, int(rn))
        lab2, n2 = ours_binary()
        same = same and n2 == n and bool(cp.all(lab2 == lab))
        del lab, ref, lab2
        t_ours, t_bin, t_theirs = [], [], []
        for _ in range(args.reps):
            t_ours.append(timed(ours)[0])
            t_theirs.append(timed(theirs)[0])
            t_bin.append(timed(ours_binary)[0])
        out = cp.empty(a.shape, dtype=cp.uint32)
        t_out = [timed(lambda: cclabel.label(a, connectivity=conn, out=out))[0] for _ in range(args.reps)]
        t_lib = [timed(lambda: library_call(a, out, conn))[0] for _ in range(args.reps)]
        mo, mt, mout = statistics.median(t_ours), statistics.median(t_theirs), statistics.median(t_out)
        mb, ml = statistics.median(t_bin), statistics.median(t_lib)
        sync()
        free_after.append(cp.cuda.runtime.memGetInfo()[0])
        r = {"input": what, "conn": conn, "components": n, "identical_partition": same,
             "cclabel_ms": 1e3 * mo, "cclabel_binary_ms": 1e3 * mb, "cclabel_out_ms": 1e3 * mout,
             "library_call_ms": 1e3 * ml, "cupyx_ms": 1e3 * mt, "ratio": mt / mo,
             "cclabel_all_ms": [round(1e3 * x, 3) for x in t_ours], "cupyx_all_ms": [round(1e3 * x, 3) for x in t_theirs]}
        results.append(r)
        print("%-20s c%-2d N=%-8d same=%s cclabel %6.3f ms (binary %6.3f, out= %6.3f, C call %6.3f) cupyx %6.3f ms %5.1fx"
              % (what, conn, n, same, 1e3 * mo, 1e3 * mb, 1e3 * mout, 1e3 * ml, 1e3 * mt, mt / mo))
        del a, out
        cp.get_default_memory_pool().free_all_blocks()

    # No host copy: peak RSS over one 512^3 call, and the device's memory.
    a = random_input((512, 512, 512), 0.3, 2)
    out = cp.empty(a.shape, dtype=cp.uint32)
    cclabel._device.release()  # the scratch and contexts kept so far
    cp.get_default_memory_pool().free_all_blocks()
    sync()
    free_first = cp.cuda.runtime.memGetInfo()[0]
    cclabel.label(a, connectivity=6, out=out)  # opens the context, keeps the scratch
    sync()
    free0 = cp.cuda.runtime.memGetInfo()[0]
    ok = reset_peak_rss()
    rss0 = vm("VmRSS")
    cclabel.label(a, connectivity=6, out=out)
    sync()
    peak = vm("VmHWM")
    free1 = cp.cuda.runtime.memGetInfo()[0]
    kept = free_first - free0
    copy = {"input_bytes": a.nbytes, "rss_before": rss0, "peak_rss_during": peak if ok else None,
            "peak_rss_growth": (peak - rss0) if ok else None, "device_free_before": free0, "device_free_after": free1,
            "device_kept_after_first_call": kept, "device_free_after_each_case": free_after}
    print("512^3 uint8 (%d MiB): host RSS %d MiB, peak during the call +%s MiB; device free memory %d -> %d MiB "
          "over the call; kept by the first call (scratch, module) %.0f MiB (%.2fx the input)"
          % (a.nbytes >> 20, rss0 >> 20, (peak - rss0) >> 20 if ok else "?", free0 >> 20, free1 >> 20,
             kept / 2**20, kept / a.nbytes))
    del a, out
    cp.get_default_memory_pool().free_all_blocks()

    torch_result = None
    try:
        import torch
    except ImportError:
        torch = None
        print("torch: not installed on this machine (CuPy only)")
    if torch is not None and torch.cuda.is_available():
        t = (torch.rand((512, 512, 512), device="cuda") < 0.3).to(torch.uint8)
        lab = cclabel.label(t, connectivity=6)
        torch.cuda.synchronize()
        alloc0 = torch.cuda.memory_allocated()
        ok = reset_peak_rss()
        rss0 = vm("VmRSS")
        lab, n = cclabel.label(t, connectivity=6, return_N=True)
        torch.cuda.synchronize()
        peak = vm("VmHWM")
        alloc1 = torch.cuda.memory_allocated()
        want, wn = cclabel.label(cp.asarray(t), connectivity=6, return_N=True)
        same = wn == n and bool(cp.all(cp.asarray(lab).astype(cp.uint32) == want))
        torch_result = {"torch": torch.__version__, "components": n, "same_as_cupy": same,
                        "torch_allocated_growth": alloc1 - alloc0, "peak_rss_growth": (peak - rss0) if ok else None}
        print("torch %s: 512^3 uint8 tensor, N=%d, same labels as CuPy's: %s; torch allocated +%d bytes "
              "(the output replaced the previous one), peak RSS +%s MiB"
              % (torch.__version__, n, same, alloc1 - alloc0, (peak - rss0) >> 20 if ok else "?"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": name, "cupy": cp.__version__, "cases": results, "copy": copy,
                       "torch": torch_result}, f, indent=1)
    return 0 if all(r["identical_partition"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
