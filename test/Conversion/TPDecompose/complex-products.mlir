// A complex matrix product becomes four real ones of the operands' parts
// (view_as_real, sliced): (Ar Br - Ai Bi) + i (Ar Bi + Ai Br), stacked as
// pairs and viewed as complex; a real product stays.
// RUN: tp-opt %s --tp-decompose-composite-ops --cse | FileCheck %s

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3x4xcomplex<f32>>, %[[B:[^:]*]]: tensor<4x5xcomplex<f32>>)
// CHECK: %[[AP:.*]] = tp.view_as_real %[[A]] : (tensor<2x3x4xcomplex<f32>>) -> tensor<2x3x4x2xf32>
// CHECK: %[[AR:.*]] = tp.reshape %{{.*}} {shape = array<i64: 2, 3, 4>}
// CHECK: %[[AI:.*]] = tp.reshape %{{.*}} {shape = array<i64: 2, 3, 4>}
// CHECK: %[[BP:.*]] = tp.view_as_real %[[B]]
// CHECK: %[[BR:.*]] = tp.reshape %{{.*}} {shape = array<i64: 4, 5>}
// CHECK: %[[BI:.*]] = tp.reshape %{{.*}} {shape = array<i64: 4, 5>}
// CHECK: %[[RR:.*]] = tp.matmul %[[AR]], %[[BR]] : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
// CHECK: %[[II:.*]] = tp.matmul %[[AI]], %[[BI]]
// CHECK: %[[RE:.*]] = tp.sub %[[RR]], %[[II]]
// CHECK: %[[RI:.*]] = tp.matmul %[[AR]], %[[BI]]
// CHECK: %[[IR:.*]] = tp.matmul %[[AI]], %[[BR]]
// CHECK: %[[IM:.*]] = tp.add %[[RI]], %[[IR]]
// CHECK: %[[S:.*]] = tp.stack [%[[RE]], %[[IM]]] {dim = 3 : i64} : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5x2xf32>
// CHECK: %[[R:.*]] = tp.view_as_complex %[[S]]
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<2x3x4xcomplex<f32>>, %b: tensor<4x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>> {
  %r = tp.matmul %a, %b : (tensor<2x3x4xcomplex<f32>>, tensor<4x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>>
  return %r : tensor<2x3x5xcomplex<f32>>
}

// CHECK-LABEL: func.func @real(
// CHECK: %[[R:.*]] = tp.mm %arg0, %arg1 : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @real(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %r = tp.mm %a, %b : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
