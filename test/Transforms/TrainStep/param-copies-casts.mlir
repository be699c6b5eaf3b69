// param-copies keys on the casts themselves, autocast or not: a parameter
// cast down to one type (here by the program's own tp.cast) gets a copy of
// that type; one cast to two types (bf16 and f16) gets none, and keeps its
// casts.
// RUN: tp-opt %s --tp-train-step="num-inputs=1 param-copies=true" | FileCheck %s

func.func @loss(%x: tensor<4x3xbf16>, %w: tensor<2x3xf32>, %v: tensor<2x3xf32>) -> tensor<f32> {
  %wb = tp.cast %w : tensor<2x3xf32> to tensor<2x3xbf16>
  %h = tp.linear %x, %wb : (tensor<4x3xbf16>, tensor<2x3xbf16>) -> tensor<4x2xbf16>
  %vb = tp.cast %v : tensor<2x3xf32> to tensor<2x3xbf16>
  %vh = tp.cast %v : tensor<2x3xf32> to tensor<2x3xf16>
  %g = tp.linear %x, %vb : (tensor<4x3xbf16>, tensor<2x3xbf16>) -> tensor<4x2xbf16>
  %s = tp.sum %h : (tensor<4x2xbf16>) -> tensor<bf16>
  %t = tp.sum %g : (tensor<4x2xbf16>) -> tensor<bf16>
  %u = tp.sum %vh : (tensor<2x3xf16>) -> tensor<f16>
  %a = tp.cast %s : tensor<bf16> to tensor<f32>
  %b = tp.cast %t : tensor<bf16> to tensor<f32>
  %c = tp.cast %u : tensor<f16> to tensor<f32>
  %ab = tp.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %l = tp.add %ab, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @loss_train_step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<2x3xf32>, %[[V:[a-z0-9]+]]: tensor<2x3xf32>, %{{[a-z0-9]+}}: tensor<i64>, %{{[a-z0-9]+}}: tensor<i64>, %[[WC:[a-z0-9]+]]: tensor<2x3xbf16>)
// CHECK-SAME: param_copies = array<i64: 0>
// CHECK-NOT: tp.cast %[[W]]
// CHECK-DAG: tp.linear %{{.*}}, %[[WC]]
// CHECK-DAG: tp.cast %[[V]] : tensor<2x3xf32> to tensor<2x3xbf16>
// CHECK-DAG: tp.cast %[[V]] : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK: tp.fused_sgd %[[W]], %{{.*}} param_copy(%[[WC]])
// CHECK: tp.fused_sgd %[[V]], %{{.*}} step
