#!/usr/bin/env bash
# Side-by-side: cclabel's labeling kernel (go test -bench) and
# scipy.ndimage.label on the same 8192x8192 random image (p=0.6, 8-conn).
# Needs Debian's python3-scipy. Run from the repository root.
set -euo pipefail
mkdir -p .dev
go run ./cmd/cclabel gen image --size 8192x8192 --density 0.6 --seed 1 -o .dev/img8192.npy
for round in 1 2 3; do
  echo "== round $round"
  go test -run '^$' -bench 'Label/8192x8192/binary/c8' -benchtime 5x ./imagegraph/gridcc | grep Benchmark
  /usr/bin/python3 bench/scipy_label.py .dev/img8192.npy 8 5
done
