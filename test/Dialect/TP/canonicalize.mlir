// Folding of tp.cast.
// RUN: tp-opt %s --canonicalize | FileCheck %s

// A cast to the operand's own type folds away.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT: return %arg0
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.cast %x : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// f16 -> f32 -> f16 is exact: the round trip folds to the input.
// CHECK-LABEL: func.func @round_trip
// CHECK-NEXT: return %arg0
func.func @round_trip(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tp.cast %x : tensor<4xf16> to tensor<4xf32>
  %1 = tp.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// f32 -> f16 -> f32 loses precision: it stays.
// CHECK-LABEL: func.func @lossy_round_trip
// CHECK-NEXT: %[[H:.*]] = tp.cast %arg0 : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: %[[F:.*]] = tp.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: return %[[F]]
func.func @lossy_round_trip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tp.cast %x : tensor<4xf32> to tensor<4xf16>
  %1 = tp.cast %0 : tensor<4xf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// bf16 -> f32 -> f16 becomes one cast bf16 -> f16.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[C:.*]] = tp.cast %arg0 : tensor<4xbf16> to tensor<4xf16>
// CHECK-NEXT: return %[[C]]
func.func @chain(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = tp.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = tp.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1 : tensor<4xf16>
}

// An exact up-cast of a gradient folds into the optimizer and the inf/NaN
// check, which read the bf16 / f16 gradient themselves.
// CHECK-LABEL: func.func @gradient_upcasts
// CHECK-SAME: %[[GW:[a-z0-9]+]]: tensor<4xbf16>, %[[GB:[a-z0-9]+]]: tensor<4xf16>, %[[GF:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NOT: tp.cast
// CHECK: %[[F:.*]] = tp.amp_check_finite %[[GW]], %[[GB]], %[[GF]] : tensor<4xbf16>, tensor<4xf16>, tensor<4xf32>
// CHECK: tp.fused_sgd %{{.*}}, %[[GW]] step
// CHECK: tp.fused_adamw %{{.*}}, %[[GB]], %{{.*}}, %{{.*}} step
func.func @gradient_upcasts(%gw: tensor<4xbf16>, %gb: tensor<4xf16>, %gf: tensor<4xf32>, %p: tensor<4xf32>, %n: tensor<i64>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %w = tp.cast %gw : tensor<4xbf16> to tensor<4xf32>
  %b = tp.cast %gb : tensor<4xf16> to tensor<4xf32>
  %f = tp.amp_check_finite %w, %b, %gf : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  %p1, %n1 = tp.fused_sgd %p, %w step(%n) grad_scale(%s) found_inf(%f) {lr = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<i64>)
  %p2, %m, %v, %n2 = tp.fused_adamw %p, %b, %p, %p step(%n) {lr = 0.001 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i64>)
  return %p1, %p2 : tensor<4xf32>, tensor<4xf32>
}

// Not folded: a narrowing cast (it rounds), and an up-cast for a bf16
// parameter (whose gradient must have its type).
// CHECK-LABEL: func.func @gradient_casts_kept
// CHECK: %[[D:.*]] = tp.cast %{{.*}} : tensor<4xf64> to tensor<4xf32>
// CHECK: tp.amp_check_finite %[[D]]
// CHECK: tp.fused_sgd %{{.*}}, %[[D]] step
// CHECK: %[[U:.*]] = tp.cast %{{.*}} : tensor<4xf16> to tensor<4xbf16>
// CHECK: tp.fused_sgd %{{.*}}, %[[U]] step
func.func @gradient_casts_kept(%g: tensor<4xf64>, %h: tensor<4xf16>, %p: tensor<4xf32>, %q: tensor<4xbf16>, %n: tensor<i64>) -> (tensor<f32>, tensor<4xf32>, tensor<4xbf16>) {
  %d = tp.cast %g : tensor<4xf64> to tensor<4xf32>
  %f = tp.amp_check_finite %d : tensor<4xf32> -> tensor<f32>
  %p1, %n1 = tp.fused_sgd %p, %d step(%n) {lr = 0.1 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<i64>) -> (tensor<4xf32>, tensor<i64>)
  %u = tp.cast %h : tensor<4xf16> to tensor<4xbf16>
  %q1, %n2 = tp.fused_sgd %q, %u step(%n) {lr = 0.1 : f64} : (tensor<4xbf16>, tensor<4xbf16>, tensor<i64>) -> (tensor<4xbf16>, tensor<i64>)
  return %f, %p1, %q1 : tensor<f32>, tensor<4xf32>, tensor<4xbf16>
}
