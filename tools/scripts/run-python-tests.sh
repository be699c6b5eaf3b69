#!/usr/bin/env bash
# The Python backend's tests (python/tests): sets up what is missing, then
# runs pytest in virtual environments this script creates:
#   $BUILD/python-venv-1.0   Debian's Python 3.11 with tensorplay 1.0.0
#   $BUILD/python-venv-1.1   a Python 3.10 with tensorplay 1.1.0 (cp310
#                            only), where one exists (python3.10 on PATH or
#                            pyenv's); skipped, visibly, elsewhere
# Each gets nanobind, scikit-build-core and pytest from PyPI and
# `pip install ./python` (built against $BUILD; python/build keeps the
# extension's build between runs). Called by run-tests.sh after ctest;
# runnable alone once setup.sh has built $BUILD.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
source "$ROOT/tools/scripts/packages.sh"
tp_install_missing python3-venv python3-dev python3-sklearn
if [ ! -f "$BUILD/TensorplayBuild.cmake" ]; then
  "$ROOT/tools/scripts/setup.sh"
fi

# The digits the training test learns (scikit-learn's copy, no download).
DIGITS="$BUILD/python-tests/digits"
if [ ! -f "$DIGITS/y_test.npy" ]; then
  mkdir -p "$DIGITS"
  /usr/bin/python3 "$ROOT/tools/scripts/make-digits.py" "$DIGITS" > /dev/null
fi

run_suite() {  # run_suite <venv dir> <python> <tensorplay version>
  local venv=$1 python=$2 version=$3
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c \
      "import tensorplay, pytest, nanobind, scikit_build_core" 2>/dev/null; then
    echo "== creating $venv (tensorplay $version)"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet "tensorplay==$version" numpy pytest \
      "nanobind>=2.4" "scikit-build-core>=0.10"
  fi
  echo "== pip install ./python into $venv"
  TENSORPLAY_BUILD_DIR="$BUILD" "$venv/bin/pip" install --quiet \
    --no-build-isolation --no-deps --force-reinstall "$ROOT/python"
  echo "== pytest (tensorplay $version)"
  # From outside python/, so that the installed package is the one imported.
  (cd "$BUILD/python-tests" && TP_DIGITS_DIR="$DIGITS" "$venv/bin/python" \
    -m pytest -q -p no:cacheprovider "$ROOT/python/tests")
}

run_suite "$BUILD/python-venv-1.0" /usr/bin/python3 1.0.0

# tensorplay 1.1.0 has wheels for Python 3.10 only (Debian 12 has none).
PY310=""
for candidate in "$(command -v python3.10 || true)" \
    "$HOME"/.pyenv/versions/3.10*/bin/python3.10; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && \
      "$candidate" -c "import venv" 2>/dev/null; then
    PY310=$candidate
    break
  fi
done
if [ -n "$PY310" ]; then
  run_suite "$BUILD/python-venv-1.1" "$PY310" 1.1.0
else
  echo "== SKIPPED: the tensorplay 1.1.0 suite needs a Python 3.10 (none found)"
fi
