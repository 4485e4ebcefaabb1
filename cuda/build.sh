#!/usr/bin/env bash
# Builds cuda/kernels.fatbin from cuda/kernels/*.cu with nvcc (CUDA >= 12):
# SASS for sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 and PTX (compute_120)
# for newer GPUs, and records the sources' sha256 in cuda/kernels.sha256,
# which a CPU test checks so the committed fatbin cannot drift from the .cu.
# The fatbin is compressed (-compress-all); the driver expands it on load.
# nvcc builds the architectures in parallel (-t 0).
# Run from the repository root on a machine with nvcc.
set -euo pipefail
export LC_ALL=C # name order as Go sorts: ecl_grid.cu before ecl_grid_blocks.cu
cd "$(dirname "$0")"
arches=""
for sm in 75 80 86 89 90 100 120; do
  arches+=" -gencode arch=compute_${sm},code=sm_${sm}"
done
arches+=" -gencode arch=compute_120,code=compute_120"
cat kernels/*.cu > /tmp/cclabel_kernels_all.cu
nvcc -O3 -t 0 -fatbin -Xfatbin -compress-all $arches -o kernels.fatbin /tmp/cclabel_kernels_all.cu
cat kernels/*.cu | sha256sum | cut -d' ' -f1 > kernels.sha256
echo "built kernels.fatbin ($(wc -c < kernels.fatbin) bytes), sources $(cat kernels.sha256)"
