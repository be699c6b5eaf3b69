#!/usr/bin/env bash
# The compiled examples against PyTorch eager autocast, in one run: the two
# benchmark programs take turns (tp-cpu-bench --examples-only, then
# torch_autocast_bench.py), ROUNDS_OUTER times, so that a change in machine
# load hits both. A benchmark, never a test.
#
#   bench/cpu/compare-eager.sh [build-dir] [python-with-torch]
#
# Without a Python that imports torch, it makes .venv-bench/ in the source
# tree and installs torch there from PyPI (a large download).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
PY="${2:-}"
OUTER="${ROUNDS_OUTER:-3}"
INNER="${ROUNDS_INNER:-11}"
if [ -z "$PY" ]; then
  if python3 -c "import torch" 2>/dev/null; then
    PY=python3
  else
    PY="$ROOT/.venv-bench/bin/python"
    if ! "$PY" -c "import torch" 2>/dev/null; then
      echo "== installing torch into $ROOT/.venv-bench (PyPI)"
      python3 -m venv "$ROOT/.venv-bench"
      "$ROOT/.venv-bench/bin/pip" install --quiet torch numpy
    fi
  fi
fi
for ((i = 1; i <= OUTER; ++i)); do
  echo "### turn $i of $OUTER"
  "$BUILD/bench/cpu/tp-cpu-bench" --examples-only --rounds "$INNER"
  echo
  "$PY" "$ROOT/bench/cpu/torch_autocast_bench.py" --rounds "$INNER"
  echo
done
