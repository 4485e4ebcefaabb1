#!/usr/bin/env bash
# End to end, side by side: `cclabel volume` against nibabel + scipy +
# nibabel on a 512^3 uint8 .nii.gz, and `cclabel label` against PIL +
# OpenCV + PIL on an 8192^2 PNG (both binary; inputs from `cclabel gen`).
# Wall seconds of each run (alternating), then the medians and ratios.
# Usage: bench/e2e_vs_python.sh [CCLABEL] [RUNS]   (from the repository root)
# Inputs and the built binary stay in $CCLABEL_BENCH_DIR (default
# $TMPDIR/cclabel-bench). Needs /usr/bin/time and Debian's python3-nibabel,
# -scipy, -opencv, -pil.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; -*) echo "usage: $0 [CCLABEL] [RUNS]" >&2; exit 2 ;; esac
work=${CCLABEL_BENCH_DIR:-${TMPDIR:-/tmp}/cclabel-bench}
cc=${1:-$work/cclabel}
runs=${2:-5}
dir=$work/e2e
mkdir -p "$dir"
[ -x "$cc" ] || go build -o "$cc" ./cmd/cclabel
[ -f "$dir/v.nii.gz" ] || "$cc" gen volume --size 512,512,512 --kind random --density 0.3 --seed 1 -o "$dir/v.nii.gz"
[ -f "$dir/i.png" ] || "$cc" gen image --size 8192x8192 --kind blobs --density 0.5 --seed 1 -o "$dir/i.png"

# wall prints a command's wall seconds; a failing command stops the script
# rather than leaving a stale time behind.
wall() {
  if ! /usr/bin/time -f %e -o "$dir/t" "$@" >/dev/null 2>"$dir/err"; then
    echo "e2e_vs_python: failed: $* ($(tail -1 "$dir/err"))" >&2
    exit 1
  fi
  tail -1 "$dir/t"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for job in volume image; do
  : >"$dir/$job.cc"; : >"$dir/$job.py"
  for _ in $(seq "$runs"); do
    if [ $job = volume ]; then
      wall "$cc" volume "$dir/v.nii.gz" --binary -o "$dir/out.nii.gz" >>"$dir/$job.cc"
      wall /usr/bin/python3 bench/pipeline_volume.py "$dir/v.nii.gz" "$dir/out-py.nii.gz" >>"$dir/$job.py"
    else
      wall "$cc" label "$dir/i.png" --binary -o "$dir/c.png" >>"$dir/$job.cc"
      wall /usr/bin/python3 bench/pipeline_image.py "$dir/i.png" "$dir/c-py.png" >>"$dir/$job.py"
    fi
  done
  c=$(median <"$dir/$job.cc"); p=$(median <"$dir/$job.py")
  echo "$job: cclabel $(tr '\n' ' ' <"$dir/$job.cc")| python $(tr '\n' ' ' <"$dir/$job.py")| medians ${c}s vs ${p}s: $(awk -v c="$c" -v p="$p" 'BEGIN {printf "%.1fx", p/c}')"
done
