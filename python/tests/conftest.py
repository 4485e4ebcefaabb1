"""Test setup: imports cclabel from this checkout's python/ folder and, unless
$CCLABEL_LIBRARY names a library, builds python/cclabel/libcclabel.so from
the repository with the Go toolchain (go build is incremental: a few seconds
when nothing changed)."""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYDIR)
DATA = os.environ.get("CCLABEL_DATA") or os.path.join(os.path.dirname(REPO), "shared", "data")

sys.path.insert(0, PYDIR)

if not os.environ.get("CCLABEL_LIBRARY") and shutil.which("go"):
    subprocess.run(
        ["go", "build", "-buildmode=c-shared", "-o", os.path.join(PYDIR, "cclabel", "libcclabel.so"), "./capi"],
        cwd=REPO, check=True)
