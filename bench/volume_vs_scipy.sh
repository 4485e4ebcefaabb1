#!/usr/bin/env bash
# Side-by-side: cclabel's volume labeling kernel (go test -bench) and
# scipy.ndimage.label on the same 512^3 random volume (p=0.3, 26-conn).
# Needs Debian's python3-scipy. Run from the repository root.
set -euo pipefail
mkdir -p .dev
go run ./cmd/cclabel gen volume --size 512,512,512 --density 0.3 --seed 1 -o .dev/vol512.npy
for round in 1 2 3; do
  echo "== round $round"
  go test -run '^$' -bench 'LabelVolume/512\^3/binary/c26' -benchtime 3x ./imagegraph/gridcc | grep Benchmark
  /usr/bin/python3 bench/scipy_label.py .dev/vol512.npy 26 3
done
