#!/usr/bin/env bash
# Installs what is missing (Debian packages, idempotently), then configures
# and builds tensorplay-autocast in ./build. Sourced by the other scripts;
# runnable alone: tools/scripts/setup.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
LLVM_DIR=/usr/lib/llvm-22

PACKAGES=(cmake ninja-build clang python3 python3-numpy
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          libdnnl-dev libgtest-dev
          ocl-icd-opencl-dev opencl-c-headers)  # oneDNN's CMake config needs OpenCL

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD/build.ninja" ]; then
  echo "== configuring $BUILD"
  cmake -G Ninja -S "$ROOT" -B "$BUILD" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DMLIR_DIR="$LLVM_DIR/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_DIR/bin/lit"
fi
# CPU code generation tests (test/Integration/CPU) run NumPy under the
# Python that runs lit; install it there if that Python lacks it.
LIT_PYTHON="$(head -1 "$LLVM_DIR/bin/lit" | sed -n 's/^#! *//p')"
if [ -n "$LIT_PYTHON" ] && ! $LIT_PYTHON -c "import numpy" 2>/dev/null; then
  echo "== installing numpy for $LIT_PYTHON"
  $LIT_PYTHON -m pip install --quiet numpy || $LIT_PYTHON -m pip install --quiet --break-system-packages numpy
fi

echo "== building"
ninja -C "$BUILD" -j "$(nproc)"
