// RUN: tp-opt %s | tp-opt | FileCheck %s
// RUN: tp-opt %s --mlir-print-op-generic | tp-opt | FileCheck %s

// CHECK: func.func private @tp_rt_dnnl_matmul_f32_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> i32
func.func private @tp_rt_dnnl_matmul_f32_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64) -> i32

// CHECK-LABEL: func.func @linear
// CHECK: %[[R:.*]] = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%arg0, %arg1, %arg2, %{{.*}}) outs(%{{.*}}) {output_positions = array<i64: 3>, views = [array<i64>, array<i64: 1, 0>, array<i64>, array<i64>, array<i64>]} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>, i64), (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK: return %[[R]]
func.func @linear(%a: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %code = arith.constant 0 : i64
  %init = tensor.empty() : tensor<4x16xf32>
  %c = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%a, %w, %b, %code) outs(%init) {output_positions = array<i64: 3>, views = [array<i64>, array<i64: 1, 0>, array<i64>, array<i64>, array<i64>]} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>, i64), (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %c : tensor<4x16xf32>
}
