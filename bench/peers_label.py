#!/usr/bin/python3
"""Times scipy.ndimage.label (binary: INPUT != 0) and skimage.measure.label
(multilabel: equal values connect, 0 is background) on a .npy image or
volume, for side-by-side comparisons with cclabel on the same input from
'cclabel gen'. Prints, per peer and connectivity, the median wall time,
the median CPU time of the process (steadier than wall time on a loaded
machine), the throughput and the component count.

Usage: peers_label.py FILE.npy PEERS CONNS [REPEATS]
PEERS: comma-separated scipy, skimage. CONNS: comma-separated 4, 8 (2D)
or 6, 18, 26 (3D). Needs Debian's python3-scipy and python3-skimage.
"""
import sys, time
import numpy as np
import scipy.ndimage as ndi
import skimage.measure as skm

path, peers = sys.argv[1], sys.argv[2].split(',')
conns = [int(c) for c in sys.argv[3].split(',')]
repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 5
a = np.load(path)
mask = a != 0
for peer in peers:
    for conn in conns:
        rank = {4: 1, 8: 2, 6: 1, 18: 2, 26: 3}[conn]
        walls, cpus = [], []
        for _ in range(repeats):
            t, c = time.perf_counter(), time.process_time()
            if peer == 'scipy':
                _, n = ndi.label(mask, structure=ndi.generate_binary_structure(a.ndim, rank))
            else:
                _, n = skm.label(a, connectivity=rank, return_num=True)
            walls.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
        wall, cpu = sorted(walls)[len(walls) // 2], sorted(cpus)[len(cpus) // 2]
        print(f"{peer} {path} c{conn}: median {wall*1e3:.1f} ms (cpu {cpu*1e3:.1f} ms) "
              f"{a.size/wall/1e6:.1f} MVx/s, {n} components", flush=True)
