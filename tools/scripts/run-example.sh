#!/usr/bin/env bash
# The main job on the shipped examples: sets up what is missing, builds, then
# runs tp-opt on examples/*.mlir.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$ROOT/tools/scripts/setup.sh"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
for example in "$ROOT"/examples/*.mlir; do
  echo "== tp-opt $(basename "$example")"
  "$BUILD/bin/tp-opt" "$example"
done
