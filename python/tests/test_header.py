"""capi/cclabel.h against the library: a C program compiled with the header
alone links to libcclabel.so and labels a small array through it."""

import os
import shutil
import subprocess

import pytest

from cclabel._lib import library_path
from conftest import REPO

PROGRAM = r"""
#include <stdio.h>
#include "cclabel.h"

int main(void) {
	/* Two components at 4-connectivity, one at 8: a diagonal pair and a third pixel. */
	uint8_t img[3][4] = {{1, 0, 0, 1}, {0, 1, 0, 0}, {0, 0, 0, 1}};
	uint32_t out[3][4];
	int64_t shape[2] = {3, 4}, strides[2] = {4, 1}, count4 = -1, count8 = -1;
	char err[256];
	if (ccl_abi_version() != 1) return 10;
	if (ccl_label(img, CCL_UINT8, 2, shape, strides, out, CCL_UINT32, CCL_BINARY, 0, 0, 0, 4,
	              CCL_ORDER_FIRST, CCL_BACKEND_CPU, 1, 0, 0, &count4, err, sizeof err) != CCL_OK) {
		fprintf(stderr, "%s\n", err);
		return 11;
	}
	if (ccl_label(img, CCL_UINT8, 2, shape, strides, out, CCL_UINT32, CCL_BINARY, 0, 0, 0, 8,
	              CCL_ORDER_FIRST, CCL_BACKEND_CPU, 1, 0, 0, &count8, err, sizeof err) != CCL_OK) {
		fprintf(stderr, "%s\n", err);
		return 12;
	}
	/* A bad dtype comes back as CCL_ETYPE with a message. */
	int bad = ccl_label(img, 99, 2, shape, strides, out, CCL_UINT32, CCL_BINARY, 0, 0, 0, 4,
	                    CCL_ORDER_FIRST, CCL_BACKEND_CPU, 1, 0, 0, &count8, err, sizeof err);
	printf("%lld %lld %d %d %s\n", (long long)count4, (long long)count8, bad, out[2][3] != 0, err[0] ? "msg" : "none");
	return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_header_links_and_labels(tmp_path):
    lib = library_path()
    src = tmp_path / "main.c"
    src.write_text(PROGRAM)
    exe = tmp_path / "main"
    subprocess.run(["gcc", "-Wall", "-Werror", "-I", os.path.join(REPO, "capi"), str(src), lib,
                    "-Wl,-rpath," + os.path.dirname(os.path.abspath(lib)), "-o", str(exe)], check=True)
    res = subprocess.run([str(exe)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    count4, count8, bad, last, msg = res.stdout.split()
    assert (count4, count8) == ("4", "3")
    assert int(bad) == 2 and msg == "msg"  # CCL_ETYPE
    assert last == "1"
