// The linear-algebra ops tensorplay builds on another factorization, as it
// builds them: pinverse from the reduced SVD (the cut-off rcond * S_max in
// f64), linalg_cond(p = 1) from the 1-norms of A and of its inverse (inf
// where linalg_inv_ex reports a singular matrix), linalg_matrix_rank from
// the singular values above eps * max(m, n) * S_max, tensorinv as the
// inverse of A reshaped square.
// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @pinverse
// CHECK-DAG: %[[ZERO:.*]] = tp.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[RCOND:.*]] = tp.constant dense<1.000000e-02> : tensor<f64>
// CHECK: %[[U:.*]], %[[S:.*]], %[[VH:.*]] = tp.linalg_svd %arg0 {full_matrices = false}
// CHECK: %[[MAX:.*]] = tp.slice %[[S]] {end = 1 : i64, start = 0 : i64}
// CHECK: %[[MAX64:.*]] = tp.cast %[[MAX]] : tensor<1xf32> to tensor<1xf64>
// CHECK: %[[TOL:.*]] = tp.mul %[[MAX64]], %[[RCOND]]
// CHECK: %[[KEEP:.*]] = tp.gt %[[S]], %[[TOL]] : (tensor<3xf32>, tensor<1xf64>) -> tensor<3xi1>
// CHECK: %[[INV:.*]] = tp.reciprocal %[[S]]
// CHECK: %[[SP:.*]] = tp.where %[[KEEP]], %[[INV]], %[[ZERO]]
// CHECK: %[[V:.*]] = tp.transpose %[[VH]]
// CHECK: %[[ROW:.*]] = tp.unsqueeze %[[SP]] {dim = 0 : i64}
// CHECK: %[[VS:.*]] = tp.mul %[[V]], %[[ROW]]
// CHECK: %[[UT:.*]] = tp.transpose %[[U]]
// CHECK: tp.matmul %[[VS]], %[[UT]] : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
func.func @pinverse(%a: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %r = tp.pinverse %a {rcond = 1.0e-2 : f64} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @cond1
// CHECK: %[[INV:.*]], %[[INFO:.*]] = tp.linalg_inv_ex %arg0
// CHECK: %[[A:.*]] = tp.abs %arg0
// CHECK: %[[COLS:.*]] = tp.sum %[[A]] {dim = array<i64: -2>}
// CHECK: %[[NA:.*]] = tp.amax %[[COLS]] {dim = array<i64: -1>}
// CHECK: %[[I:.*]] = tp.abs %[[INV]]
// CHECK: %[[ICOLS:.*]] = tp.sum %[[I]] {dim = array<i64: -2>}
// CHECK: %[[NI:.*]] = tp.amax %[[ICOLS]] {dim = array<i64: -1>}
// CHECK: %[[C:.*]] = tp.mul %[[NA]], %[[NI]]
// CHECK: %[[SING:.*]] = tp.gt %[[INFO]], %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: tp.masked_fill %[[C]], %[[SING]] {value = 0x7FF0000000000000 : f64}
func.func @cond1(%a: tensor<3x3xf32>) -> tensor<f32> {
  %r = tp.linalg_cond %a {p = 1.0 : f64} : (tensor<3x3xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// eps(f64) * max(4, 3) = 8.88e-16.
// CHECK-LABEL: func.func @rank
// CHECK-DAG: %[[RTOL:.*]] = tp.constant dense<8.8817841970012523E-16> : tensor<f64>
// CHECK: %[[S:.*]] = tp.linalg_svdvals %arg0
// CHECK: %[[MAX:.*]] = tp.slice %[[S]] {dim = 1 : i64, end = 1 : i64, start = 0 : i64}
// CHECK: %[[T:.*]] = tp.mul %[[MAX]], %[[RTOL]]
// CHECK: %[[TOL:.*]] = tp.maximum %[[T]], %{{.*}}
// CHECK: %[[ABOVE:.*]] = tp.gt %[[S]], %[[TOL]]
// CHECK: %[[N:.*]] = tp.cast %[[ABOVE]] : tensor<2x3xi1> to tensor<2x3xi64>
// CHECK: tp.sum %[[N]] {dim = array<i64: -1>} : (tensor<2x3xi64>) -> tensor<2xi64>
func.func @rank(%a: tensor<2x4x3xf64>) -> tensor<2xi64> {
  %r = tp.linalg_matrix_rank %a : (tensor<2x4x3xf64>) -> tensor<2xi64>
  return %r : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @tensorinv
// CHECK: %[[SQ:.*]] = tp.reshape %arg0 {shape = array<i64: 6, 6>}
// CHECK: %[[INV:.*]] = tp.linalg_inv %[[SQ]]
// CHECK: tp.reshape %[[INV]] {shape = array<i64: 6, 2, 3>}
func.func @tensorinv(%a: tensor<2x3x6xf32>) -> tensor<6x2x3xf32> {
  %r = tp.linalg_tensorinv %a : (tensor<2x3x6xf32>) -> tensor<6x2x3xf32>
  return %r : tensor<6x2x3xf32>
}
