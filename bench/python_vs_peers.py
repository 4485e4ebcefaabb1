#!/usr/bin/python3
"""Times cclabel.label against scipy.ndimage.label and skimage.measure.label
in one process, runs interleaved, and prints the medians.

    /usr/bin/python3 bench/python_vs_peers.py [--size 512] [--rounds 5] [--cells cells.npy]
    /usr/bin/python3 bench/python_vs_peers.py --rss uint8|cells [--order C|F]

Inputs: SIZE^3 random p=0.3 uint8 (binary, 6-connectivity) and SIZE^3 cells
(multilabel, 26-connectivity; --cells reads a .npy written by
`cclabel gen volume --kind cells`, else numpy Voronoi cells are made here).
scipy.ndimage.label has no multilabel rule: on cells it labels cells != 0,
a different partition, shown for reference only.

--rss labels one SIZE^3 array once and exits, for /usr/bin/time -v: its peak
resident set against the input and output sizes shows that no copy of the
input is made.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import cclabel  # noqa: E402


def random_volume(n, p, seed=1):
    """SIZE^3 uint8 0/1, made a plane at a time (no large temporaries)."""
    rng = np.random.default_rng(seed)
    a = np.empty((n, n, n), dtype=np.uint8)
    for z in range(n):
        a[z] = rng.random((n, n), dtype=np.float32) < p
    return a


def voronoi_cells(n, cells=4000, seed=1):
    """SIZE^3 uint32 Voronoi cells with distinct random values (nearest of
    `cells` seeds, by planes)."""
    from scipy.spatial import cKDTree

    rng = np.random.default_rng(seed)
    pts = rng.random((cells, 3)) * n
    vals = rng.choice(np.arange(1, 1 << 31, dtype=np.uint32), size=cells, replace=False)
    tree = cKDTree(pts)
    a = np.empty((n, n, n), dtype=np.uint32)
    yy, xx = np.mgrid[0:n, 0:n]
    for z in range(n):
        q = np.stack([np.full(n * n, z + 0.5), yy.ravel() + 0.5, xx.ravel() + 0.5], axis=1)
        _, idx = tree.query(q, workers=1)
        a[z] = vals[idx].reshape(n, n)
    return a


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def bench(name, a, runners, rounds):
    times = {k: [] for k in runners}
    counts = {}
    for r in range(rounds):
        for k, fn in runners.items():
            t, n = timed(fn)
            times[k].append(t)
            counts[k] = n
    print("== %s: shape %s %s, %d rounds interleaved, median seconds" % (name, a.shape, a.dtype, rounds))
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in runners:
        print("  %-34s %8.3f s  (min %.3f, max %.3f)  N=%s" % (k, med[k], min(times[k]), max(times[k]), counts[k]))
    return med


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cells", help=".npy of cells (cclabel gen volume --kind cells)")
    ap.add_argument("--rss", choices=["uint8", "cells"])
    ap.add_argument("--order", choices=["C", "F"], default="C")
    ap.add_argument("--baseline", action="store_true",
                    help="with --rss: make the input and a touched output of the same sizes, label nothing")
    ap.add_argument("--skip", default="", help="comma-separated peers to skip: scipy, skimage")
    args = ap.parse_args()
    n = args.size

    if args.rss:
        a = random_volume(n, 0.3) if args.rss == "uint8" else (np.load(args.cells) if args.cells else voronoi_cells(n))
        if args.order == "F":
            a = np.asfortranarray(a) if args.rss != "uint8" else random_volume(n, 0.3).T  # .T: F order, no copy
        if args.baseline:
            out, k = np.ones(a.shape, np.uint32, order=args.order), 0
        else:
            out, k = cclabel.label(a, binary=args.rss == "uint8", connectivity=6 if args.rss == "uint8" else 26,
                                   return_N=True)
        print("labeled %s %s (%s order): %d components; input %.1f MiB, output %.1f MiB" % (
            a.shape, a.dtype, args.order, k, a.nbytes / 2**20, out.nbytes / 2**20))
        return

    import scipy.ndimage as ndi
    import skimage.measure

    skip = set(args.skip.split(","))
    print("cclabel", cclabel.__version__, "from", cclabel.library_path(), "; cores:", os.cpu_count())
    rnd = random_volume(n, 0.3)
    s6 = ndi.generate_binary_structure(3, 1)
    runners = {
        "cclabel.label threads=1": lambda: cclabel.label(rnd, binary=True, connectivity=6, threads=1,
                                                         return_N=True)[1],
        "cclabel.label threads=0 (all)": lambda: cclabel.label(rnd, binary=True, connectivity=6, threads=0,
                                                               return_N=True)[1],
    }
    out = np.ones(rnd.shape, np.uint32)  # reused, its pages faulted in already
    runners["cclabel threads=1 out= reused"] = lambda: cclabel.label(rnd, binary=True, connectivity=6, threads=1,
                                                                      out=out, return_N=True)[1]
    runners["cclabel threads=0 out= reused"] = lambda: cclabel.label(rnd, binary=True, connectivity=6, threads=0,
                                                                      out=out, return_N=True)[1]
    if "scipy" not in skip:
        runners["scipy.ndimage.label"] = lambda: ndi.label(rnd, structure=s6)[1]
    if "skimage" not in skip:
        runners["skimage.measure.label"] = lambda: skimage.measure.label(rnd, connectivity=1, return_num=True)[1]
    m1 = bench("random p=0.3, binary, 6-connectivity", rnd, runners, args.rounds)
    del rnd, runners, out

    cells = np.load(args.cells) if args.cells else voronoi_cells(n)
    s26 = ndi.generate_binary_structure(3, 3)
    runners = {
        "cclabel.label threads=1": lambda: cclabel.label(cells, connectivity=26, threads=1, return_N=True)[1],
        "cclabel.label threads=0 (all)": lambda: cclabel.label(cells, connectivity=26, threads=0,
                                                               return_N=True)[1],
    }
    out = np.ones(cells.shape, np.uint32)
    runners["cclabel threads=1 out= reused"] = lambda: cclabel.label(cells, connectivity=26, threads=1, out=out,
                                                                      return_N=True)[1]
    runners["cclabel threads=0 out= reused"] = lambda: cclabel.label(cells, connectivity=26, threads=0, out=out,
                                                                      return_N=True)[1]
    if "skimage" not in skip:
        runners["skimage.measure.label"] = lambda: skimage.measure.label(cells, connectivity=3,
                                                                         return_num=True)[1]
    if "scipy" not in skip:
        runners["scipy.ndimage.label (cells!=0)*"] = lambda: ndi.label(cells, structure=s26)[1]
    m2 = bench("cells, multilabel, 26-connectivity", cells, runners, args.rounds)

    for name, m, peers in (("random", m1, ("scipy.ndimage.label", "skimage.measure.label")),
                           ("cells", m2, ("skimage.measure.label",))):
        one = m["cclabel.label threads=1"]
        have = [m[p] for p in peers if p in m]
        if have:
            print("%s: faster peer / cclabel(1 thread) = %.2fx" % (name, min(have) / one))
        print("%s: cclabel 1 thread / all threads = %.2fx (fresh output), %.2fx (out= reused)" % (
            name, one / m["cclabel.label threads=0 (all)"],
            m["cclabel threads=1 out= reused"] / m["cclabel threads=0 out= reused"]))


if __name__ == "__main__":
    main()
