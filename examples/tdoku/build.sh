#!/usr/bin/env bash
# Builds the tdoku adapter (examples/tdoku/adapter.c) against a checkout of
# tdoku, with tdoku's fastest solver compiled as its README compiles it:
#
#   examples/tdoku/build.sh TDOKU_DIR [OUT]   (OUT defaults to examples/tdoku/adapter)
#   batch -solvers bitboard,tdoku -ext tdoku=examples/tdoku/adapter
#
# TDOKU_DIR: git clone https://github.com/t-dillon/tdoku (its data.zip is not
# needed). The compiler is clang when installed, else gcc (CC and CXX
# override), -O3 -march=native: the program is for this machine. The
# adapter reports the checkout's git revision, or "unknown" outside git.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -f "$1/include/tdoku.h" ] || [ ! -f "$1/src/solver_dpll_triad_simd.cc" ]; then
  echo "usage: examples/tdoku/build.sh TDOKU_DIR [OUT]  (TDOKU_DIR: git clone https://github.com/t-dillon/tdoku)" >&2
  exit 2
fi
src=$(cd "$1" && pwd -P)
out=${2:-$here/adapter}
if command -v clang >/dev/null && command -v clang++ >/dev/null; then
  cc=${CC:-clang} cxx=${CXX:-clang++}
else
  cc=${CC:-gcc} cxx=${CXX:-g++}
fi
rev=unknown
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then # not a directory of another repository
  rev=$(git -C "$src" rev-parse --short=12 HEAD)
fi
if [ "$rev" != unknown ] && [ -n "$(git -C "$src" status --porcelain --untracked-files=no -- src include 2>/dev/null)" ]; then
  rev=$rev-modified
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-O3 -march=native)
"$cxx" "${flags[@]}" -std=c++14 -c "$src/src/solver_dpll_triad_simd.cc" -o "$tmp/solver.o"
"$cxx" "${flags[@]}" -std=c++14 -c "$src/src/util.cc" -o "$tmp/util.o"
"$cc" "${flags[@]}" -I "$src/include" -DTDOKU_REVISION="\"$rev\"" "$here/adapter.c" -c -o "$tmp/adapter.o"
"$cxx" "${flags[@]}" "$tmp/adapter.o" "$tmp/solver.o" "$tmp/util.o" -lm -o "$out"
echo "built $out (tdoku $rev, $("$cc" --version | head -n 1))" >&2
