# Sourced by the scripts in tools/scripts: the Debian packages the build
# needs, a function that installs the missing ones (idempotently; sudo when
# not root), and the configure and NumPy steps the scripts share.

# The main build (setup.sh). libclang-rt-14-dev: libFuzzer for clang(-14),
# so that build's tp-fuzz is a libFuzzer binary (tp-fuzz-short in ctest).
TENSORPLAY_PACKAGES=(cmake ninja-build clang python3 python3-numpy
          python3-sklearn  # the handwritten digits tp-train learns (no download)
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          libdnnl-dev libgtest-dev
          liblapack-dev  # the linear-algebra ops' LAPACK (and BLAS) routines
          ocl-icd-opencl-dev opencl-c-headers  # oneDNN's CMake config needs OpenCL
          libopenmpi-dev openmpi-bin  # tp-train --distributed (MPI) and its 2-rank tests
          libclang-rt-14-dev)
# The sanitizer and fuzzing builds (run-sanitizers.sh, run-fuzzer.sh):
# clang 22, the compiler matching LLVM 22, and its sanitizer runtimes and
# libFuzzer.
TENSORPLAY_SANITIZER_PACKAGES=(clang-22 libclang-rt-22-dev)

tp_install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    local SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# NumPy for the Python that runs lit (the CPU integration tests use it).
tp_ensure_lit_numpy() {
  local llvm_dir=/usr/lib/llvm-22 lit_python
  lit_python="$(head -1 "$llvm_dir/bin/lit" | sed -n 's/^#! *//p')"
  if [ -n "$lit_python" ] && ! $lit_python -c "import numpy" 2>/dev/null; then
    echo "== installing numpy for $lit_python"
    $lit_python -m pip install --quiet numpy ||
      $lit_python -m pip install --quiet --break-system-packages numpy
  fi
}

# Configures an instrumented build directory with clang 22 when it has no
# build.ninja yet: tp_configure_clang22 <build dir> <sanitizer flags>
# [more cmake arguments]. -O1 -g without -DNDEBUG: the project's asserts are
# on (libLLVM/libMLIR are Debian's release builds; cmake/
# ReleaseLLVMStatistics.h gives llvm::Statistic their layout). The flags are compile
# flags only (CMake links C/C++ with them too): as linker flags they would
# reach CMake's probe of nvcc, whose host g++ then adds GCC's -lasan -lubsan
# to every CUDA-linked target.
tp_configure_clang22() {
  local build=$1 flags=$2 root llvm_dir=/usr/lib/llvm-22
  shift 2
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  [ -f "$build/build.ninja" ] && return 0
  echo "== configuring $build (clang-22, $flags)"
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_CXX_FLAGS="$flags -include $root/cmake/ReleaseLLVMStatistics.h" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DMLIR_DIR="$llvm_dir/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm_dir/bin/lit" "$@"
}
