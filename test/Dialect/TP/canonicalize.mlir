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
