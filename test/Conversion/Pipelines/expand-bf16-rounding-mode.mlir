// RUN: tp-opt %s --tp-expand-bf16 | FileCheck %s

// tp-expand-bf16 implements round to nearest even only: a truncation with
// another rounding mode (tp never makes one) is left as it is; one that
// states to_nearest_even explicitly is rewritten.
// CHECK-LABEL: func.func @modes
// CHECK: arith.truncf %{{.*}} toward_zero : f32 to bf16
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @modes(%x: f32) -> (bf16, bf16) {
  %a = arith.truncf %x toward_zero : f32 to bf16
  %b = arith.truncf %x to_nearest_even : f32 to bf16
  return %a, %b : bf16, bf16
}
