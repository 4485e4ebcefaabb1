#!/usr/bin/python3
"""Times scipy.ndimage.label on a .npy image or volume, for side-by-side
comparisons with cclabel's benchmarks (same input from 'cclabel gen').

Usage: scipy_label.py FILE.npy CONNECTIVITY [REPEATS]
CONNECTIVITY: 4 or 8 (2D), 6, 18 or 26 (3D). Prints the median seconds,
megapixels per second and the component count.
"""
import sys, time
import numpy as np
import scipy.ndimage as ndi

path, conn = sys.argv[1], int(sys.argv[2])
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
a = np.load(path) != 0
rank = {4: 1, 8: 2, 6: 1, 18: 2, 26: 3}[conn]
st = ndi.generate_binary_structure(a.ndim, rank)
times = []
for _ in range(repeats):
    t = time.perf_counter()
    _, n = ndi.label(a, structure=st)
    times.append(time.perf_counter() - t)
med = sorted(times)[len(times) // 2]
print(f"scipy {scipy_version if (scipy_version := __import__('scipy').__version__) else ''} {path} c{conn}: "
      f"median {med*1e3:.1f} ms, {a.size/med/1e6:.1f} Mpx/s, {n} components")
