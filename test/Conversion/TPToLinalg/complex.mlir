// polar and view_as_complex become linalg.generic ops building complex
// numbers (complex.create), polar's operands broadcast; view_as_complex
// reads the two halves of its trailing dimension, view_as_real writes
// them. add, sub, mul, div and neg with a complex result are complex
// dialect ops (a real operand promoted with a zero imaginary part, alpha
// scaling both parts); a complex sum sums the real pairs.
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

// -----

// CHECK-LABEL: func.func @view_as_real(
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<3xcomplex<f64>>) outs(%{{.*}} : tensor<3x2xf64>)
// CHECK: %[[PART:.*]] = linalg.index 1 : index
// CHECK: %[[ISRE:.*]] = arith.cmpi eq, %[[PART]], %{{.*}} : index
// CHECK-DAG: %[[RE:.*]] = complex.re
// CHECK-DAG: %[[IM:.*]] = complex.im
// CHECK: %[[V:.*]] = arith.select %[[ISRE]], %[[RE]], %[[IM]] : f64
// CHECK: linalg.yield %[[V]]
func.func @view_as_real(%z: tensor<3xcomplex<f64>>) -> tensor<3x2xf64> {
  %r = tp.view_as_real %z : (tensor<3xcomplex<f64>>) -> tensor<3x2xf64>
  return %r : tensor<3x2xf64>
}

// -----

// CHECK-LABEL: func.func @arithmetic(
// CHECK: ^bb0(%[[Z:.*]]: complex<f32>, %[[X:.*]]: f32, %{{.*}}: complex<f32>):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[XC:.*]] = complex.create %[[X]], %[[ZERO]] : complex<f32>
// CHECK: complex.mul %[[Z]], %[[XC]] : complex<f32>
// CHECK: ^bb0(%[[M:.*]]: complex<f32>, %[[W:.*]]: complex<f32>, %{{.*}}: complex<f32>):
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[WRE:.*]] = complex.re %[[W]]
// CHECK: %[[SRE:.*]] = arith.mulf %[[WRE]], %[[TWO]] : f32
// CHECK: %[[WIM:.*]] = complex.im %[[W]]
// CHECK: %[[SIM:.*]] = arith.mulf %[[WIM]], %[[TWO]] : f32
// CHECK: %[[S:.*]] = complex.create %[[SRE]], %[[SIM]]
// CHECK: complex.sub %[[M]], %[[S]] : complex<f32>
// CHECK: complex.div
// CHECK: complex.neg
func.func @arithmetic(%z: tensor<3xcomplex<f32>>, %x: tensor<3xf32>) -> tensor<3xcomplex<f32>> {
  %m = tp.mul %z, %x : (tensor<3xcomplex<f32>>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  %s = tp.sub %m, %z {alpha = 2.0 : f64} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %d = tp.div %s, %z : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %n = tp.neg %d : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  return %n : tensor<3xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @sum(
// CHECK: %[[PAIRS:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x3xcomplex<f32>>) outs(%{{.*}} : tensor<2x3x2xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction", "parallel"]} ins(%[[PAIRS]] : tensor<2x3x2xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.addf
// CHECK: complex.create
// CHECK: return {{.*}} : tensor<complex<f32>>
func.func @sum(%z: tensor<2x3xcomplex<f32>>) -> tensor<complex<f32>> {
  %s = tp.sum %z : (tensor<2x3xcomplex<f32>>) -> tensor<complex<f32>>
  return %s : tensor<complex<f32>>
}

// -----

// The functions of complex tensors: complex dialect ops in elementwise
// generics, abs to the real magnitude, sigmoid as 1 / (1 + exp(-z)); a
// complex mean is the mean of the real pairs.
// CHECK-LABEL: func.func @functions(
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<3xcomplex<f32>>) outs(%{{.*}} : tensor<3xf32>)
// CHECK: complex.abs %{{.*}} : complex<f32>
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<3xcomplex<f32>>) outs(%{{.*}} : tensor<3xcomplex<f32>>)
// CHECK: %[[N:.*]] = complex.neg
// CHECK: %[[E:.*]] = complex.exp %[[N]]
// CHECK: %[[D:.*]] = complex.add %{{.*}}, %[[E]]
// CHECK: complex.div %{{.*}}, %[[D]]
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<3x2xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.divf
// CHECK: complex.create
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<3xcomplex<f32>>) outs(%{{.*}} : tensor<3xcomplex<f32>>)
// CHECK: complex.tanh
func.func @functions(%z: tensor<3xcomplex<f32>>) -> (tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<complex<f32>>, tensor<3xcomplex<f32>>) {
  %a = tp.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %s = tp.sigmoid %z : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  %m = tp.mean %z : (tensor<3xcomplex<f32>>) -> tensor<complex<f32>>
  %t = tp.tanh %z : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  return %a, %s, %m, %t : tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<complex<f32>>, tensor<3xcomplex<f32>>
}
