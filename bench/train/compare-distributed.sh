#!/usr/bin/env bash
# Data parallel on one machine: the same global batch trained by 1 rank x 2
# threads (the module written for the global batch) and by 2 MPI ranks x 1
# thread each (tp-train --distributed, the module for half of it), for the
# digits MLP and CNN (global batch 128) and the encoder block (global batch
# 16, 3.15M parameters), in f32 with AdamW; and the distributed run again
# with --overlap (buckets of BUCKET bytes, each all-reduced on a
# communication thread while the backward goes on). They take turns ROUNDS
# times so that a change in machine load hits all; each prints its median
# step time, the distributed runs the all-reduce they do per step, timed
# alone (its share of the step), and the overlapped run how much of the
# reductions' time the step did not wait for. A benchmark, never a test
# (docs/benchmarks.md, "Data parallel").
#
#   bench/train/compare-distributed.sh [build-dir]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
ROUNDS="${ROUNDS:-3}"
STEPS="${STEPS:-200}"
DATA="$BUILD/bench-distributed-data"
mkdir -p "$DATA"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
python3 "$ROOT/tools/scripts/make-digits.py" "$DATA/digits" > /dev/null
python3 - "$DATA" <<'PYEOF'
import sys, numpy as np
r = np.random.RandomState(0)
x = r.randn(64, 128, 512).astype(np.float32)
np.save(sys.argv[1] + "/ex.npy", x)
np.save(sys.argv[1] + "/ey.npy", np.tanh(x))
PYEOF
# The module for batch B, rewritten for batch 2B: sed on the batch dimension.
double() {
  sed -e "s/tensor<$2x/tensor<$3x/g" -e "s/tensor<$2xi64>/tensor<$3xi64>/g" \
    -e "s/array<i64: $2,/array<i64: $3,/g" "$1"
}
cp "$ROOT/examples/digits_mlp.mlir" "$DATA/mlp.mlir"
cp "$ROOT/examples/digits_cnn.mlir" "$DATA/cnn.mlir"
double "$DATA/mlp.mlir" 64 128 > "$DATA/mlp.global.mlir"
double "$DATA/cnn.mlir" 64 128 > "$DATA/cnn.global.mlir"
cat "$ROOT/examples/encoder_block.mlir" "$ROOT/bench/train/encoder_loss.mlir" \
  > "$DATA/encoder.mlir"
double "$DATA/encoder.mlir" 8 16 > "$DATA/encoder.global.mlir"

# name, steps, bucket bytes for --overlap, data files...
run() {
  local name="$1" steps="$2" bucket="$3" data=("${@:4}")
  local flags=(--optimizer=adamw --lr=0.001 --steps="$steps" --print-every=100000)
  echo "$name, 1 rank x 2 threads:"
  "$BUILD/bin/tp-train" "$DATA/$name.global.mlir" "${data[@]}" "${flags[@]}" \
    --num-threads=2 | grep -E "^trained"
  echo "$name, 2 ranks x 1 thread:"
  mpirun -np 2 --bind-to core "$BUILD/bin/tp-train" "$DATA/$name.mlir" \
    "${data[@]}" "${flags[@]}" --num-threads=1 --distributed \
    | grep -E "^trained|^all-reduce"
  echo "$name, 2 ranks x 1 thread, --overlap --bucket-bytes=$bucket:"
  mpirun -np 2 --bind-to core "$BUILD/bin/tp-train" "$DATA/$name.mlir" \
    "${data[@]}" "${flags[@]}" --num-threads=1 --distributed --overlap \
    --bucket-bytes="$bucket" | grep -E "^trained|^overlap"
}
for ((i = 1; i <= ROUNDS; ++i)); do
  echo "### turn $i of $ROUNDS"
  run mlp "$STEPS" 32768 --data="$DATA/digits/x_train.npy" --data="$DATA/digits/y_train.npy"
  run cnn "$STEPS" 4096 --data="$DATA/digits/x_train.npy" --data="$DATA/digits/y_train.npy"
  run encoder "$((STEPS / 10))" 2097152 --data="$DATA/ex.npy" --data="$DATA/ey.npy"
done
