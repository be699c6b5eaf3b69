// The gradients of the examples under autocast stay close to the f32 ones:
// @f_grad compiled from --autocast=X --tp-autodiff against --tp-autodiff
// alone, on the same generated inputs (tp-run --seed), gradient by
// gradient, as a norm-wise relative error (Inputs/compare-grads.py). The
// documented tolerance (docs/Autodiff.md, "Mixed-precision gradients") is
// 8e-2 for bf16 and for f16 without loss scaling; measured: mlp bf16 1.1e-2,
// f16 2.9e-2 (growing towards the first layer, where small f16 gradients
// lose bits to underflow: what the GradScaler is for), digits bf16 4.6e-2,
// f16 2.4e-2. A wrong backward gives errors near 1.
// RUN: rm -rf %t && mkdir -p %t/f32 %t/bf16 %t/fp16 %t/df32 %t/dbf16 %t/dfp16
// RUN: tp-opt %tp_src_root/examples/mlp.mlir --tp-autodiff -o %t/mlp.f32.mlir
// RUN: tp-opt %tp_src_root/examples/mlp.mlir --autocast=cpu:bf16 --tp-autodiff -o %t/mlp.bf16.mlir
// RUN: tp-opt %tp_src_root/examples/mlp.mlir --autocast=cpu:fp16 --tp-autodiff -o %t/mlp.fp16.mlir
// RUN: tp-run %t/mlp.f32.mlir --entry=mlp_loss_grad --seed=3 --init=fan-in --output-dir=%t/f32
// RUN: tp-run %t/mlp.bf16.mlir --entry=mlp_loss_grad --seed=3 --init=fan-in --output-dir=%t/bf16
// RUN: tp-run %t/mlp.fp16.mlir --entry=mlp_loss_grad --seed=3 --init=fan-in --output-dir=%t/fp16
// RUN: %python %S/Inputs/compare-grads.py mlp_loss_grad 2 8e-2 %t/f32 %t/bf16 | FileCheck %s
// RUN: %python %S/Inputs/compare-grads.py mlp_loss_grad 2 8e-2 %t/f32 %t/fp16 | FileCheck %s
// The digits MLP (ReLU).
// RUN: tp-opt %tp_src_root/examples/digits_mlp.mlir --tp-autodiff -o %t/d.f32.mlir
// RUN: tp-opt %tp_src_root/examples/digits_mlp.mlir --autocast=cpu:bf16 --tp-autodiff -o %t/d.bf16.mlir
// RUN: tp-opt %tp_src_root/examples/digits_mlp.mlir --autocast=cpu:fp16 --tp-autodiff -o %t/d.fp16.mlir
// RUN: tp-run %t/d.f32.mlir --entry=digits_loss_grad --seed=3 --init=fan-in --output-dir=%t/df32
// RUN: tp-run %t/d.bf16.mlir --entry=digits_loss_grad --seed=3 --init=fan-in --output-dir=%t/dbf16
// RUN: tp-run %t/d.fp16.mlir --entry=digits_loss_grad --seed=3 --init=fan-in --output-dir=%t/dfp16
// RUN: %python %S/Inputs/compare-grads.py digits_loss_grad 2 8e-2 %t/df32 %t/dbf16 | FileCheck %s
// RUN: %python %S/Inputs/compare-grads.py digits_loss_grad 2 8e-2 %t/df32 %t/dfp16 | FileCheck %s
// The CNN's compiled f32 backward (oneDNN: conv_transpose and the swapped
// correlation) against the same program in f64 (the linalg path), on the
// same inputs (Inputs/cnn-args.py); then its bf16 gradients against f32.
// RUN: sed 's/f32/f64/g' %tp_src_root/examples/digits_cnn.mlir > %t/cnn64.mlir
// RUN: tp-opt %t/cnn64.mlir --tp-autodiff -o %t/cnn64.grad.mlir
// RUN: tp-opt %tp_src_root/examples/digits_cnn.mlir --tp-autodiff -o %t/cnn32.grad.mlir
// RUN: tp-opt %tp_src_root/examples/digits_cnn.mlir --autocast=cpu:bf16 --tp-autodiff -o %t/cnnbf16.grad.mlir
// RUN: %python %S/Inputs/cnn-args.py %t/c32 %t/c64
// RUN: cp -r %t/c32 %t/cbf16
// RUN: tp-run %t/cnn32.grad.mlir --entry=digits_cnn_loss_grad --npy-dir=%t/c32
// RUN: tp-run %t/cnn64.grad.mlir --entry=digits_cnn_loss_grad --npy-dir=%t/c64
// RUN: tp-run %t/cnnbf16.grad.mlir --entry=digits_cnn_loss_grad --npy-dir=%t/cbf16
// RUN: %python %S/Inputs/compare-grads.py digits_cnn_loss_grad 2 1e-5 %t/c64 %t/c32 --other-dtype | FileCheck %s
// RUN: %python %S/Inputs/compare-grads.py digits_cnn_loss_grad 2 8e-2 %t/c32 %t/cbf16 | FileCheck %s

// CHECK: gradients within
