import numpy as np
import pytest
import scipy.ndimage as ndi

import cclabel
from oracle import reference

RTOL = 1e-9


def labeled(rng, shape, fortran=False):
    a = (rng.random(shape) > 0.55).astype(np.uint8)
    if fortran:
        a = np.asfortranarray(a)
    lab, n = reference(a, 4 if len(shape) == 2 else 6, "binary")
    return np.asarray(lab, dtype=np.uint32, order="F" if fortran else "C"), n


@pytest.mark.parametrize("shape", [(41, 37), (13, 17, 19), (300,)])
@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("idtype", ["uint8", "int32", "float32", "float64"])
@pytest.mark.parametrize("ldtype", ["uint16", "uint32", "int64"])
def test_statistics_against_scipy(shape, fortran, idtype, ldtype):
    rng = np.random.default_rng(len(shape) * 100 + fortran)
    lab, n = labeled(rng, shape, fortran)
    lab = lab.astype(ldtype, order="K")
    inten = (rng.random(shape) * 200 - (50 if idtype[0] != "u" else 0)).astype(idtype)
    s = cclabel.statistics(lab, intensity=inten)
    idx = np.arange(1, n + 1)
    size = np.bincount(lab.ravel().astype(np.int64), minlength=n + 1)
    assert np.array_equal(s["voxel_counts"], size)
    f = inten.astype(np.float64)
    for key, fn in (("intensity_sum", ndi.sum), ("intensity_mean", ndi.mean),
                    ("intensity_min", ndi.minimum), ("intensity_max", ndi.maximum),
                    ("intensity_std", ndi.standard_deviation)):
        want = np.asarray(fn(f, lab, idx), dtype=np.float64)
        np.testing.assert_allclose(s[key][1:], want, rtol=RTOL, atol=1e-9 * np.abs(f).max(), err_msg=key)
    cm = np.asarray(ndi.center_of_mass(np.ones(shape), lab, idx)).reshape(n, len(shape))
    np.testing.assert_allclose(s["centroids"][1:], cm, rtol=RTOL, atol=1e-12)
    fpos = f - f.min() + 1  # positive weights: scipy's center_of_mass is the weighted centroid
    s2 = cclabel.statistics(lab, intensity=fpos)
    wcm = np.asarray(ndi.center_of_mass(fpos, lab, idx)).reshape(n, len(shape))
    np.testing.assert_allclose(s2["weighted_centroids"][1:], wcm, rtol=RTOL, atol=1e-9)
    objs = ndi.find_objects(lab.astype(np.int64))
    for k, sl in enumerate(objs, start=1):
        assert s["bounding_boxes"][k] == tuple(slice(x.start, x.stop) for x in sl)
        assert list(s["bbox_min"][k]) == [x.start for x in sl]
        assert list(s["bbox_max"][k]) == [x.stop - 1 for x in sl]


def test_equivalent_diameter_surface_and_spacing():
    lab = np.zeros((10, 12, 14), np.uint32)
    lab[2:5, 3:7, 1:6] = 1  # a 3x4x5 box
    lab[6:8, 8:9, 9:13] = 2  # 2x1x4
    sp = (2.0, 0.5, 3.0)
    s = cclabel.statistics(lab, spacing=sp, surface=True)
    vol = np.array([60, 8]) * np.prod(sp)
    np.testing.assert_allclose(s["equivalent_diameters"][1:], np.cbrt(6 * vol / np.pi), rtol=RTOL)

    def box_surface(d):
        a, b, c = (d[i] * sp[i] for i in range(3))
        return 2 * (a * b + b * c + a * c)

    np.testing.assert_allclose(s["surface"][1:], [box_surface((3, 4, 5)), box_surface((2, 1, 4))], rtol=RTOL)
    img = np.zeros((6, 7), np.uint16)
    img[1:4, 2:6] = 1
    s2 = cclabel.statistics(img, surface=True, spacing=(1.0, 2.0))
    np.testing.assert_allclose(s2["surface"][1], 2 * (3 * 1.0 + 4 * 2.0), rtol=RTOL)
    np.testing.assert_allclose(s2["equivalent_diameters"][1], 2 * np.sqrt(12 * 2.0 / np.pi), rtol=RTOL)


@pytest.mark.parametrize("plane_axis", [0, 1, 2])
def test_one_plane_arrays_are_measured_in_3d(plane_axis):
    # A 3-axis array of one plane is measured in 3D whatever its memory
    # order: a 3x4 rectangle one voxel thick has the surface of a 3x4x1 box.
    shape = [5, 6, 7]
    shape[plane_axis] = 1
    lab = np.zeros(shape, np.uint32)
    box = [slice(1, 4), slice(1, 5), slice(2, 5)]
    box[plane_axis] = slice(0, 1)
    lab[tuple(box)] = 1
    sp = (2.0, 0.5, 3.0)
    sides = [(b.stop - b.start) * sp[i] for i, b in enumerate(box)]
    want = 2 * (sides[0] * sides[1] + sides[1] * sides[2] + sides[0] * sides[2])
    inten = np.arange(lab.size, dtype=np.float32).reshape(shape)
    for order in ("C", "F"):
        s = cclabel.statistics(np.asarray(lab, order=order), intensity=np.asarray(inten, order=order),
                               spacing=sp, surface=True)
        np.testing.assert_allclose(s["surface"][1], want, rtol=RTOL)
        np.testing.assert_allclose(s["equivalent_diameters"][1], np.cbrt(6 * np.prod(sides) / np.pi), rtol=RTOL)
        np.testing.assert_allclose(s["intensity_sum"][1], inten[lab == 1].sum(dtype=np.float64), rtol=RTOL)
        assert list(s["bbox_min"][1]) == [b.start for b in box]


@pytest.mark.parametrize("spacing", [(0, 1), (1, -2), (np.nan, 1), (np.inf, 1)])
def test_spacing_must_be_positive_and_finite(spacing):
    lab = np.ones((3, 4), np.uint32)
    with pytest.raises(ValueError):
        cclabel.statistics(lab, spacing=spacing, surface=True)
    with pytest.raises(ValueError):
        cclabel.contacts(lab, spacing=spacing)


def test_labels_past_the_element_count_are_refused():
    with pytest.raises(ValueError):
        cclabel.statistics(np.array([0, 2**31], np.uint32))


def contacts_oracle(lab, spacing):
    pairs = {}
    nd = lab.ndim
    for ax in range(nd):
        a = np.moveaxis(lab, ax, 0)
        x, y = a[:-1].ravel(), a[1:].ravel()
        m = (x != 0) & (y != 0) & (x != y)
        area = np.prod([spacing[i] for i in range(nd) if i != ax]) if nd > 1 else 1.0
        for p, q in zip(np.minimum(x[m], y[m]), np.maximum(x[m], y[m])):
            f, ar = pairs.get((p, q), (0, 0.0))
            pairs[(p, q)] = (f + 1, ar + area)
    return pairs


@pytest.mark.parametrize("shape", [(25, 31), (9, 11, 13)])
@pytest.mark.parametrize("fortran", [False, True])
def test_contacts(shape, fortran):
    rng = np.random.default_rng(21)
    a = rng.integers(0, 4, size=shape).astype(np.uint8)
    lab, _ = reference(a, 4 if len(shape) == 2 else 6, "multilabel")
    lab = np.asarray(lab, dtype=np.uint32, order="F" if fortran else "C")
    sp = (1.5, 2.0, 0.5)[: len(shape)]
    c = cclabel.contacts(lab, spacing=sp)
    want = contacts_oracle(np.asarray(lab), sp)
    keys = sorted(want)
    assert [tuple(p) for p in c["pairs"]] == keys
    assert list(c["faces"]) == [want[k][0] for k in keys]
    np.testing.assert_allclose(c["areas"], [want[k][1] for k in keys], rtol=RTOL)


def test_measure_errors():
    with pytest.raises(TypeError):
        cclabel.statistics(np.ones((3, 3), np.float32))
    with pytest.raises(ValueError):
        cclabel.statistics(-np.ones((3, 3), np.int32))
    with pytest.raises(ValueError):
        cclabel.statistics(np.ones((3, 3), np.uint32), intensity=np.ones((3, 4)))
    with pytest.raises(ValueError):
        cclabel.statistics(np.ones((3, 3), np.uint32), spacing=(-1, 1))
    s = cclabel.statistics(np.zeros((3, 3), np.uint32))
    assert list(s["voxel_counts"]) == [9] and s["centroids"].shape == (1, 2)


def test_bounding_boxes_sequence():
    lab = np.zeros((5, 6), np.uint32)
    lab[1:3, 2:4] = 1
    lab[4, 0] = 2
    b = cclabel.statistics(lab)["bounding_boxes"]
    assert len(b) == 3 and b[0] is None
    assert b[1] == (slice(1, 3), slice(2, 4)) and b[-1] == b[2] == (slice(4, 5), slice(0, 1))
    assert list(b) == [None, b[1], b[2]] and b[1:] == [b[1], b[2]]
    with pytest.raises(IndexError):
        b[3]
