#!/usr/bin/env bash
# Builds and runs cuda/emu/graph_check.cpp: the graph kernels on the CPU
# (emu.h) against a serial union-find. Needs g++ >= 12; no GPU.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
cat ../kernels/*.cu > "$tmp/all_kernels.cu"
g++ -std=c++20 -O1 -pthread -w -I. -I"$tmp" -o "$tmp/check" graph_check.cpp
"$tmp/check" "$@"
