#!/usr/bin/env bash
# cclabel's GPU graph algorithms side by side with the ECL-CC reference
# (ECL-CC_11.cu of github.com/burtscher/ECL-Suite) on the same .egr files:
# the median kernel time of RUNS runs of each, in ms, and the ratio of the
# reference to cclabel's best. Builds the reference from ECLSUITE (a
# checkout of ECL-Suite; CUDA 13 dropped the clock fields its device line
# prints, so they are removed from a copy) and the cuda test binary,
# generates the acceptance graphs into DIR unless they are there (grid
# 4096², random 2^23 k=4, R-MAT 22/8 and 24/16, and the NY road network of
# ../shared/data converted to .egr), then runs
# BenchmarkGPUGraphAlgorithms on them. Builds and intermediate files stay
# in $CCLABEL_BENCH_DIR (default $TMPDIR/cclabel-bench). Needs nvcc, Go
# and a GPU.
# Usage: bench/graph_gpu_vs_ecl.sh [-s ECLSUITE] [-d DIR] [-n RUNS]   (from the repository root)
set -euo pipefail
suite=../ECL-Suite
work=${CCLABEL_BENCH_DIR:-${TMPDIR:-/tmp}/cclabel-bench}
dir=$work/graphs
runs=7
while getopts "s:d:n:h" opt; do
  case $opt in
    s) suite=$OPTARG ;;
    d) dir=$OPTARG ;;
    n) runs=$OPTARG ;;
    *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; [ "$opt" = h ] && exit 0; exit 2 ;;
  esac
done
mkdir -p "$dir" "$work"
cc=$work/cclabel
go build -o "$cc" ./cmd/cclabel
go test -c -o "$work/cuda.test" ./cuda
ref=$work/eclcc
if [ ! -x "$ref" ]; then
  tmp=$(mktemp -d)
  cp "$suite/src/baseline/egr-input/CC/ECL-CC_11.cu" "$suite/library/ECLgraph.h" "$tmp/"
  sed -i 's|printf("gpu: %s with %d SMs and %d mTpSM (%.1f MHz and %.1f MHz)\\n", deviceProp.name, SMs, mTSM, deviceProp.clockRate \* 0.001, deviceProp.memoryClockRate \* 0.001);|printf("gpu: %s with %d SMs and %d mTpSM\\n", deviceProp.name, SMs, mTSM);|' "$tmp/ECL-CC_11.cu"
  nvcc -O3 -arch=native -o "$ref" "$tmp/ECL-CC_11.cu"
  rm -rf "$tmp"
fi
gen() { [ -s "$dir/$1.egr" ] || "$cc" gen graph "${@:2}" -o "$dir/$1.egr"; }
gen grid4096 grid --width 4096 --height 4096
gen random2e23k4 random --vertices 8388608 --degree 4
gen rmat22ef8 rmat --scale 22 --edge-factor 8
gen rmat24ef16 rmat --scale 24 --edge-factor 16
ny=../shared/data/graphs/pace16_NY.gr
[ -s "$dir/pace16_NY.egr" ] || { [ -s "$ny" ] && "$cc" convert "$ny" "$dir/pace16_NY.egr"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
CCLABEL_BENCH_GRAPHS=$dir "$work/cuda.test" -test.run XXX -test.bench GPUGraphAlgorithms -test.benchtime="${runs}x" |
  grep '^GRAPH' | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^median_ms=/) {split($i, m, "="); print $2, $3, m[2]}}' >"$work/graph_gpu.txt"
ulimit -s unlimited
printf '%-16s %10s %10s %-18s %8s  %s\n' graph "ECL-CC ms" "best ms" best ratio "all cclabel algorithms (ms)"
for f in "$dir"/*.egr; do
  g=$(basename "$f" .egr)
  r=$(for _ in $(seq "$runs"); do "$ref" "$f" | awk '/compute time/ {print $3 * 1000}'; done | median)
  best=$(awk -v g="$g" '$1 == g' "$work/graph_gpu.txt" | sort -g -k3 | head -1)
  all=$(awk -v g="$g" '$1 == g {printf "%s %s  ", $2, $3}' "$work/graph_gpu.txt")
  printf '%-16s %10.4f %10.4f %-18s %7.2fx  %s\n' "$g" "$r" "$(echo "$best" | cut -d' ' -f3)" "$(echo "$best" | cut -d' ' -f2)" \
    "$(echo "$r $(echo "$best" | cut -d' ' -f3)" | awk '{print $1 / $2}')" "$all"
done
