// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// bf16 elementwise math runs in f32 inside one generic: extf, the f32 body,
// one truncf.
// CHECK-LABEL: func.func @gelu_bf16
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%{{.*}} : tensor<4x8xbf16>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: math.erfc %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: linalg.generic
func.func @gelu_bf16(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %r = tp.gelu %x : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// Broadcasting is an indexing map; promotion widens the bf16 operand.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_promote
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK: ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[W:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK: arith.addf %[[W]], %[[B]] : f32
func.func @add_promote(%a: tensor<4x8xbf16>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = tp.add %a, %b : (tensor<4x8xbf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A size-1 dimension that broadcasts is collapsed away.
// CHECK-LABEL: func.func @mul_unit_dim
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK: linalg.generic
func.func @mul_unit_dim(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %r = tp.mul %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// tp.cast is arith.truncf / extf in a generic (fused later with neighbours).
// CHECK-LABEL: func.func @cast
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: func.func @cast_to_int
// CHECK: arith.fptosi %{{.*}} : f32 to i32
func.func @cast(%a: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  %r = tp.cast %a : tensor<4x8xf32> to tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
func.func @cast_to_int(%a: tensor<4xf32>) -> tensor<4xi32> {
  %r = tp.cast %a : tensor<4xf32> to tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @where
// CHECK: linalg.generic
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @where(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32> {
  %r = tp.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Dropout in eval mode is the identity; in training a counter-based hash
// of the element index decides.
// CHECK-LABEL: func.func @dropout
// CHECK-NOT: linalg.generic
// CHECK: return %arg0
// CHECK-LABEL: func.func @dropout_train
// CHECK: linalg.index 0
// CHECK: arith.muli
// CHECK: arith.cmpi uge
// CHECK: arith.select
func.func @dropout(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tp.dropout %x {p = 0.5 : f64, train = false} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @dropout_train(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tp.dropout %x {p = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// The stream hashed with the element index (seed 0 here): a dropout's
// position among the function's dropouts, or its explicit `stream` (the
// second op draws the first one's mask; the third, position 2, its own:
// 2 * 0x9e3779b97f4a7c15 mod 2^64).
// CHECK-LABEL: func.func @dropout_stream
// CHECK: linalg.generic
// CHECK: %[[S0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: arith.addi %{{.*}}, %[[S0]] : i64
// CHECK: linalg.generic
// CHECK: %[[S1:.*]] = arith.constant 0 : i64
// CHECK-NEXT: arith.addi %{{.*}}, %[[S1]] : i64
// CHECK: linalg.generic
// CHECK: %[[S2:.*]] = arith.constant 4354685564936845354 : i64
// CHECK-NEXT: arith.addi %{{.*}}, %[[S2]] : i64
func.func @dropout_stream(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = tp.dropout %x {p = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %b = tp.dropout %x {p = 0.5 : f64, stream = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %c = tp.dropout %x {p = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK: arith.constant dense<{{\[}}1.000000e+00, 2.000000e+00]> : tensor<2xf32>
func.func @constant() -> tensor<2xf32> {
  %c = tp.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
