#!/usr/bin/env bash
# The compiled train steps of examples/mlp.mlir and of the encoder block
# (examples/encoder_block.mlir + bench/train/encoder_loss.mlir) (tp-train:
# forward, backward, fused SGD) against PyTorch eager, eager autocast and
# inductor, in one run:
# the two programs take turns ROUNDS times, so that a change in machine load
# hits both. A benchmark, never a test (docs/benchmarks.md, "Train step").
#
#   bench/train/compare-train-step.sh [build-dir] [python-with-torch]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
PY="${2:-python3}"
ROUNDS="${ROUNDS:-2}"
STEPS="${STEPS:-20}"
DATA="$BUILD/bench-train-data"
mkdir -p "$DATA"
"$PY" - "$DATA" <<'PYEOF'
import sys, numpy as np
r = np.random.RandomState(0)
np.save(sys.argv[1] + "/x.npy", r.randn(2048, 1024).astype(np.float32))
np.save(sys.argv[1] + "/y.npy", r.randint(0, 10, 2048).astype(np.int64))
np.save(sys.argv[1] + "/ex.npy", r.randn(64, 128, 512).astype(np.float32))
np.save(sys.argv[1] + "/ey.npy", r.randn(64, 128, 512).astype(np.float32))
PYEOF
cat "$ROOT/examples/encoder_block.mlir" "$ROOT/bench/train/encoder_loss.mlir" \
  > "$DATA/encoder_train.mlir"
# One model's compiled step in f32 and cpu:bf16: name, module, two data files.
compiled() {
  for precision in "" "--autocast=cpu:bf16"; do
    echo "tp-train $1 ${precision:-f32}:"
    "$BUILD/bin/tp-train" "$2" $precision --data="$3" --data="$4" \
      --optimizer=sgd --lr=0.01 --momentum=0.9 --steps="$((STEPS + 1))" \
      --print-every=1000 --num-threads=2 | grep -E "compiled|trained"
  done
}
for ((i = 1; i <= ROUNDS; ++i)); do
  echo "### turn $i of $ROUNDS"
  compiled mlp "$ROOT/examples/mlp.mlir" "$DATA/x.npy" "$DATA/y.npy"
  "$PY" "$ROOT/bench/train/torch_train_bench.py" --steps "$STEPS" --threads 2
  compiled encoder "$DATA/encoder_train.mlir" "$DATA/ex.npy" "$DATA/ey.npy"
  "$PY" "$ROOT/bench/train/torch_train_bench.py" --model encoder \
    --steps "$STEPS" --threads 2
done
