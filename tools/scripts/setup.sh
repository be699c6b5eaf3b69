#!/usr/bin/env bash
# Installs what is missing (Debian packages, idempotently), then configures
# and builds tensorplay-autocast in ./build. Sourced by the other scripts;
# runnable alone: tools/scripts/setup.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
LLVM_DIR=/usr/lib/llvm-22

# The Debian packages (tools/scripts/packages.sh), installed when missing.
source "$ROOT/tools/scripts/packages.sh"
tp_install_missing "${TENSORPLAY_PACKAGES[@]}"

if [ ! -f "$BUILD/build.ninja" ]; then
  echo "== configuring $BUILD"
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DMLIR_DIR="$LLVM_DIR/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_DIR/bin/lit"
fi
# The CPU integration tests run NumPy under the Python that runs lit.
tp_ensure_lit_numpy

echo "== building"
ninja -C "$BUILD" -j "$(nproc)"
