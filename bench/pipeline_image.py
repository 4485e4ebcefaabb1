#!/usr/bin/python3
"""The Python pipeline cclabel's `label` command replaces, for end-to-end
comparisons: open an image with PIL, label its nonzero pixels with
cv2.connectedComponents (8-connectivity, as `cclabel label --binary`),
colour each component (background black) and save the colour map as a PNG
with PIL's default settings.

Usage: pipeline_image.py IN.png OUT.png
Needs Debian's python3-pil, python3-opencv and python3-numpy
(/usr/bin/python3).
"""
import sys
import numpy as np
import cv2
from PIL import Image

src, dst = sys.argv[1], sys.argv[2]
grey = np.asarray(Image.open(src).convert("L"))
n, labels = cv2.connectedComponents((grey != 0).astype(np.uint8), connectivity=8, ltype=cv2.CV_32S)
rng = np.random.default_rng(1)
palette = rng.integers(64, 256, size=(n, 3), dtype=np.uint8)
palette[0] = 0
Image.fromarray(palette[labels], "RGB").save(dst)
print(f"{src}: {n - 1} components", file=sys.stderr)
