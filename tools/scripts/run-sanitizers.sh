#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer) build of
# the whole project and its whole test suite (docs/Testing.md, "Sanitizers"):
#
#   tools/scripts/run-sanitizers.sh [ctest arguments, e.g. -R lit-suite]
#
# Installs what is missing (setup.sh's packages, clang-22 and its sanitizer
# runtimes), configures its own build directory ($TENSORPLAY_ASAN_BUILD_DIR,
# default build-asan/) with clang-22 and
#   -fsanitize=address,undefined -fno-sanitize-recover=undefined
#   -fno-omit-frame-pointer, -O1 -g and the project's asserts on,
# builds everything (libraries, tools, runtime, gtests, benchmarks) and runs
# ctest with every sanitizer report fatal (abort_on_error: a report also
# fails a `not tool ...` lit line) and written to <build>/sanitizer-logs/.
# Passes when every test passes and no report was written.
#
# What is instrumented: the project's code. libLLVM/libMLIR, oneDNN, libgomp
# and the code tp-run compiles at run time are not (reports in them need
# the instrumented code to touch the memory). Suppressions (third-party code
# only, each explained): tools/scripts/sanitizers/lsan.supp.
#
# Environment: TENSORPLAY_JOBS (build and ctest jobs, default nproc).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${TENSORPLAY_ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${TENSORPLAY_JOBS:-$(nproc)}"
LLVM_DIR=/usr/lib/llvm-22

source "$ROOT/tools/scripts/packages.sh"
tp_install_missing "${TENSORPLAY_PACKAGES[@]}" "${TENSORPLAY_SANITIZER_PACKAGES[@]}"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# tp-fuzz is the replay-only build here (the fuzzer: run-fuzzer.sh). The .cu
# files (nvcc) are not instrumented.
tp_configure_clang22 "$BUILD" "$SAN" -DTENSORPLAY_ENABLE_FUZZER=OFF
# The CPU integration tests run NumPy under the Python that runs lit.
tp_ensure_lit_numpy

echo "== building $BUILD"
build_start=$(date +%s)
ninja -C "$BUILD" -j "$JOBS"
echo "== built in $(( $(date +%s) - build_start )) s"

LOGS="$BUILD/sanitizer-logs"
rm -rf "$LOGS"
mkdir -p "$LOGS"
SUPP="$ROOT/tools/scripts/sanitizers"
# Every report aborts (a crash, which even `not` does not accept) and is
# also written to $LOGS/report.<exe>.<pid>, so none goes unseen where a
# test swallows stderr. Leaks are reported (LeakSanitizer, at exit).
# allocator_may_return_null=1: a request ASan cannot serve (the size tests
# ask for 2^62 bytes on purpose) returns null as glibc does instead of
# aborting; ASan logs a warning, which does not fail the run.
common="abort_on_error=1:symbolize=1:print_summary=1:log_exe_name=1:log_path=$LOGS/report"
export ASAN_OPTIONS="$common:detect_leaks=1:allocator_may_return_null=1:detect_stack_use_after_return=1:strict_init_order=1:check_initialization_order=1"
export UBSAN_OPTIONS="$common:print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
export ASAN_SYMBOLIZER_PATH="$LLVM_DIR/bin/llvm-symbolizer"

echo "== ctest (ASAN_OPTIONS=$ASAN_OPTIONS)"
test_start=$(date +%s)
set +e
ctest --test-dir "$BUILD" --output-on-failure -j "$JOBS" "$@"
rc=$?
set -e
echo "== ctest done in $(( $(date +%s) - test_start )) s, exit status $rc"

# Reports (errors) fail the run; warnings (allocation failures) are listed.
mapfile -t logs < <(find "$LOGS" -type f | sort)
errors=0
for r in "${logs[@]}"; do
  if grep -qE 'ERROR: |runtime error:' "$r"; then
    errors=$((errors + 1))
    echo "--- report: $r"
    grep -m1 -E 'SUMMARY|ERROR: |runtime error:' "$r"
    grep -m3 -E '#[0-9]+ .* in .*(/dialects/|/lib/|/runtime/|/tools/|/test/)' "$r" | sed 's/^/    /'
  else
    echo "--- warning only: $r: $(head -1 "$r")"
  fi
done
if ((errors)); then
  echo "== $errors sanitizer report(s) in $LOGS"
  rc=1
fi
if [ "$rc" = 0 ]; then
  echo "== sanitizers: every test passed, no report"
fi
exit "$rc"
