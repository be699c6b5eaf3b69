#!/usr/bin/env bash
# Issue 46, goals 1 and 3: compiled --autocast=cpu:bf16 against compiled
# f32, the shipped examples' forward (tp-cpu-bench --examples-only) and their
# train steps (tp-train: MLP and the encoder block, SGD with momentum), with
# the MLP step's product roof (bench/train/mlp_step_products.mlir: its twelve
# bf16 products alone), ROUNDS turns. A benchmark, never a test; figures in
# docs/benchmarks.md ("compiled bf16 against compiled f32").
#
#   bench/cpu/compare-bf16-f32.sh [build-dir]
#
# NO_BF16_UNITS=1 runs everything as a CPU without bf16 instructions (AVX2,
# e.g. Zen 3) would, on a CPU that has them: oneDNN limited to AVX2
# (ONEDNN_MAX_CPU_ISA), its bf16 products computed in f32 as on such CPUs
# (TP_RT_DNNL_BF16=f32), the runtime's portable kernels, and the JIT
# compiling for Zen 3 (TP_JIT_CPU=znver3).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
ROUNDS="${ROUNDS:-3}"
STEPS="${STEPS:-30}"
if [ "${NO_BF16_UNITS:-0}" = 1 ]; then
  export ONEDNN_MAX_CPU_ISA=AVX2 TP_RT_DNNL_BF16=f32 TP_RT_CPU_KERNEL=portable
  export TP_JIT_CPU=znver3
  echo "== as a CPU without bf16 units: oneDNN AVX2, bf16 products in f32, JIT for znver3"
fi
lscpu | grep -E "Model name" || true
DATA="$BUILD/bench-train-data"
mkdir -p "$DATA"
# Training data as .npy, written without NumPy (float32 / int64, C order).
python3 - "$DATA" <<'PYEOF'
import random, struct, sys
def save(path, shape, code, values):
    dims = "%d," % shape[0] if len(shape) == 1 else ", ".join(map(str, shape))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        code, dims)
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        fmt = {"<f4": "f", "<i8": "q"}[code]
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
r = random.Random(0)
def normal(n):
    return [r.gauss(0.0, 1.0) for _ in range(n)]
save(sys.argv[1] + "/x.npy", (2048, 1024), "<f4", normal(2048 * 1024))
save(sys.argv[1] + "/y.npy", (2048,), "<i8", [r.randrange(10) for _ in range(2048)])
save(sys.argv[1] + "/ex.npy", (64, 128, 512), "<f4", normal(64 * 128 * 512))
save(sys.argv[1] + "/ey.npy", (64, 128, 512), "<f4", normal(64 * 128 * 512))
PYEOF
cat "$ROOT/examples/encoder_block.mlir" "$ROOT/bench/train/encoder_loss.mlir" \
  > "$DATA/encoder_train.mlir"
step() { # name module data1 data2 precision
  "$BUILD/bin/tp-train" "$2" $5 --data="$3" --data="$4" --optimizer=sgd \
    --lr=0.01 --momentum=0.9 --steps="$((STEPS + 1))" --print-every=100000 \
    --num-threads=2 | grep -E "trained" | sed "s/^/$1 ${5:-f32}: /"
}
for ((i = 1; i <= ROUNDS; ++i)); do
  echo "### turn $i of $ROUNDS"
  "$BUILD/bench/cpu/tp-cpu-bench" --examples-only --rounds 11 | tail -3
  # The roof of goal 3: the MLP step's twelve bf16 products alone.
  "$BUILD/bin/tp-run" "$ROOT/bench/train/mlp_step_products.mlir" \
    --num-threads=2 --repeat=20 --warmup=3 | grep median |
    sed "s/^/mlp step product roof (bf16): /"
  for precision in "" "--autocast=cpu:bf16"; do
    step "mlp step" "$ROOT/examples/mlp.mlir" "$DATA/x.npy" "$DATA/y.npy" \
      "$precision"
    step "encoder step" "$DATA/encoder_train.mlir" "$DATA/ex.npy" \
      "$DATA/ey.npy" "$precision"
  done
done
