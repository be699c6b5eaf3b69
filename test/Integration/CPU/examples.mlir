// The shipped examples end to end on the CPU: f32 (oneDNN and linalg
// paths) against a float64 NumPy reference, and --autocast=cpu:bf16 against
// the f32 run, with the tolerances of docs/CodegenCPU.md; and the
// --autocast=cuda:fp16 program in the GPU mapping (gpu-mapping=1) against
// the f32 run.
// RUN: %python %S/Inputs/check_examples.py --tp-run tp-run --examples %tp_src_root/examples --tmp %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS mlp f32 vs reference result #0
// CHECK: PASS mlp f32 vs reference result #1
// CHECK: PASS mlp autocast cpu:bf16 vs f32 run result #1
// CHECK: PASS mlp cuda:fp16 gpu-mapping vs f32 run result #1
// CHECK: PASS encoder_block f32 vs reference result #0
// CHECK: PASS encoder_block autocast cpu:bf16 vs f32 run result #0
// CHECK: PASS encoder_block cuda:fp16 gpu-mapping vs f32 run result #0
// CHECK: examples agree
