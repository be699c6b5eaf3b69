// Casts: one per (value, dtype, region), right after the definition or at
// region entry, shared by all users; none where types match; round trips
// fold; running the pass twice changes nothing more.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s
// RUN: tp-opt --autocast=cuda:fp16 %s -o %t.once.mlir
// RUN: tp-opt --autocast=cuda:fp16 %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// The weight is cast once and shared by three users.
// CHECK-LABEL: func.func @shared_weight
// CHECK-COUNT-2: tp.cast
// CHECK-NOT: tp.cast
// CHECK: return
func.func @shared_weight(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = tp.mm %a, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = tp.mm %b, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// The cast sits right after the value's definition, not before its users.
// CHECK-LABEL: func.func @placement
// CHECK: %[[E:.*]] = tp.exp %arg0
// CHECK-NEXT: %[[C:.*]] = tp.cast %[[E]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: tp.neg %arg0
// CHECK-NEXT: tp.mm %[[C]], %[[C]]
func.func @placement(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %e = tp.exp %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %n = tp.neg %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = tp.mm %e, %e : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %n, %m : tensor<4x4xf32>, tensor<4x4xf32>
}

// No cast where the type already matches.
// CHECK-LABEL: func.func @already_f16
// CHECK-NOT: tp.cast
// CHECK: tp.mm %arg0, %arg1 : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @already_f16(%a: tensor<4x4xf16>, %b: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %m = tp.mm %a, %b : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
  return %m : tensor<4x4xf16>
}

// f16 -> f32 (for exp) -> f16 (for mm) folds to the original f16 value.
// CHECK-LABEL: func.func @round_trip
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[W:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: tp.exp %[[W]]
// CHECK-NEXT: tp.mm %[[M]], %[[M]]
func.func @round_trip(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tp.exp %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %n = tp.mm %m, %m : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %e, %n : tensor<4x4xf32>, tensor<4x4xf32>
}

// Two regions: one cast per region, each at the region's entry.
// CHECK-LABEL: func.func @per_region
// CHECK: tp.autocast "cuda"
// CHECK-NEXT: tp.cast %arg0
// CHECK: tp.autocast "cuda"
// CHECK-NEXT: tp.cast %arg0
func.func @per_region(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {tp.device = "cuda"} {
  %r = tp.autocast "cuda" -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  }
  %s = tp.autocast "cuda" -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  }
  return %r, %s : tensor<4x4xf32>, tensor<4x4xf32>
}
