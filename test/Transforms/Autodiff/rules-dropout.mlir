// tp-autodiff's rule of dropout in training form: the backward draws the
// forward's mask again, a tp.dropout of ones on the forward op's stream
// (its position among the function's dropouts, now explicit on the
// forward op, so both draw the same elements), times the gradient.
// RUN: tp-opt %s --tp-autodiff --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @drop_loss(
// CHECK: tp.dropout %arg0 {p = 3.000000e-01 : f64}
// CHECK-NOT: stream
// CHECK-LABEL: func.func @drop_loss_grad(
// CHECK-DAG: %[[ONES:.*]] = tp.constant dense<1.000000e+00> : tensor<4x6xf32>
// CHECK: %[[D1:.*]] = tp.dropout %arg0 {p = 3.000000e-01 : f64, stream = 0 : i64}
// CHECK: %[[D2:.*]] = tp.dropout %{{.*}} {p = 6.000000e-01 : f64, stream = 1 : i64}
// CHECK: %[[M2:.*]] = tp.dropout %[[ONES]] {p = 6.000000e-01 : f64, stream = 1 : i64}
// CHECK: tp.mul %{{.*}}, %[[M2]]
// CHECK: %[[M1:.*]] = tp.dropout %[[ONES]] {p = 3.000000e-01 : f64, stream = 0 : i64}
// CHECK: %[[G:.*]] = tp.mul %{{.*}}, %[[M1]]
// CHECK: return %{{.*}}, %[[G]]
func.func @drop_loss(%x: tensor<4x6xf32>) -> tensor<f32> {
  %d1 = tp.dropout %x {p = 0.3 : f64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %e = tp.exp %d1 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %d2 = tp.dropout %e {p = 0.6 : f64} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = tp.sum %d2 : (tensor<4x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
