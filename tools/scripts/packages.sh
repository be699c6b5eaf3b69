# Sourced by the scripts in tools/scripts: the Debian packages the build
# needs and a function that installs the missing ones (idempotently; sudo
# when not root).

# The main build (setup.sh). libclang-rt-14-dev: libFuzzer for clang(-14),
# so that build's tp-fuzz is a libFuzzer binary (tp-fuzz-short in ctest).
TENSORPLAY_PACKAGES=(cmake ninja-build clang python3 python3-numpy
          libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
          libdnnl-dev libgtest-dev
          ocl-icd-opencl-dev opencl-c-headers  # oneDNN's CMake config needs OpenCL
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
