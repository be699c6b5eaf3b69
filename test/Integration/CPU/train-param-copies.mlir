// param-copies (tp-train's default) keeps the bf16/f16 weights as state that
// the optimizer writes, and the optimizers read the bf16/f16 gradients
// without an up-cast: the same bits as casting in every step. The saved
// parameters and optimizer state of runs with and without copies are
// compared bit for bit: cpu:bf16 with SGD, cpu:fp16 with the GradScaler and
// a skipped step, and the CNN with AdamW; the losses printed agree too.
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: rm -rf %t.bf16.on %t.bf16.off %t.fp16.on %t.fp16.off %t.adamw.on %t.adamw.off
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:bf16 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=30 --print-every=10 --save=%t.bf16.on > %t.bf16.on.txt
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:bf16 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=30 --print-every=10 --save=%t.bf16.off --param-copies=false > %t.bf16.off.txt
// RUN: %python %S/Inputs/compare-states.py identical %t.bf16.on %t.bf16.off | FileCheck %s --check-prefix=SGD
// RUN: grep "^step" %t.bf16.on.txt > %t.bf16.on.loss && grep "^step" %t.bf16.off.txt | diff - %t.bf16.on.loss
// RUN: FileCheck %s --check-prefix=LOSS < %t.bf16.on.loss
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=20 --inject-nonfinite=13 --save=%t.fp16.on | FileCheck %s --check-prefix=SKIP
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=20 --inject-nonfinite=13 --save=%t.fp16.off --param-copies=false | FileCheck %s --check-prefix=SKIP
// RUN: %python %S/Inputs/compare-states.py identical %t.fp16.on %t.fp16.off | FileCheck %s --check-prefix=SCALER
// RUN: tp-train %tp_src_root/examples/digits_cnn.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:bf16 --optimizer=adamw --lr=1e-3 --steps=6 --num-threads=2 --save=%t.adamw.on
// RUN: tp-train %tp_src_root/examples/digits_cnn.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:bf16 --optimizer=adamw --lr=1e-3 --steps=6 --num-threads=2 --save=%t.adamw.off --param-copies=false
// RUN: %python %S/Inputs/compare-states.py identical %t.adamw.on %t.adamw.off | FileCheck %s --check-prefix=ADAMW

// Parameters, momentum buffers and step counters of 6 parameters.
// SGD: identical: 18 files checked
// LOSS: step    10  loss
// LOSS: step    30  loss
// SKIP: step    13  injected an inf into the batch; found_inf: step skipped
// SKIP: step    20  loss {{[0-9.]+}}  scale {{[0-9]+}}  skipped 1
// SCALER: identical: 20 files checked
// ADAMW: identical: {{[0-9]+}} files checked
