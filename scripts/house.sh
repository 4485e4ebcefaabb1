#!/usr/bin/env bash
# Checks the layout rules of docs/design.md: the layering of imports, at
# most 34 library packages and two front ends (cmd/cclabel and capi), no
# package above 2,000 non-test Go lines, cmd/cclabel importing at most 5
# packages of the module (none internal/) in at most 1,200 lines, and at
# most 4 per-type `case []uint16` dispatches outside tests. Prints what it measured; exits 1 when a rule is broken.
#
#   scripts/house.sh
set -euo pipefail
cd "$(dirname "$0")/.."
module=$(go list -m)
fail=0

# layer PACKAGE prints the package's layer; a package may import only
# packages of lower layers, or of its own family (the same first two path
# elements below the module, e.g. formats/nifti -> formats).
layer() {
  case $1 in
    internal/testkit*) echo 25 ;;
    internal/*) echo 0 ;;
    imagegraph | ecl) echo 10 ;;
    imagegraph/internal/*) echo 15 ;;
    ecl/incremental* | imagegraph/gridcc* | imagegraph/measure*) echo 20 ;;
    formats*) echo 30 ;;
    cuda* | slabs* | render* | gen*) echo 30 ;;
    .) echo 40 ;;
    job*) echo 50 ;;
    bench*) echo 50 ;;
    batch*) echo 55 ;;
    cmd/* | capi) echo 60 ;;
    *) echo 99 ;;
  esac
}

# family PACKAGE prints the package's family.
family() {
  case $1 in
    imagegraph/gridcc*) echo imagegraph/gridcc ;;
    cuda*) echo cuda ;;
    formats*) echo formats ;;
    *) echo "${1%%/*}" ;;
  esac
}

rel() { local p=${1#"$module"}; p=${p#/}; echo "${p:-.}"; }

# formats may import only the model and the leaves (never an engine).
formats_ok() {
  case $1 in
    imagegraph | ecl | internal/* | formats*) return 0 ;;
  esac
  return 1
}

while read -r pkg imports; do
  p=$(rel "$pkg")
  lp=$(layer "$p")
  for imp in $imports; do
    [[ $imp == "$module" || $imp == "$module"/* ]] || continue
    q=$(rel "$imp")
    lq=$(layer "$q")
    bad=""
    if [[ $(family "$p") == "$(family "$q")" ]]; then
      :
    elif (( lq >= lp )); then
      bad="layer $lp imports layer $lq"
    fi
    if [[ $p == formats* ]] && ! formats_ok "$q"; then
      bad="formats imports an engine"
    fi
    if [[ $p == imagegraph ]]; then
      bad="imagegraph imports the module"
    fi
    if [[ -n $bad ]]; then
      echo "layering: $p imports $q ($bad)"
      fail=1
    fi
  done
done < <(go list -f '{{.ImportPath}} {{join .Imports " "}}' ./...)

count=$(go list -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' ./... | grep -c . || true)
mains=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./... | grep . | sed "s|^$module/||" | tr '\n' ' ')
echo "packages: $count library (at most 34), front ends: $mains(at most cmd/cclabel and capi)"
(( count <= 34 )) || fail=1
for m in $mains; do
  [[ $m == cmd/cclabel || $m == capi ]] || { echo "front end $m is not cmd/cclabel or capi"; fail=1; }
done

while read -r pkg dir; do
  n=$(find "$dir" -maxdepth 1 -name '*.go' ! -name '*_test.go' -print0 | xargs -0 cat | wc -l)
  if (( n > 2000 )); then
    echo "size: $(rel "$pkg") has $n non-test lines (at most 2,000)"
    fail=1
  fi
done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./...)

cmdimports=$(go list -deps=false -f '{{join .Imports "\n"}}' ./cmd/... | grep "^$module" | grep -v "^$module/cmd/" | sort -u)
n=$(echo "$cmdimports" | grep -c . || true)
echo "cmd imports $n module packages (at most 5): $(echo $cmdimports | sed "s#$module/##g; s#$module#cclabel#")"
(( n <= 5 )) || fail=1
if echo "$cmdimports" | grep -q "/internal/"; then
  echo "cmd imports an internal package"
  fail=1
fi
lines=$(find cmd -name '*.go' ! -name '*_test.go' -print0 | xargs -0 cat | wc -l)
echo "cmd non-test lines: $lines (at most 1,200)"
(( lines <= 1200 )) || fail=1

cases=$(git ls-files '*.go' | grep -v '_test\.go$' | { xargs grep -c 'case \[\]uint16' || true; } | awk -F: '{s += $2} END {print s + 0}')
echo "case []uint16 outside tests: $cases (at most 4)"
(( cases <= 4 )) || fail=1

exit $fail
