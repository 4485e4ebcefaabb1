#!/usr/bin/python3
"""Times cclabel's measurements against scikit-image and scipy for the same
properties, at 1 thread, on one label map, and checks that they agree.

  cclabel gen volume --kind cells --size 512,512,512 -o /tmp/cells.npy
  go test -c -o .dev/cclabel.test .
  bench/measure_vs_peers.py /tmp/cells.npy .dev/cclabel.test [REPEATS]

cclabel's side is the root package's TestMeasureFile: it labels the input
(multilabel, full connectivity) and measures the labels with a random
float32 intensity (surface and contacts too), on CCLABEL_MEASURE_THREADS
threads (1 here), and writes the labels, the intensity, the table and the
median times. The peers then measure the same labels and intensity:
- skimage.measure.regionprops: area, bbox, centroid, mean_intensity,
  min_intensity, max_intensity, weighted_centroid, equivalent_diameter;
- scipy.ndimage: sum and standard_deviation (not in regionprops);
- surface and contacts have no counterpart in either library: the NumPy
  face counts of measure_oracle.py stand in, timed apart.
The agreement: sizes, boxes, contacts exact; scipy's sums and standard
deviations and the float64 properties 1e-9 relative; skimage's float32
intensity statistics 1e-6. Needs Debian's python3-numpy, python3-scipy
and python3-skimage. Exits 1 on any difference.
"""
import json, os, subprocess, sys, tempfile, time
import numpy as np
import scipy.ndimage as ndi
import skimage.measure as skm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_oracle import close, faces  # noqa: E402


def median(xs):
    return sorted(xs)[len(xs) // 2]


def median_time(fn, repeats):
    """Median wall and CPU seconds of repeats calls of fn, and its result."""
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return (median(walls), median(cpus)), out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, testbin = sys.argv[1], os.path.abspath(sys.argv[2])
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    tmp = tempfile.mkdtemp(prefix="measure-peers-")
    base = os.path.join(tmp, "cells")
    env = dict(os.environ, CCLABEL_MEASURE_FILE=os.path.abspath(src), CCLABEL_MEASURE_OUT=base,
               CCLABEL_MEASURE_THREADS="1", CCLABEL_MEASURE_REPEATS=str(max(repeats, 3)))
    subprocess.run([testbin, "-test.run", "^TestMeasureFile$", "-test.v"], env=env, check=True,
                   cwd=os.path.dirname(os.path.abspath(__file__)) + "/..", stdout=sys.stderr)
    doc = json.load(open(base + ".json"))
    timing = json.load(open(base + ".timing.json"))
    ours = median(timing["measure_s"]), median(timing["measure_cpu_s"])
    label = median(timing["label_s"]), median(timing["label_cpu_s"])
    lab = np.load(base + ".labels.npy")
    v = np.load(base + ".intensity.npy")
    for p in (base + ".labels.npy", base + ".intensity.npy"):
        os.remove(p)
    count = doc["count"]
    idx = np.arange(1, count + 1)
    nd = lab.ndim
    rev = lambda t: list(t)[::-1]

    def skimage_props():
        rows = []
        for p in skm.regionprops(lab, intensity_image=v):
            rows.append((p.label, p.area, p.bbox, p.centroid, p.mean_intensity, p.min_intensity,
                         p.max_intensity, p.weighted_centroid, p.equivalent_diameter))
        return rows

    def scipy_props():
        return ndi.sum(v, lab, idx), ndi.standard_deviation(v, lab, idx)

    t_sk, rows = median_time(skimage_props, repeats)
    t_sc, (sums, stds) = median_time(scipy_props, repeats)
    t_np, (surface, contacts) = median_time(lambda: faces(lab, count, [1.0] * nd), 1)

    comps = doc["components"]
    errs = []
    if [r[0] for r in rows] != idx.tolist():
        errs.append("labels")
    if [c["size"] for c in comps] != [r[1] for r in rows]:
        errs.append("size")
    if [c["min"][:nd] + c["max"][:nd] for c in comps] != [rev(r[2][:nd]) + [x - 1 for x in rev(r[2][nd:])] for r in rows]:
        errs.append("bbox")
    checks = [
        ("centroid", [c["centroid"][:nd] for c in comps], [rev(r[3]) for r in rows], 1e-9),
        ("wcentroid", [c["wcentroid"][:nd] for c in comps], [rev(r[7]) for r in rows], 1e-6),
        ("mean", [c["mean"] for c in comps], [r[4] for r in rows], 1e-6),
        ("imin", [c["imin"] for c in comps], [r[5] for r in rows], 0),
        ("imax", [c["imax"] for c in comps], [r[6] for r in rows], 0),
        ("eq_diameter", [c["eq_diameter"] for c in comps], [r[8] for r in rows], 1e-9),
        ("sum", [c["sum"] for c in comps], sums, 1e-9),
        ("std", [c["std"] for c in comps], stds, 1e-9),
        ("surface", [c["surface"] for c in comps], surface[1:], 1e-12),
    ]
    for name, got, want, rel in checks:
        if not close(got, want, rel):
            errs.append(name)
    got = {(a, b): f for a, b, f, _ in doc["contacts"] or []}
    if got != {k: f[0] for k, f in contacts.items()}:
        errs.append("contacts")

    peers = [t_sk[i] + t_sc[i] for i in (0, 1)]
    print(f"{src}: {lab.shape[::-1]} voxels, {count} components, {len(got)} contacts; 1 thread; "
          "seconds as wall (cpu), medians")
    print(f"  cclabel label {label[0]:.3f} ({label[1]:.3f}), measure with intensity, surface, contacts "
          f"{ours[0]:.3f} ({ours[1]:.3f}): {ours[0] / label[0]:.2f}x ({ours[1] / label[1]:.2f}x) the labeling")
    print(f"  skimage regionprops {t_sk[0]:.2f} ({t_sk[1]:.2f}) + scipy.ndimage sum, std {t_sc[0]:.2f} ({t_sc[1]:.2f}) "
          f"= {peers[0]:.2f} ({peers[1]:.2f}): {peers[0] / ours[0]:.1f}x ({peers[1] / ours[1]:.1f}x) cclabel's measure")
    print(f"  NumPy faces and contacts (no library counterpart) {t_np[0]:.2f} ({t_np[1]:.2f}); all peers "
          f"{peers[0] + t_np[0]:.2f} ({peers[1] + t_np[1]:.2f}): {(peers[0] + t_np[0]) / ours[0]:.1f}x "
          f"({(peers[1] + t_np[1]) / ours[1]:.1f}x)")
    print("  agreement: " + ("all properties" if not errs else "DIFFER in " + ", ".join(errs)))
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
