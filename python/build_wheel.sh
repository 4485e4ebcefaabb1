#!/usr/bin/env bash
# Builds the cclabel wheel for linux x86_64 into OUTDIR (default dist/):
# setup.py bdist_wheel (go build -buildmode=c-shared ./capi inside), then
# the wheel retagged manylinux_2_X_x86_64, X the highest glibc symbol
# version libcclabel.so needs (a Go c-shared library links only libc).
# The CUDA driver is loaded at run time (purego), never linked.
#
#   python/build_wheel.sh [OUTDIR]
#
# Needs Go, a C compiler, Debian's /usr/bin/python3 (or $PYTHON) with
# setuptools and wheel, and objdump. docs/python.md has notes for other
# platforms and auditwheel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-$here/dist}" && cd "${1:-$here/dist}" && pwd)
py=${PYTHON:-/usr/bin/python3}
[[ $(uname -m) == x86_64 ]] || { echo "build_wheel.sh: builds linux x86_64 wheels only" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$here"
"$py" setup.py -q bdist_wheel --dist-dir "$tmp" >/dev/null
rm -rf build cclabel.egg-info
whl=$(ls "$tmp"/cclabel-*-py3-none-linux_x86_64.whl)

# The glibc the library needs: the highest GLIBC_x.y among its symbols.
"$py" -m wheel unpack --dest "$tmp/x" "$whl" >/dev/null
root=$(ls -d "$tmp"/x/cclabel-*)
lib="$root/cclabel/libcclabel.so"
glibc=$(objdump -T "$lib" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
minor=${glibc#2.}
tags=("manylinux_2_${minor}_x86_64")
if (( minor <= 17 )); then tags=(manylinux_2_17_x86_64 manylinux2014_x86_64); fi

# Retag: the WHEEL file's Tag lines name the wheel that wheel pack writes.
wheelfile=$(ls "$root"/cclabel-*.dist-info/WHEEL)
grep -v '^Tag:' "$wheelfile" >"$tmp/WHEEL"
for t in "${tags[@]}"; do echo "Tag: py3-none-$t" >>"$tmp/WHEEL"; done
mv "$tmp/WHEEL" "$wheelfile"
mkdir "$tmp/out"
"$py" -m wheel pack --dest-dir "$tmp/out" "$root" >/dev/null
final=$(ls "$tmp"/out/cclabel-*.whl)
mv "$final" "$out/"
echo "$out/$(basename "$final") (needs glibc $glibc; NEEDED: $(objdump -p "$lib" | awk '/NEEDED/ {print $2}' | tr '\n' ' '))"
