#!/usr/bin/env bash
# Runs two cclabel binaries over every image, volume and graph of the shared
# data with the same flags and compares every output byte for byte: coloured
# PNGs, overlays, 16-bit label PNGs, .npy label arrays, NIfTI/NRRD label
# volumes, previews, statistics (CSV and JSON), graph labels, spanning
# forests, update answers, converted graphs, out-of-core and chunked label
# volumes, a batch with its summary, the exit status and the --json summary
# without its timings.
#
#   scripts/compare-outputs.sh BEFORE_BINARY AFTER_BINARY [DATA_DIR]
#
# DATA_DIR defaults to $CCLABEL_SHARED_DATA, else ../shared/data beside the
# repository. Exits 1 when any output differs; prints the number of files
# compared.
set -euo pipefail
before=$(realpath "$1")
after=$(realpath "$2")
data=${3:-${CCLABEL_SHARED_DATA:-$(dirname "$0")/../../shared/data}}
data=$(realpath "$data")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# record NAME CMD...: runs a cclabel command, keeping its exit status and its
# JSON summary without its timings ("seconds", "*_seconds", "mb_per_s").
record() {
  local name=$1
  shift
  local status=0
  "$@" --json >"$out/$name.json.raw" 2>/dev/null || status=$?
  echo "$status" >"$out/$name.status"
  python3 - "$out/$name.json.raw" >"$out/$name.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
try:
    v = json.loads(text)
except ValueError:
    print(text.strip())
    sys.exit()
def strip(o):
    if isinstance(o, dict):
        return {k: strip(x) for k, x in o.items() if k not in ("seconds", "mb_per_s") and not k.endswith("_seconds")}
    if isinstance(o, list):
        return [strip(x) for x in o]
    return o
print(json.dumps(strip(v), sort_keys=True))
PY
  rm "$out/$name.json.raw"
}

run_all() {
  local bin=$1
  out=$2
  mkdir -p "$out"
  for f in "$data"/images/*; do
    n=$(basename "$f")
    record "$n.default" "$bin" label "$f" -o "$out/$n.c.png" --labels "$out/$n.l.npy" --stats "$out/$n.s.csv"
    record "$n.binary4" "$bin" label "$f" --binary -c 4 --overlay -o "$out/$n.ov.png" --labels "$out/$n.l.png" --stats "$out/$n.s.json"
    record "$n.thr" "$bin" label "$f" --threshold 100 --invert --min-size 3 -o "$out/$n.t.png" --labels "$out/$n.t.npy"
  done
  for f in "$data"/volumes/*.nii "$data"/volumes/*.nii.gz "$data"/volumes/*.nrrd "$data"/volumes/*.tif \
    "$data"/volumes/pynrrd_format_cases/*.nrrd "$data"/volumes/pynrrd_format_cases/*.nhdr "$data"/images/*.tif; do
    [ -e "$f" ] || continue
    n=$(basename "$(dirname "$f")")_$(basename "$f")
    record "$n.default" "$bin" volume "$f" -o "$out/$n.nii.gz" --preview "$out/$n.p.png" --stats "$out/$n.s.csv"
    record "$n.binary6" "$bin" volume "$f" --binary -c 6 -o "$out/$n.nrrd" --labels "$out/$n.npy" --stats "$out/$n.s.json"
    record "$n.largest" "$bin" volume "$f" -c 18 --largest 3 --dtype uint32 -o "$out/$n.l.nii"
  done
  for f in "$data"/graphs/*; do
    n=$(basename "$f")
    record "$n.graph" "$bin" graph "$f" --labels "$out/$n.labels.txt"
    record "$n.npy" "$bin" graph "$f" --backend serial --labels "$out/$n.labels.npy"
  done
  # Spanning forests, updates (files named relative to $out) and convert.
  g="$data/graphs/lagraph_karate.mtx"
  printf 'i 1 2\nq 1 2\nc 3\ni 5 30\nq 5 30\n' >"$out/updates.txt"
  (cd "$out" && record forest "$bin" graph "$g" --backend serial --forest forest.txt --verify --labels forest.labels.npy)
  (cd "$out" && record updates "$bin" graph "$g" --updates updates.txt --answers answers.txt)
  status "$out/convert" "$bin" convert "$g" "$out/karate.egr"
  # Out of core, chunks and their merge.
  v="$data/volumes/neuroparc_AAL_1mm.nii.gz"
  record ooc "$bin" volume "$v" --max-memory 2M -o "$out/ooc.nii.gz"
  record ooc.binary6 "$bin" volume "$v" --max-memory 2M --binary -c 6 -o "$out/ooc.npy"
  mkdir -p "$out/chunks"
  for i in 0 1 2; do
    record "chunk$i" "$bin" volume "$v" --chunk "$i/3" -o "$out/chunks"
  done
  record merge "$bin" merge "$v" "$out/chunks" -o "$out/merged.nii.gz"
  # A batch (outputs named relative to $out, the summary without its
  # seconds column).
  (cd "$out" && status "$out/batch" "$bin" batch "$data/images" "$data/volumes/pyradiomics_brain1_label.nrrd" \
    "$data/volumes/nibabel_example4d.nii.gz" -o batch --summary batch.csv --labels .npy --preview .png --stats .json)
  sed -i -E 's/,[^,]*$//' "$out/batch.csv"
}

# status NAME CMD...: runs a command without a JSON summary, keeping its
# exit status.
status() {
  local name=$1
  shift
  local code=0
  "$@" >/dev/null 2>&1 || code=$?
  echo "$code" >"$name.status"
}

(cd "$work" && run_all "$before" "$work/before")
(cd "$work" && run_all "$after" "$work/after")
files=$(find "$work/before" -type f | wc -l)
if diff -r "$work/before" "$work/after" >"$work/diff.txt"; then
  echo "compare-outputs: $files files identical ($(find "$work/before" -type f ! -name '*.status' ! -name '*.json' | wc -l) outputs, the rest exit statuses and JSON summaries)"
else
  diff -rq "$work/before" "$work/after" | sed "s|$work/||g" || true
  sed -n 1,40p "$work/diff.txt"
  echo "compare-outputs: $(diff -rq "$work/before" "$work/after" | wc -l) of $files files differ" >&2
  exit 1
fi
