#!/usr/bin/env bash
# The GPU checks, for a machine with a CUDA GPU (nothing here runs in CI):
#   1. builds what is missing (tools/scripts/setup.sh: packages, configure,
#      ninja on every core);
#   2. runs every GPU test: the CUDA GradScaler and GPU codegen gtests, the lit
#      suites test/Integration/GPU (examples and op families on the GPU
#      against NumPy and the CPU, the digits train step converging in f32,
#      cuda:fp16 + GradScaler and cuda:bf16) and test/Codegen/GPU;
#   3. runs tp-gpu-bench (GEMM TFLOP/s against cuBLASLt, the examples and
#      the MLP train step f32 vs cuda:fp16 vs cuda:bf16, unscale + check
#      GB/s against a device-to-device copy);
# and prints one table. Exits 1 when a test fails or there is no GPU.
# Meant to finish within 8 minutes on an H200 from a fresh checkout, the
# build being the longest part. Logs: $BUILD/gpu-check/.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
LOGS="$BUILD/gpu-check"
START=$(date +%s)

if ! nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "gpu-check: no CUDA GPU here (nvidia-smi lists none); nothing to check"
  exit 1
fi
nvidia-smi -L

"$ROOT/tools/scripts/setup.sh" || { echo "gpu-check: the build failed"; exit 1; }
mkdir -p "$LOGS"
BUILT=$(date +%s)

declare -a ROWS
FAILED=0
# run NAME COMMAND...: runs it with its output in $LOGS/NAME.log, adds a row.
run() {
  local name="$1"; shift
  local t0=$(date +%s)
  if "$@" > "$LOGS/$name.log" 2>&1; then
    ROWS+=("| $name | pass | $(( $(date +%s) - t0 )) s |")
  else
    ROWS+=("| $name | FAIL (see $LOGS/$name.log) | $(( $(date +%s) - t0 )) s |")
    FAILED=1
  fi
}

LIT="${LLVM_LIT:-/usr/lib/llvm-22/bin/lit}"
run "CUDA and GPU gtests" ctest --test-dir "$BUILD" -R 'Cuda|Gpu' \
  --output-on-failure --no-tests=error
run "lit Codegen/GPU" "$LIT" -v "$BUILD/test/Codegen/GPU"
run "lit Integration/GPU" "$LIT" -v "$BUILD/test/Integration/GPU"
# A GPU test that was skipped (no cuda-device feature) is a failure here.
if grep -q "^UNSUPPORTED" "$LOGS/lit Integration/GPU.log" 2>/dev/null; then
  ROWS+=("| lit Integration/GPU ran on the GPU | FAIL (tests unsupported: is TENSORPLAY_ENABLE_CUDA on?) | |")
  FAILED=1
fi
run "tp-gpu-bench" "$BUILD/bench/gpu/tp-gpu-bench" --rounds 11

echo
echo "## gpu-check ($(( BUILT - START )) s setup and build, $(( $(date +%s) - BUILT )) s checks)"
echo
echo "| check | result | time |"
echo "|---|---|---:|"
printf '%s\n' "${ROWS[@]}"
echo
cat "$LOGS/tp-gpu-bench.log" 2>/dev/null
exit $FAILED
