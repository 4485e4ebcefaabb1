"""Builds and installs the cclabel Python package.

The build step compiles libcclabel.so from the Go sources of the repository
this folder belongs to (go build -buildmode=c-shared ./capi) into the
package. It needs the Go toolchain, setuptools and NumPy, and nothing from
a package index: `pip install ./python` (in a virtual environment) works
offline. $CCLABEL_REPO names another checkout; $GO another go binary.
"""

import os
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: pip's legacy install still works
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.environ.get("CCLABEL_REPO") or os.path.dirname(HERE)


def build_library(dest):
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        raise SystemExit("cclabel: building libcclabel.so needs the Go toolchain (go on PATH, or $GO)")
    if not os.path.isfile(os.path.join(REPO, "capi", "cclabel.h")):
        raise SystemExit("cclabel: %s is not a cclabel checkout (set $CCLABEL_REPO)" % REPO)
    dest = os.path.abspath(dest)
    os.makedirs(dest, exist_ok=True)
    out = os.path.join(dest, "libcclabel.so")
    env = dict(os.environ, CGO_ENABLED="1")
    cmd = [go, "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./capi"]
    print("cclabel:", " ".join(cmd), "(in %s)" % REPO)
    subprocess.run(cmd, cwd=REPO, env=env, check=True)
    header = os.path.join(dest, "libcclabel.h")  # cgo's generated header; capi/cclabel.h is the contract
    if os.path.exists(header):
        os.remove(header)


class BuildPy(build_py):
    """build_py that also builds libcclabel.so into the package."""

    def run(self):
        super().run()
        build_library(os.path.join(self.build_lib, "cclabel"))


class BinaryDistribution(Distribution):
    """A distribution with a native library: its wheel is platform-specific."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildPy}

if bdist_wheel is not None:

    class BdistWheel(bdist_wheel):
        """bdist_wheel tagged py3-none-PLATFORM: the library is loaded with
        ctypes, so it does not depend on the Python version or ABI."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = BdistWheel

setup(
    name="cclabel",
    version="0.1.0",
    description="Connected-component labeling of NumPy arrays and graphs with the cclabel engine",
    packages=["cclabel"],
    package_data={"cclabel": ["libcclabel.so"]},
    python_requires=">=3.8",
    install_requires=["numpy"],
    cmdclass=cmdclass,
    distclass=BinaryDistribution,
    zip_safe=False,
)
