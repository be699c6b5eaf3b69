// polar and view_as_complex become linalg.generic ops building complex
// numbers (complex.create), polar's operands broadcast; view_as_complex
// reads the two halves of its trailing dimension.
// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @polar(
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<3x4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<3x4xcomplex<f32>>)
// CHECK: ^bb0(%[[R:.*]]: f32, %[[T:.*]]: f32, %{{.*}}: complex<f32>):
// CHECK-DAG: %[[C:.*]] = math.cos %[[T]] : f32
// CHECK-DAG: %[[S:.*]] = math.sin %[[T]] : f32
// CHECK-DAG: %[[RE:.*]] = arith.mulf %[[R]], %[[C]] : f32
// CHECK-DAG: %[[IM:.*]] = arith.mulf %[[R]], %[[S]] : f32
// CHECK: %[[Z:.*]] = complex.create %[[RE]], %[[IM]] : complex<f32>
// CHECK: linalg.yield %[[Z]]
func.func @polar(%m: tensor<3x4xf32>, %a: tensor<4xf32>) -> tensor<3x4xcomplex<f32>> {
  %z = tp.polar %m, %a : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xcomplex<f32>>
  return %z : tensor<3x4xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @view_as_complex(
// CHECK-DAG: %[[RE:.*]] = tensor.extract_slice %arg0[0, 0] [3, 1] [1, 1] : tensor<3x2xf64> to tensor<3x1xf64>
// CHECK-DAG: %[[IM:.*]] = tensor.extract_slice %arg0[0, 1] [3, 1] [1, 1] : tensor<3x2xf64> to tensor<3x1xf64>
// CHECK: linalg.generic
// CHECK: complex.create %{{.*}}, %{{.*}} : complex<f64>
func.func @view_as_complex(%v: tensor<3x2xf64>) -> tensor<3xcomplex<f64>> {
  %c = tp.view_as_complex %v : (tensor<3x2xf64>) -> tensor<3xcomplex<f64>>
  return %c : tensor<3xcomplex<f64>>
}
