// The report lists what the pass did: casts it folded away are not casts it
// caused, the input casts they left unused are erased, and the tp ops the
// pass leaves alone (tp.constant, input tp.cast) are listed too; the casts
// the pass inserts are not rows of their own.
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=- %s | FileCheck %s

// CHECK: autocast report
// CHECK-NEXT: location op device list dtype reason casts
// CHECK-NEXT: report-casts.mlir:33:8 tp.mm cuda lower f16 lower-precision list -
// CHECK-NEXT: report-casts.mlir:34:8 tp.constant cuda unlisted f32 ineligible: no floating operand -
// CHECK-NEXT: report-casts.mlir:35:8 tp.add cuda unlisted f32 unlisted: runs in its input types -
// CHECK-NEXT: report-casts.mlir:40:8 tp.cast cuda unlisted f32 explicit cast -
// CHECK-NEXT: report-casts.mlir:41:8 tp.mm cuda lower f16 lower-precision list -
// CHECK-NEXT: report-casts.mlir:42:8 tp.mm cuda lower f16 lower-precision list #0 f32->f16, #1 f32->f16
// CHECK-NEXT: summary: 6 ops (f16: 3, f32: 3), 1 casts inserted (2 with one cast per use), 64 bytes cast

// f16 -> f32 -> f16 folds: the mm reads %x itself and the input cast, left
// without users, is gone.
// CHECK-LABEL: func.func @folded(
// CHECK-NOT: tp.cast
// CHECK: tp.mm %arg0, %arg0 : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NOT: tp.cast
// CHECK: return
// An input cast still in use stays; the f32 input of the second mm is cast.
// CHECK-LABEL: func.func @kept(
// CHECK-NEXT: %[[Y:.*]] = tp.cast %arg1 : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: %[[U:.*]] = tp.cast %arg0 : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: tp.mm %arg0, %arg0
// CHECK-NEXT: tp.mm %[[Y]], %[[Y]]
// CHECK-NEXT: return %{{.*}}, %[[U]], %{{.*}}
func.func @folded(%x: tensor<4x4xf16>) -> tensor<4x4xf32> {
  %u = tp.cast %x : tensor<4x4xf16> to tensor<4x4xf32>
  %m = tp.mm %u, %u : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tp.constant dense<1.0> : tensor<4x4xf32>
  %s = tp.add %m, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

func.func @kept(%x: tensor<4x4xf16>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %u = tp.cast %x : tensor<4x4xf16> to tensor<4x4xf32>
  %m = tp.mm %u, %u : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %n = tp.mm %y, %y : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m, %u, %n : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
