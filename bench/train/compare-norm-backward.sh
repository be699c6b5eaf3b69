#!/usr/bin/env bash
# The compiled gradients of a layer_norm, a group_norm and a softmax
# (bench/train/norm_loss.mlir; tp-autodiff: one tp.layer_norm_backward, one
# tp.group_norm_backward, one tp.softmax_backward) against their forwards
# and against PyTorch eager, f32 and bf16, in one run (ROUNDS turns): a
# benchmark, never a test (docs/benchmarks.md, "Normalization backward").
#
#   bench/train/compare-norm-backward.sh [build-dir] [python-with-torch]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
PY="${2:-}"
ROUNDS="${ROUNDS:-2}"
REPEAT="${REPEAT:-10}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cp "$ROOT/bench/train/norm_loss.mlir" "$TMP/f32.mlir"
sed 's/f32>/bf16>/g' "$ROOT/bench/train/norm_loss.mlir" > "$TMP/bf16.mlir"
for ((i = 1; i <= ROUNDS; ++i)); do
  echo "### turn $i of $ROUNDS"
  for dtype in f32 bf16; do
    for fn in "layer_norm_loss wrt=0,1,2" "group_norm_loss wrt=0,1,2" \
      "softmax_loss wrt=0"; do
      set -- $fn
      "$BUILD/bin/tp-opt" "$TMP/$dtype.mlir" --tp-autodiff="functions=$1 $2" \
        > "$TMP/grad.mlir"
      echo -n "tp $dtype $1 $2: "
      "$BUILD/bin/tp-run" "$TMP/grad.mlir" --num-threads=2 --warmup=2 \
        --repeat="$REPEAT" --entry="$1" --entry="$1_grad" |
        grep -E "^@$1(_grad)?:" | tr '\n' ' '
      echo
    done
  done
  if [ -n "$PY" ]; then
    "$PY" - "$REPEAT" <<'PYEOF'
import sys, time, torch
torch.set_num_threads(2)
n = int(sys.argv[1])
F = torch.nn.functional
for dtype in (torch.float32, torch.bfloat16):
    x = torch.randn(8, 128, 512, dtype=dtype, requires_grad=True)
    w = torch.randn(512, dtype=dtype, requires_grad=True)
    b = torch.randn(512, dtype=dtype, requires_grad=True)
    c = torch.randn(8, 128, 512, dtype=dtype)
    xg = torch.randn(8, 64, 28, 28, dtype=dtype, requires_grad=True)
    wg = torch.randn(64, dtype=dtype, requires_grad=True)
    bg = torch.randn(64, dtype=dtype, requires_grad=True)
    cg = torch.randn(8, 64, 28, 28, dtype=dtype)
    s = torch.randn(8, 8, 128, 128, dtype=dtype, requires_grad=True)
    cs = torch.randn(8, 8, 128, 128, dtype=dtype)
    steps = {"layer_norm": lambda: (F.layer_norm(x, (512,), w, b) * c).sum(),
             "group_norm": lambda: (F.group_norm(xg, 8, wg, bg) * cg).sum(),
             "softmax": lambda: (torch.softmax(s, -1) * cs).sum()}
    for name, loss in steps.items():
        for what, run in [("forward", lambda: loss()),
                          ("forward+backward", lambda: loss().backward())]:
            for _ in range(2):
                run()
            ts = []
            for _ in range(n):
                t = time.perf_counter(); run(); ts.append(time.perf_counter() - t)
            ts.sort()
            print("torch eager %s %s %s: median %.3f ms"
                  % (str(dtype)[6:], name, what, 1e3 * ts[len(ts) // 2]))
PYEOF
  fi
done
