#!/usr/bin/python3
"""Checks cclabel's measurements (package imagegraph/measure) against
independent oracles on what TestMeasureDump wrote: every image and volume
of ../shared/data, labeled as expected.json says (and the label maps with
their intensity images, and the other files as binary).

  CCLABEL_SHARED_DATA=$PWD/../shared/data CCLABEL_MEASURE_DUMP=/tmp/mdump \\
      go test -run TestMeasureDump .
  bench/measure_oracle.py /tmp/mdump

Oracles, per labeling (NNN.labels.npy, NNN.intensity.npy, NNN.json):
- scipy.ndimage sum, mean, minimum, maximum, standard_deviation and
  center_of_mass (of the intensity, and of ones for the centroid) with
  labels, and find_objects for the bounding box: 1e-9 relative;
- NumPy: faces between each pair of neighbours along each axis, of the
  array padded with background: exposed faces per label (surface,
  perimeter) and shared faces per pair of labels (contacts), weighted by
  the spacing; exact counts, 1e-12 relative areas;
- the numbering by size: a stable sort by decreasing size of the labels in
  order of first occurrence (np.unique's first indices);
- skimage.measure.regionprops equivalent_diameter, times the spacing,
  where the spacing is isotropic (else the formula on the physical size).
Needs Debian's python3-numpy, python3-scipy and python3-skimage. Prints one
line per labeling and exits 1 on any difference.
"""
import glob, json, math, os, sys, warnings
import numpy as np
import scipy.ndimage as ndi
import skimage.measure as skm

REL = 1e-9
warnings.simplefilter("ignore", RuntimeWarning)  # scipy divides by the counts of empty labels


def close(a, b, rel):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    both_nan = np.isnan(a) & np.isnan(b)
    ok = np.abs(a - b) <= rel * np.maximum(np.abs(a), np.abs(b))
    return bool(np.all(ok | both_nan | (a == b)))


def faces(lab, count, sp):
    """Exposed faces per label (weighted) and contacts {(a, b): [faces, area]}."""
    nd = lab.ndim
    surface = np.zeros(count + 1)
    contacts = {}
    for k in range(nd):                 # NumPy axis k is cclabel's axis nd-1-k
        a = nd - 1 - k
        area = float(np.prod([sp[j] for j in range(nd) if j != a]))
        pad = [(1, 1) if i == k else (0, 0) for i in range(nd)]
        p = np.pad(lab, pad)
        lo = p[tuple(slice(0, -1) if i == k else slice(None) for i in range(nd))]
        hi = p[tuple(slice(1, None) if i == k else slice(None) for i in range(nd))]
        diff = lo != hi
        l1, l2 = lo[diff].astype(np.int64), hi[diff].astype(np.int64)
        surface += (np.bincount(l1, minlength=count + 1) + np.bincount(l2, minlength=count + 1)) * area
        both = (l1 != 0) & (l2 != 0)
        key = np.minimum(l1[both], l2[both]) << 32 | np.maximum(l1[both], l2[both])
        keys, counts = np.unique(key, return_counts=True)
        for key, c in zip(keys.tolist(), counts.tolist()):
            f = contacts.setdefault((key >> 32, key & 0xFFFFFFFF), [0, 0.0])
            f[0] += c
            f[1] += c * area
    return surface, contacts


def check(base):
    doc = json.load(open(base + ".json"))
    lab = np.load(base + ".labels.npy")
    count = doc["count"]
    nd = lab.ndim
    sp = doc["spacing"][:nd]
    comps = doc["components"] or []
    doc["contacts"] = doc["contacts"] or []
    idx = np.arange(1, count + 1)
    errs = []
    rev = lambda t: list(t)[::-1]       # NumPy axis order -> x, y, z

    size = np.bincount(lab.ravel(), minlength=count + 1)[1:]
    if [c["size"] for c in comps] != size.tolist():
        errs.append("size")
    for k, sl in enumerate(ndi.find_objects(lab, max_label=count)):
        c = comps[k]
        if sl is None or c["min"][:nd] != rev(s.start for s in sl) or c["max"][:nd] != rev(s.stop - 1 for s in sl):
            errs.append(f"bbox of label {k + 1}")
            break
    if count:
        cen = np.array([rev(t) for t in ndi.center_of_mass(np.ones(lab.shape), lab, idx)])
        if not close(cen, [c["centroid"][:nd] for c in comps], REL):
            errs.append("centroid")

    if doc["has_intensity"] and count:
        v = np.load(base + ".intensity.npy")
        for name, fn in (("sum", ndi.sum), ("mean", ndi.mean), ("imin", ndi.minimum),
                         ("imax", ndi.maximum), ("std", ndi.standard_deviation)):
            want = np.asarray(fn(v, lab, idx), dtype=float)
            got = np.array([np.nan if c[name] is None else c[name] for c in comps])
            if not close(got, want, REL):
                bad = int(np.argmax(~np.isclose(got, want, rtol=REL, atol=0, equal_nan=True)))
                errs.append(f"{name} (label {bad + 1}: {got[bad]!r}, scipy {want[bad]!r})")
        with np.errstate(invalid="ignore", divide="ignore"):
            wc = np.array([rev(t) for t in ndi.center_of_mass(v, lab, idx)])
        got = np.array([[np.nan if x is None else x for x in c["wcentroid"][:nd]] for c in comps])
        if not close(got, wc, REL):
            errs.append("weighted centroid")

    surface, contacts = faces(lab, count, sp)
    if not close([c["surface"] for c in comps], surface[1:], 1e-12):
        errs.append("surface")
    got = {(a, b): (f, area) for a, b, f, area in doc["contacts"]}
    if set(got) != set(contacts) or any(got[k][0] != contacts[k][0] or not close(got[k][1], contacts[k][1], 1e-12) for k in got):
        errs.append(f"contacts ({len(got)} pairs, NumPy {len(contacts)})")

    # Numbering by size: decreasing size, ties by first occurrence.
    if count:
        _, first = np.unique(lab.ravel(), return_index=True)
        first = first[1:] if lab.ravel()[first[0]] == 0 else first
        by_first = np.argsort(first, kind="stable")      # labels in order of first occurrence
        order = by_first[np.argsort(-size[by_first], kind="stable")]
        perm = np.zeros(count + 1, dtype=np.int64)
        perm[order + 1] = np.arange(1, count + 1)
        if doc["size_order"] != perm.tolist():
            errs.append("size order")

    if count:
        phys = size * float(np.prod(sp))
        want = (2 * nd * phys / math.pi) ** (1 / nd)
        iso = all(s == sp[0] for s in sp)
        if iso:
            want = np.array([p.equivalent_diameter for p in skm.regionprops(lab)]) * sp[0]
        if not close([c["eq_diameter"] for c in comps], want, REL):
            errs.append("eq_diameter")
        oracle = "skimage" if iso else "formula"
    else:
        oracle = "-"
    status = "ok" if not errs else "FAIL " + ", ".join(errs)
    print(f"{os.path.basename(base)} {doc['file']} {doc['mode']} c{doc['connectivity']} frame {doc['frame']}: "
          f"{count} components, {len(doc['contacts'])} contacts, eq_diameter by {oracle}: {status}", flush=True)
    return not errs


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    bases = sorted(p[:-5] for p in glob.glob(os.path.join(sys.argv[1], "*.json")) if not p.endswith(".timing.json"))
    failed = [b for b in bases if not check(b)]
    print(f"{len(bases) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed or not bases else 0)


if __name__ == "__main__":
    main()
