#!/usr/bin/env bash
# Side-by-side: cclabel's volume labeling kernel (go test -bench) and
# scipy.ndimage.label on the same 512^3 random volume (p=0.3, 26-conn).
# The volume stays in $CCLABEL_BENCH_DIR (default $TMPDIR/cclabel-bench).
# Needs Debian's python3-scipy. Run from the repository root.
set -euo pipefail
work=${CCLABEL_BENCH_DIR:-${TMPDIR:-/tmp}/cclabel-bench}
mkdir -p "$work"
vol=$work/vol512-random-p0.3.npy
[ -s "$vol" ] || go run ./cmd/cclabel gen volume --size 512,512,512 --density 0.3 --seed 1 -q -o "$vol"
for round in 1 2 3; do
  echo "== round $round"
  # TODO(path): the CPU grid labelers' benchmarks live in ./imagegraph/gridcc.
  CCLABEL_BENCH_FULL=1 go test -run '^$' -bench 'LabelVolume/512\^3/binary/c26' -benchtime 3x ./imagegraph/gridcc | grep Benchmark
  /usr/bin/python3 bench/scipy_label.py "$vol" 26 3
done
