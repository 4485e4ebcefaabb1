"""The cases of ../shared/data (expected.json: counts and the sha256 of the
canonical labels) through cclabel.label, against scikit-image too. NIfTI
and NRRD files are read here (first axis fastest: Fortran arrays); 2D PNG
and TIFF images with Pillow, TIFF stacks with tifffile; what these readers
do not cover is skipped."""

import gzip
import hashlib
import json
import os
import struct

import numpy as np
import pytest

import cclabel
from conftest import DATA
from oracle import reference

pytestmark = pytest.mark.skipif(not os.path.isdir(DATA), reason="no ../shared/data")

NIFTI_TYPES = {2: "u1", 4: "i2", 8: "i4", 16: "f4", 64: "f8", 256: "i1", 512: "u2", 768: "u4",
               1024: "i8", 1280: "u8"}


def read_nifti(path):
    """Returns the frames of a NIfTI-1 file as Fortran arrays (x, y, z), and
    its scl_slope and scl_inter."""
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    end = "<" if struct.unpack("<i", raw[:4])[0] == 348 else ">"
    dim = struct.unpack(end + "8h", raw[40:56])
    code = struct.unpack(end + "h", raw[70:72])[0]
    off = int(struct.unpack(end + "f", raw[108:112])[0])
    slope, inter = struct.unpack(end + "2f", raw[112:120])
    if code not in NIFTI_TYPES:
        return None, 0, 0
    nd = dim[0]
    shape = [max(1, d) for d in dim[1:1 + nd]] + [1] * (4 - nd)
    dt = np.dtype(end + NIFTI_TYPES[code])
    n = int(np.prod(shape))
    data = np.frombuffer(raw, dtype=dt, count=n, offset=off).astype(dt.newbyteorder("="))
    vol = data.reshape(shape, order="F")
    frames = [np.asfortranarray(vol[..., t]) for t in range(shape[3])]
    return frames, slope, inter


NRRD_TYPES = {"uchar": "u1", "unsigned char": "u1", "uint8": "u1", "signed char": "i1", "int8": "i1",
              "short": "i2", "int16": "i2", "ushort": "u2", "unsigned short": "u2", "uint16": "u2",
              "int": "i4", "int32": "i4", "uint": "u4", "unsigned int": "u4", "uint32": "u4",
              "float": "f4", "double": "f8"}


def read_nrrd(path):
    """Returns a NRRD volume (raw or gzip, attached or detached data) as a
    Fortran array (x, y, z), or None for what this small reader skips."""
    raw = open(path, "rb").read()
    end = raw.find(b"\n\n")
    fields = {}
    for line in raw[:end].decode("latin-1").splitlines()[1:]:
        if line.startswith("#") or ": " not in line:
            continue
        k, v = line.split(": ", 1)
        fields[k.strip()] = v.strip()
    if fields.get("type") not in NRRD_TYPES or fields.get("encoding") not in ("raw", "gzip", "gz"):
        return None
    if "line skip" in fields or "byte skip" in fields:
        return None
    body = raw[end + 2:]
    if "data file" in fields:
        body = open(os.path.join(os.path.dirname(path), fields["data file"]), "rb").read()
    if fields["encoding"] != "raw":
        body = gzip.decompress(body)
    dt = np.dtype(("<" if fields.get("endian", "little") == "little" else ">") + NRRD_TYPES[fields["type"]])
    shape = [int(x) for x in fields["sizes"].split()]
    data = np.frombuffer(body, dtype=dt, count=int(np.prod(shape))).astype(dt.newbyteorder("="))
    return data.reshape(shape, order="F")


def read_stack(path):
    """Returns a multi-page TIFF as a C array (z, y, x), or None."""
    try:
        import tifffile
    except ImportError:
        return None
    a = tifffile.imread(path)
    return a if a.ndim == 3 and a.dtype.kind in "uif" else None


def read_image(path):
    from PIL import Image

    im = Image.open(path)
    if getattr(im, "n_frames", 1) != 1:
        return None
    if im.mode in ("RGB", "RGBA"):
        a = np.asarray(im.convert("RGB"))
        if not (np.array_equal(a[..., 0], a[..., 1]) and np.array_equal(a[..., 1], a[..., 2])):
            return None
        return np.ascontiguousarray(a[..., 0])
    if im.mode == "P":
        return None
    return np.asarray(im)


def cases():
    path = os.path.join(DATA, "expected.json")
    if not os.path.exists(path):
        return []
    return json.load(open(path))


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=["%s-%s-%d" % (c["file"], c["mode"], c["connectivity"]) for c in CASES])
def test_case(case):
    path = os.path.join(DATA, case["file"])
    mode, *rest = case["mode"].split(":")
    thr = float(rest[0]) if rest else None
    invert = len(rest) > 1 and rest[1] == "invert"
    if ".nii" in path:
        frames, slope, inter = read_nifti(path)
        if frames is None:
            pytest.skip("NIfTI type")
        if mode == "threshold" and (slope not in (0, 1) or inter != 0):
            pytest.skip("a threshold of scaled values")
    elif path.endswith((".nrrd", ".nhdr")):
        a = read_nrrd(path)
        if a is None:
            pytest.skip("a NRRD encoding this reader skips")
        frames = [a]
    elif path.endswith((".png", ".tif")):
        a = read_image(path)
        if a is None and path.endswith(".tif"):
            a = read_stack(path)
        if a is None:
            pytest.skip("not a grey image or stack")
        frames = [a]
    else:
        pytest.skip("format read by the Go tests only")
    conn = case["connectivity"]
    h = hashlib.sha256()
    total = 0
    for f in frames:
        if f.ndim == 3 and f.shape[2] == 1:
            f = f[:, :, 0]
        c = conn if f.ndim == 3 or conn in (4, 8) else {6: 4, 18: 8, 26: 8}[conn]
        lab, n = cclabel.label(f, connectivity=c, binary=mode == "binary", threshold=thr, invert=invert,
                               return_N=True)
        want, m = reference(f, c, mode, thr, invert)
        assert n == m and np.array_equal(lab, want)
        h.update(lab.astype("<u4").ravel(order="K").tobytes())
        total += n
    assert total == case["components"]
    if "sha256" in case:
        assert h.hexdigest() == case["sha256"]
