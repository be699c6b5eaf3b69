// The GradScaler in the compiled train step: an inf injected into the batch
// of step 21 makes found_inf 1, which skips exactly that step (parameters
// and optimizer state bit-identical to after step 20), halves the scale and
// resets the growth tracker; and a run resumed from saved state continues
// bit-identically to an uninterrupted one.
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: rm -rf %t.s20 %t.s21 %t.s40 %t.r40
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=20 --save=%t.s20 | FileCheck %s --check-prefix=S20
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=21 --inject-nonfinite=21 --save=%t.s21 | FileCheck %s --check-prefix=S21
// RUN: %python %S/Inputs/compare-states.py skipped %t.s20 %t.s21 | FileCheck %s --check-prefix=SKIPPED
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=40 --save=%t.s40
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=40 --resume=%t.s20 --save=%t.r40 | FileCheck %s --check-prefix=RESUMED
// RUN: %python %S/Inputs/compare-states.py identical %t.s40 %t.r40 | FileCheck %s --check-prefix=IDENTICAL
// Without the GradScaler an injected inf is refused up front.
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --steps=2 --inject-nonfinite=1 2>&1 | FileCheck %s --check-prefix=NOSCALER

// The tracker grows the scale every 8 steps: 1024 -> 2048 -> 4096.
// S20: step    20  loss {{[0-9.]+}}  scale 4096  skipped 0
// S21: step    21  injected an inf into the batch; found_inf: step skipped
// S21: step    21  loss {{-?(inf|nan)}}  scale 2048  skipped 1
// SKIPPED: skipped: 20 files checked
// RESUMED: step    40  loss
// RESUMED: trained 20 steps
// IDENTICAL: identical: 20 files checked
// NOSCALER: tp-train: --inject-nonfinite needs --grad-scaler
