// binary_cross_entropy_with_logits differentiates in f32 under cuda:fp16
// (its fp32-list decision): the sigmoid and products of its backward are
// f32 ops on its f32 input, and the gradient reaches the f16 product cast
// back to f16. binary_cross_entropy stays an error in an enabled cuda
// region, before or after tp-autodiff; without autocast it differentiates
// (PyTorch's w (x - t) / max((1 - x) x, 1e-12)).
// RUN: tp-opt %s --split-input-file --autocast=cuda:fp16 --tp-autodiff="wrt=2" --verify-diagnostics | FileCheck %s
// RUN: not tp-opt %s --split-input-file --tp-autodiff="wrt=2" --autocast=cuda:fp16 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: tp-opt %s --split-input-file --tp-autodiff="wrt=2" | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: func.func @logits_grad(
// CHECK: %[[H:.*]] = tp.mm {{.*}} : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf16>
// CHECK: %[[H32:.*]] = tp.cast %[[H]] : tensor<4x3xf16> to tensor<4x3xf32>
// CHECK: tp.binary_cross_entropy_with_logits %[[H32]], %{{.*}} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
// CHECK: %[[SIG:.*]] = tp.sigmoid %[[H32]] : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[D:.*]] = tp.sub %[[SIG]], %{{.*}} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: tp.mul %[[D]], {{.*}} -> tensor<4x3xf32>
// CHECK: %[[G16:.*]] = tp.cast %{{.*}} : tensor<4x3xf32> to tensor<4x3xf16>
// CHECK: tp.mm {{.*}}%[[G16]]{{.*}} -> tensor<8x3xf16>
// CHECK: %[[GW:.*]] = tp.cast %{{.*}} : tensor<8x3xf16> to tensor<8x3xf32>
// CHECK: return {{.*}}, %[[GW]] : tensor<f32>, tensor<8x3xf32>
func.func @logits(%x: tensor<4x8xf32>, %t: tensor<4x3xf32>, %w: tensor<8x3xf32>) -> tensor<f32> attributes {tp.device = "cuda"} {
  %h = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %l = tp.binary_cross_entropy_with_logits %h, %t : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @probabilities(%x: tensor<4x8xf32>, %t: tensor<4x3xf32>, %w: tensor<8x3xf32>) -> tensor<f32> attributes {tp.device = "cuda"} {
  %h = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %p = tp.sigmoid %h : (tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-error @+1 {{binary_cross_entropy}}
  %l = tp.binary_cross_entropy %p, %t : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// AFTER: error: {{.*}}binary_cross_entropy
// PLAIN-LABEL: func.func @probabilities_grad(
// PLAIN: %[[P:.*]] = tp.sigmoid
// PLAIN: tp.binary_cross_entropy %[[P]], %arg1
// PLAIN: %[[D:.*]] = tp.sub %[[P]], %arg1
// PLAIN: %[[ONE:.*]] = tp.constant dense<1.000000e+00> : tensor<f32>
// PLAIN: %[[Q:.*]] = tp.sub %[[ONE]], %[[P]]
// PLAIN: %[[PQ:.*]] = tp.mul %[[Q]], %[[P]]
// PLAIN: %[[EPS:.*]] = tp.constant dense<9.99{{.*}}E-13> : tensor<f32>
// PLAIN: %[[DEN:.*]] = tp.maximum %[[PQ]], %[[EPS]]
// PLAIN: tp.div %[[D]], %[[DEN]]
