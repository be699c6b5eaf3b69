// On a GPU: the shipped examples run with tp-run --device=cuda, f32 against
// the float64 NumPy reference and cuda:fp16 / cuda:bf16 against the GPU's
// f32 run, with the tolerances of the CPU checks (Inputs/check_examples.py).
// REQUIRES: cuda-device
// RUN: %python %S/../CPU/Inputs/check_examples.py --device cuda --tp-run tp-run --examples %tp_src_root/examples --tmp %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS mlp cuda f32 vs reference result #0
// CHECK: PASS mlp cuda:fp16 vs f32 run result #1
// CHECK: PASS mlp cuda:bf16 vs f32 run result #1
// CHECK: PASS encoder_block cuda f32 vs reference result #0
// CHECK: PASS encoder_block cuda:fp16 vs f32 run result #0
// CHECK: examples agree
