#!/usr/bin/env bash
# Every test: sets up what is missing, builds, then runs ctest (the lit suite
# and all GoogleTest binaries). GPU tests run only where a GPU exists.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$ROOT/tools/scripts/setup.sh"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)"
# The tensorplay.compile backend (python/): pytest in its own virtual
# environments.
"$ROOT/tools/scripts/run-python-tests.sh"
