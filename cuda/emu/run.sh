#!/usr/bin/env bash
# Builds and runs cuda/emu/check.cpp: the tile and value-block kernels run
# on the CPU (emu.h) against a reference labeling; "run.sh incremental"
# runs cuda/emu/incremental.cpp, the incremental-connectivity kernels
# against a union-find; "run.sh stats" cuda/emu/stats.cpp, the statistics
# kernels against a plain reference. Needs g++ >= 12; no GPU.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
cat ../kernels/*.cu > "$tmp/all_kernels.cu"
src=check.cpp
if [ "${1:-}" = incremental ]; then # the incremental-connectivity kernels
  src=incremental.cpp
  shift
elif [ "${1:-}" = stats ]; then # the statistics kernels (kernels/stats.cu)
  src=stats.cpp
  shift
fi
g++ -std=c++20 -O1 -ffp-contract=off -pthread -w -I. -I"$tmp" -o "$tmp/check" "$src"
"$tmp/check" "$@"
