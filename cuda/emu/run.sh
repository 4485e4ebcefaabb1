#!/usr/bin/env bash
# Builds and runs cuda/emu/check.cpp: the tile and value-block kernels run
# on the CPU (emu.h) against a reference labeling. Needs g++ >= 12; no GPU.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
cat ../kernels/*.cu > "$tmp/all_kernels.cu"
g++ -std=c++20 -O1 -ffp-contract=off -pthread -w -I. -I"$tmp" -o "$tmp/check" check.cpp
"$tmp/check" "$@"
