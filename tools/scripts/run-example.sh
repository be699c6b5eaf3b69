#!/usr/bin/env bash
# The main job on the shipped examples: sets up what is missing, builds, then
# runs the autocast pass (cuda:fp16 and cpu:bf16) on examples/*.mlir,
# printing the decision report and the rewritten IR, then compiles and runs
# the MLP on the CPU in f32 and bf16 with timings, and trains the digits MLP
# and CNN (tp-train: one compiled train step per batch) in f32, cpu:bf16 and
# cpu:fp16 with the GradScaler.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$ROOT/tools/scripts/setup.sh"
BUILD="${TENSORPLAY_BUILD_DIR:-$ROOT/build}"
cd "$ROOT"
for target in cuda:fp16 cpu:bf16; do
  for example in examples/*.mlir; do
    echo "== tp-opt --autocast=$target --autocast-report=- $example"
    "$BUILD/bin/tp-opt" --autocast="$target" --autocast-report=- "$example"
  done
done
# Compile and run it on this CPU, in f32 and in bf16 mixed precision.
for autocast in "" "--autocast=cpu:bf16"; do
  echo "== tp-run examples/mlp.mlir $autocast --seed 1 --init=fan-in --repeat 10 --print"
  "$BUILD/bin/tp-run" examples/mlp.mlir $autocast --seed 1 --init=fan-in \
    --repeat 10 --print | cut -c1-150
done
# Train the digits MLP on scikit-learn's handwritten digits: forward,
# backward, GradScaler and fused SGD in one compiled step per batch.
DIGITS="$BUILD/digits-data"
/usr/bin/python3 tools/scripts/make-digits.py "$DIGITS"  # the Debian Python, with python3-sklearn
# The MLP, then the CNN (two convolutions; their backward is
# conv_transpose and the swapped correlation, through oneDNN).
for model in "digits_mlp 450 50" "digits_cnn 300 100"; do
  read -r name steps every <<<"$model"
  for precision in "" "--autocast=cpu:bf16" "--autocast=cpu:fp16 --grad-scaler"; do
    echo "== tp-train examples/$name.mlir ${precision:-(f32)} --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=$steps"
    "$BUILD/bin/tp-train" "examples/$name.mlir" $precision \
      --data="$DIGITS/x_train.npy" --data="$DIGITS/y_train.npy" \
      --test-data="$DIGITS/x_test.npy" --test-data="$DIGITS/y_test.npy" \
      --optimizer=sgd --lr=0.1 --momentum=0.9 --steps="$steps" \
      --print-every="$every"
  done
done
