#!/usr/bin/env bash
# Builds the tdoku adapter (examples/tdoku/adapter.c), either from a checkout
# of tdoku, compiling tdoku's fastest solver as its README compiles it, or
# against a tdoku library built before (tdoku's CMake builds two, with its
# fastest solver only: libtdoku_static.a and libtdoku_shared.so):
#
#   examples/tdoku/build.sh TDOKU_DIR [OUT]
#   examples/tdoku/build.sh --lib LIBRARY --include INCLUDE_DIR [OUT]
#   batch -solvers bitboard,tdoku -ext tdoku=examples/tdoku/adapter
#
# OUT defaults to examples/tdoku/adapter. TDOKU_DIR: git clone
# https://github.com/t-dillon/tdoku (its data.zip is not needed). LIBRARY:
# a libtdoku_static.a (linked in) or libtdoku_shared.so (loaded at run time,
# so that run.json must hash it too: batch -ext-files tdoku=LIBRARY);
# INCLUDE_DIR holds tdoku.h (a checkout's include/). A library is built in a
# checkout with: mkdir build && cd build && cmake .. && make tdoku_static
# tdoku_shared. The compiler is clang when installed, else gcc (CC and CXX
# override), -O3 -march=native: the program is for this machine. The
# adapter reports the checkout's git revision (-modified when its sources
# differ from it), or, built against a library, "lib-" and the first 12 hex
# digits of the library's SHA-256.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: examples/tdoku/build.sh TDOKU_DIR [OUT]  (TDOKU_DIR: git clone https://github.com/t-dillon/tdoku)" >&2
  echo "       examples/tdoku/build.sh --lib LIBRARY --include INCLUDE_DIR [OUT]  (LIBRARY: libtdoku_static.a or libtdoku_shared.so)" >&2
  exit 2
}
lib= inc= src=
if [ "${1:-}" = --lib ]; then
  [ $# -ge 4 ] && [ $# -le 5 ] && [ "$3" = --include ] || usage
  lib=$2 inc=$4
  shift 4
  [ -f "$lib" ] || { echo "build.sh: --lib $lib: no such file" >&2; exit 2; }
  [ -f "$inc/tdoku.h" ] || { echo "build.sh: --include $inc: no tdoku.h there" >&2; exit 2; }
  lib=$(cd "$(dirname "$lib")" && pwd -P)/$(basename "$lib")
  inc=$(cd "$inc" && pwd -P)
else
  [ $# -ge 1 ] && [ $# -le 2 ] && [ -f "$1/include/tdoku.h" ] && [ -f "$1/src/solver_dpll_triad_simd.cc" ] || usage
  src=$(cd "$1" && pwd -P)
  inc=$src/include
  shift
fi
out=${1:-$here/adapter}
if command -v clang >/dev/null && command -v clang++ >/dev/null; then
  cc=${CC:-clang} cxx=${CXX:-clang++}
else
  cc=${CC:-gcc} cxx=${CXX:-g++}
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-O3 -march=native)
if [ -n "$src" ]; then
  rev=unknown
  if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then # not a directory of another repository
    rev=$(git -C "$src" rev-parse --short=12 HEAD)
  fi
  if [ "$rev" != unknown ] && [ -n "$(git -C "$src" status --porcelain --untracked-files=no -- src include 2>/dev/null)" ]; then
    rev=$rev-modified
  fi
  "$cxx" "${flags[@]}" -std=c++14 -c "$src/src/solver_dpll_triad_simd.cc" -o "$tmp/solver.o"
  "$cxx" "${flags[@]}" -std=c++14 -c "$src/src/util.cc" -o "$tmp/util.o"
  link=("$tmp/solver.o" "$tmp/util.o")
else
  rev=lib-$(sha256sum "$lib" | cut -c1-12)
  case "$lib" in
  *.so | *.so.*) link=(-L "$(dirname "$lib")" -l:"$(basename "$lib")" -Wl,-rpath,"$(dirname "$lib")") ;;
  *) link=("$lib") ;;
  esac
fi
"$cc" "${flags[@]}" -I "$inc" -DTDOKU_REVISION="\"$rev\"" "$here/adapter.c" -c -o "$tmp/adapter.o"
"$cxx" "${flags[@]}" "$tmp/adapter.o" "${link[@]}" -lm -o "$out"
echo "built $out (tdoku $rev, $("$cc" --version | head -n 1))" >&2
case "$lib" in
*.so | *.so.*) echo "the adapter loads $lib at run time: sweep it with -ext-files tdoku=$lib, so that run.json hashes the library too" >&2 ;;
esac
