// tp-train's compile cache (on by default; --cache-dir, --no-cache): the
// second run takes the train step's code from the cache and prints the same
// losses bit for bit; with --no-cache nothing is kept; a malformed size
// bound is an error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/env TP_COMPILE_TIMING=1 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --optimizer=sgd --lr=0.1 --steps=20 --print-every=10 --num-threads=1 --autocast=cpu:bf16 --cache-dir=%t/c > %t/cold.txt 2> %t/cold.err
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/env TP_COMPILE_TIMING=1 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --optimizer=sgd --lr=0.1 --steps=20 --print-every=10 --num-threads=1 --autocast=cpu:bf16 --cache-dir=%t/c > %t/warm.txt 2> %t/warm.err
// RUN: FileCheck %s --check-prefix=COLD < %t/cold.err
// RUN: FileCheck %s --check-prefix=WARM < %t/warm.err
// RUN: grep "^step" %t/cold.txt > %t/cold.loss
// RUN: grep "^step" %t/warm.txt > %t/warm.loss
// RUN: diff %t/cold.loss %t/warm.loss
// RUN: FileCheck %s --check-prefix=LOSS < %t/warm.loss
// RUN: not ls %t/env
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/off tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --optimizer=sgd --lr=0.1 --steps=10 --print-every=10 --num-threads=1 --no-cache > %t/off.txt
// RUN: not ls %t/off
// RUN: env TENSORPLAY_MLIR_CACHE_MAX_MB=-3 not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --steps=1 2>&1 | FileCheck %s --check-prefix=BADSIZE

// COLD: functions from the compile cache: 0{{$}}
// WARM: (lowered before: skipped)
// WARM: functions from the compile cache: 1 (lowered before: skipped)
// LOSS: step 10 loss
// LOSS: step 20 loss
// BADSIZE: TENSORPLAY_MLIR_CACHE_MAX_MB must be a number of megabytes, got '-3'
