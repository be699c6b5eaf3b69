// tp-autodiff's rules of the sampling ops (grid sampling, ctc_loss).
// It differentiates grid_sample (bilinear, nearest, bicubic) in its
// decomposed form (DecomposeGridSample.cpp): the forward function keeps the
// op, the gradient function reads the input with one tp.gather per corner
// at the flattened, clamped positions, and gather's rule scatter-adds the
// gradient into the input; the grid's gradient comes back through the
// unnormalization and the padding's clamp.
// RUN: tp-opt %s --tp-autodiff --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @sample_loss(
// CHECK: tp.grid_sample %arg0, %arg1 {padding_mode = "border"}
// CHECK-LABEL: func.func @sample_loss_grad(
// CHECK-NOT: tp.grid_sample
// CHECK: %[[C:.*]] = tp.clamp %{{.*}} {max = 3.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
// CHECK: tp.clamp %{{.*}} {max = 4.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<1x1x6xf32>) -> tensor<1x1x6xf32>
// CHECK: %[[X:.*]] = tp.reshape %arg0 {shape = array<i64: 1, 2, 20>}
// CHECK-COUNT-4: tp.gather %[[X]], %{{.*}} {dim = 2 : i64} : (tensor<1x2x20xf32>, tensor<1x2x6xi64>) -> tensor<1x2x6xf32>
// CHECK-COUNT-4: tp.scatter_add %{{.*}}, %{{.*}}, %{{.*}} {dim = 2 : i64} : (tensor<1x2x20xf32>, tensor<1x2x6xi64>, tensor<1x2x6xf32>) -> tensor<1x2x20xf32>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<1x2x4x5xf32>, tensor<1x3x2x2xf32>
func.func @sample_loss(%x: tensor<1x2x4x5xf32>, %g: tensor<1x3x2x2xf32>) -> tensor<f32> {
  %s = tp.grid_sample %x, %g {padding_mode = "border"} : (tensor<1x2x4x5xf32>, tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
  %l = tp.sum %s : (tensor<1x2x3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Nearest: one gather at the rounded positions; no scatter reaches the
// grid (its gradient is zero).
// CHECK-LABEL: func.func @nearest_loss_grad(
// CHECK-COUNT-1: tp.gather
// CHECK-NOT: tp.gather
// CHECK: tp.scatter_add
// CHECK-NOT: tp.scatter_add
// CHECK: return
func.func @nearest_loss(%x: tensor<1x2x4x5xf32>, %g: tensor<1x3x2x2xf32>) -> tensor<f32> {
  %s = tp.grid_sample %x, %g {mode = "nearest", padding_mode = "reflection", align_corners = true} : (tensor<1x2x4x5xf32>, tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
  %l = tp.sum %s : (tensor<1x2x3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Bicubic: sixteen taps, each a gather at its flattened position (moved by
// the reflection) whose rule scatter-adds into the input; the cubic
// coefficients of the fractions carry the grid's gradient.
// CHECK-LABEL: func.func @bicubic_loss_grad(
// CHECK-NOT: tp.grid_sample
// CHECK: %[[X:.*]] = tp.reshape %arg0 {shape = array<i64: 1, 2, 20>}
// CHECK-COUNT-16: tp.gather %[[X]], %{{.*}} {dim = 2 : i64} : (tensor<1x2x20xf32>, tensor<1x2x6xi64>) -> tensor<1x2x6xf32>
// CHECK-NOT: tp.gather
// CHECK-COUNT-16: tp.scatter_add %{{.*}}, %{{.*}}, %{{.*}} {dim = 2 : i64} : (tensor<1x2x20xf32>, tensor<1x2x6xi64>, tensor<1x2x6xf32>) -> tensor<1x2x20xf32>
// CHECK-NOT: tp.scatter_add
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<1x2x4x5xf32>, tensor<1x3x2x2xf32>
func.func @bicubic_loss(%x: tensor<1x2x4x5xf32>, %g: tensor<1x3x2x2xf32>) -> tensor<f32> {
  %s = tp.grid_sample %x, %g {mode = "bicubic", padding_mode = "reflection"} : (tensor<1x2x4x5xf32>, tensor<1x3x2x2xf32>) -> tensor<1x2x3x2xf32>
  %l = tp.sum %s : (tensor<1x2x3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// ctc_loss: tp.ctc_loss_backward of each sample's gradient, for mean the
// loss's gradient over N max(target_length, 1).
// CHECK-LABEL: func.func @ctc_grad(
// CHECK: %[[TL:.*]] = tp.cast %arg3 : tensor<2xi64> to tensor<2xf32>
// CHECK: %[[LEN:.*]] = tp.maximum %[[TL]], %{{.*}} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK: %[[PER:.*]] = tp.div %{{.*}}, %[[LEN]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[G:.*]] = tp.ctc_loss_backward %[[PER]], %arg0, %arg1, %arg2, %arg3 {blank = 3 : i64, zero_infinity = true} : (tensor<2xf32>, tensor<6x2x4xf32>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<6x2x4xf32>
// CHECK: return %{{.*}}, %[[G]]
func.func @ctc(%lp: tensor<6x2x4xf32>, %t: tensor<2x3xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<f32> {
  %l = tp.ctc_loss %lp, %t, %il, %tl {blank = 3 : i64, zero_infinity = true} : (tensor<6x2x4xf32>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}
