// softmax_backward / log_softmax_backward go to oneDNN only when asked
// (onednn-softmax-backward: its primitives are slower than the fused linalg
// loops on AVX2 CPUs); f16 and 0-d forms always stay for the linalg path.
// RUN: tp-opt %s --convert-tp-to-runtime=onednn-softmax-backward=1 --split-input-file | FileCheck %s
// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file | FileCheck %s --check-prefix=DEFAULT

// The normalized dim (-1 -> 2) and the kind (0 softmax, 1 log_softmax)
// travel as i64 scalars.
// CHECK-LABEL: func.func @softmax_backward_f32
// CHECK-DAG: %[[DIM:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[KIND:.*]] = arith.constant 0 : i64
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK: tp_rt.call @tp_rt_dnnl_softmax_backward_f32(%arg0, %arg1, %[[DIM]], %[[KIND]]) outs(%[[OUT]])
// CHECK-NOT: tp.softmax_backward
// DEFAULT-LABEL: func.func @softmax_backward_f32
// DEFAULT-NOT: tp_rt.call
// DEFAULT: tp.softmax_backward
func.func @softmax_backward_f32(%g: tensor<2x4x8xf32>, %y: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %r = tp.softmax_backward %g, %y {dim = -1 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %r : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax_backward_bf16
// CHECK-DAG: %[[DIM:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[KIND:.*]] = arith.constant 1 : i64
// CHECK: tp_rt.call @tp_rt_dnnl_softmax_backward_bf16(%arg0, %arg1, %[[DIM]], %[[KIND]])
func.func @log_softmax_backward_bf16(%g: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %r = tp.log_softmax_backward %g, %y {dim = 0 : i64} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @stays
// CHECK-NOT: tp_rt.call
// CHECK: tp.softmax_backward {{.*}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK: tp.log_softmax_backward {{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
func.func @stays(%g: tensor<4x8xf16>, %y: tensor<4x8xf16>, %h: tensor<f32>, %z: tensor<f32>) -> (tensor<4x8xf16>, tensor<f32>) {
  %r = tp.softmax_backward %g, %y {dim = 1 : i64} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %s = tp.log_softmax_backward %h, %z {dim = 0 : i64} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r, %s : tensor<4x8xf16>, tensor<f32>
}
