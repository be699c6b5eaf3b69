#!/usr/bin/env bash
# The long differential run of the CPU pipeline (docs/Testing.md,
# "Differential testing"): random valid tp programs, compiled and run by
# tp-run, every output compared with an independent NumPy evaluation
# (test/Integration/CPU/Inputs/difftest.py, the driver the lit test
# test/Integration/CPU/differential.mlir runs with a fixed seed).
#
# Usage: run-difftest.sh [--programs N | --minutes M] [--seed S] [--keep DIR]
#                        [any other difftest.py option, e.g. --modes autocast]
#   --programs N   programs to run (default 2000)
#   --minutes M    run chunks of 100 programs until M minutes have passed
#   --seed S       first seed (default: the time, printed)
#   --keep DIR     write every failing program, minimised, with its inputs
#                  and the tp-run command (default: difftest-failures/)
# Prints one line per mismatch, then "N programs, M mismatched (...)"; exit
# status 1 when anything mismatched or failed to compile or run.
#
# It does not build: it assumes the build exists (build/bin/tp-run and
# build/bin/tp-opt, or $TENSORPLAY_BUILD_DIR/bin; tools/scripts/run-tests.sh
# builds them) and a Python 3 with NumPy (/usr/bin/python3 or $PYTHON).
# The programs run one tp-run process at a time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
TP_RUN="$BUILD/bin/tp-run"
if [[ ! -x "$TP_RUN" || ! -x "$BUILD/bin/tp-opt" ]]; then
  echo "run-difftest.sh: $TP_RUN or $BUILD/bin/tp-opt is missing: build first" \
       "(tools/scripts/run-tests.sh, or cmake --build $BUILD)" >&2
  exit 2
fi
PY="${PYTHON:-}"
if [[ -z "$PY" ]]; then
  for candidate in /usr/bin/python3 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c "import numpy" >/dev/null 2>&1; then
      PY="$candidate"
      break
    fi
  done
fi
if [[ -z "$PY" ]]; then
  echo "run-difftest.sh: no Python 3 with NumPy found (set PYTHON)" >&2
  exit 2
fi

programs=2000
minutes=""
seed="$(date +%s)"
keep="difftest-failures"
rest=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --programs) programs="$2"; shift 2 ;;
    --minutes) minutes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) rest+=("$1"); shift ;;
  esac
done
if [[ -n "$minutes" ]]; then
  amount=(--minutes "$minutes")
else
  amount=(--programs "$programs")
fi
echo "run-difftest.sh: seed $seed, ${amount[*]}, failures kept in $keep/"
exec "$PY" "$ROOT/test/Integration/CPU/Inputs/difftest.py" --tp-run "$TP_RUN" \
  --seed "$seed" "${amount[@]}" --keep "$keep" --stats "${rest[@]+"${rest[@]}"}"
