#!/usr/bin/env bash
# Side-by-side: cclabel's labeling kernel (go test -bench) and
# scipy.ndimage.label on the same 8192x8192 random image (p=0.6, 8-conn).
# The image stays in $CCLABEL_BENCH_DIR (default $TMPDIR/cclabel-bench).
# Needs Debian's python3-scipy. Run from the repository root.
set -euo pipefail
work=${CCLABEL_BENCH_DIR:-${TMPDIR:-/tmp}/cclabel-bench}
mkdir -p "$work"
img=$work/img8192-random-p0.6.npy
[ -s "$img" ] || go run ./cmd/cclabel gen image --size 8192x8192 --density 0.6 --seed 1 -q -o "$img"
for round in 1 2 3; do
  echo "== round $round"
  # TODO(path): the CPU grid labelers' benchmarks live in ./imagegraph/gridcc.
  CCLABEL_BENCH_FULL=1 go test -run '^$' -bench 'Label/8192x8192/binary/c8' -benchtime 5x ./imagegraph/gridcc | grep Benchmark
  /usr/bin/python3 bench/scipy_label.py "$img" 8 5
done
