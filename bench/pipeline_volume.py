#!/usr/bin/python3
"""The Python pipeline cclabel's `volume` command replaces, for end-to-end
comparisons: load a NIfTI volume with nibabel, label its nonzero voxels
with scipy.ndimage.label (26-connectivity, as `cclabel volume --binary`),
save the labels with nibabel, keeping the input's affine and header, in
the smallest unsigned type that holds them (as cclabel does).

Usage: pipeline_volume.py IN.nii[.gz] OUT.nii[.gz]
Needs Debian's python3-nibabel and python3-scipy (/usr/bin/python3).
"""
import sys
import numpy as np
import nibabel as nib
import scipy.ndimage as ndi

src, dst = sys.argv[1], sys.argv[2]
img = nib.load(src)
data = np.asanyarray(img.dataobj)
labels, n = ndi.label(data != 0, structure=np.ones((3, 3, 3), dtype=bool))
dtype = np.uint16 if n < 1 << 16 else np.uint32
out = nib.Nifti1Image(labels.astype(dtype), img.affine, img.header)
out.set_data_dtype(dtype)
nib.save(out, dst)
print(f"{src}: {n} components", file=sys.stderr)
