#!/usr/bin/env bash
# Graph read throughput of `cclabel graph`: for each FILE, RUNS runs of
# `cclabel graph --backend cpu --json`, then the medians of its "read"
# object's MB/s (parsed, decompressed text per second of parsing and
# building) and of the parse-only MB/s, with the load average before and
# after. Generate (and time) a 1 GB edge list with
#   CCLABEL_GRAPHIO_BIG_MB=1024 CCLABEL_GRAPHIO_BIG_FILE=$PWD/big.txt \
#     go test ./formats/graphio -run BigEdgeList -v
# and compress it with the tools (gzip -k, zstd -k, xz -k, bzip2 -k).
# The built binary and the runs' numbers stay in $CCLABEL_BENCH_DIR
# (default $TMPDIR/cclabel-bench).
# Usage: bench/graph_read.sh [-c CCLABEL] [-n RUNS] FILE...   (from the repository root)
set -euo pipefail
work=${CCLABEL_BENCH_DIR:-${TMPDIR:-/tmp}/cclabel-bench}
cc=$work/cclabel
runs=3
while getopts "c:n:h" opt; do
  case $opt in
    c) cc=$OPTARG ;;
    n) runs=$OPTARG ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; [ "$opt" = h ] && exit 0; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-c CCLABEL] [-n RUNS] FILE..." >&2; exit 2; }
mkdir -p "$work"
[ -x "$cc" ] || go build -o "$cc" ./cmd/cclabel
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-28s %6s %10s %10s %10s %s\n' file runs "MB/s" "parse MB/s" "read s" "load before / after"
for f in "$@"; do
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  : >"$work/graph_read.tsv"
  for _ in $(seq "$runs"); do
    "$cc" graph --backend cpu --json "$f" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)["read"]
print(r["mb_per_s"], r["bytes"] / 1e6 / r["parse_seconds"], r["parse_seconds"] + r["build_seconds"])' >>"$work/graph_read.tsv"
  done
  after=$(cut -d' ' -f1-3 /proc/loadavg)
  printf '%-28s %6d %10.0f %10.0f %10.2f %s / %s\n' "$(basename "$f")" "$runs" \
    "$(cut -d' ' -f1 "$work/graph_read.tsv" | median)" "$(cut -d' ' -f2 "$work/graph_read.tsv" | median)" \
    "$(cut -d' ' -f3 "$work/graph_read.tsv" | median)" "$before" "$after"
done
