#!/usr/bin/env bash
# The compiled gradient of one convolution layer (bench/train/conv_loss.mlir,
# tp-autodiff: one tp.convolution_backward) against its forward and against
# PyTorch eager, f32 and cpu:bf16, in one run (ROUNDS turns): a benchmark,
# never a test (docs/benchmarks.md, "Convolution backward").
#
#   bench/train/compare-conv-backward.sh [build-dir] [python-with-torch]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
PY="${2:-}"
ROUNDS="${ROUNDS:-2}"
REPEAT="${REPEAT:-10}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
for ((i = 1; i <= ROUNDS; ++i)); do
  echo "### turn $i of $ROUNDS"
  for precision in "" "cpu:bf16"; do
    for wrt in "0,1,2" "0" "1"; do
      "$BUILD/bin/tp-opt" "$ROOT/bench/train/conv_loss.mlir" \
        ${precision:+--autocast=$precision} --tp-autodiff="wrt=$wrt" \
        > "$TMP/grad.mlir"
      echo -n "tp ${precision:-f32} wrt=$wrt: "
      "$BUILD/bin/tp-run" "$TMP/grad.mlir" --num-threads=2 --warmup=2 \
        --repeat="$REPEAT" | grep -E "^@conv_loss(_grad)?:" | tr '\n' ' '
      echo
    done
  done
  if [ -n "$PY" ]; then
    "$PY" - "$REPEAT" <<'PYEOF'
import sys, time, torch
torch.set_num_threads(2)
n = int(sys.argv[1])
x = torch.randn(32, 64, 28, 28, requires_grad=True)
w = torch.randn(64, 64, 3, 3, requires_grad=True)
b = torch.randn(64, requires_grad=True)
for name, ctx in [("f32", None), ("cpu:bf16", torch.bfloat16)]:
    def step():
        with torch.autocast("cpu", dtype=ctx or torch.bfloat16, enabled=ctx is not None):
            y = torch.nn.functional.conv2d(x, w, b, padding=1).sum()
        y.backward()
    for _ in range(2):
        step()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); step(); ts.append(time.perf_counter() - t)
    ts.sort()
    print("torch eager %s forward+backward: median %.3f ms" % (name, 1e3 * ts[len(ts) // 2]))
PYEOF
  fi
done
