// tp-autodiff's rules of the linear algebra ops, in IR: products with the
// saved results and solves with the forward's factors (tp.triangular_solve
// reads the one triangle a factor has), triangle masks as constants, a
// factorization's several results each bringing their gradient. The ops
// run in f32 under cpu:bf16 (the fp32 list), so does their backward; the
// gradient reaching the bf16 product is cast down to it (the reverse of
// the forward's cast).
// RUN: tp-opt %s --tp-autodiff --canonicalize --cse | FileCheck %s
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-autodiff --canonicalize --cse | FileCheck %s --check-prefix=BF16

// CHECK-LABEL: func.func @solve_loss_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x3xf32>, %[[A:[^:]*]]: tensor<3x3xf32>, %[[B:[^:]*]]: tensor<3x2xf32>)
// CHECK-DAG: %[[LOWER:.*]] = tp.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<3x3xf32>
// CHECK: %[[H:.*]] = tp.mm %[[X]], %[[A]]
// CHECK: %[[Q:.*]], %[[R:.*]] = tp.linalg_qr %[[H]]
// CHECK: %[[I:.*]] = tp.linalg_inv %[[R]]
// CHECK: %[[S:.*]], %[[C:.*]] = tp.triangular_solve %[[B]], %[[I]] {transpose = true, upper = false}
// CHECK: %[[W:.*]], %[[V:.*]] = tp.linalg_eigh %[[C]]
//   eigh: V diag(g) V^T
// CHECK: %[[VD:.*]] = tp.matmul %[[V]], %{{.*}}
// CHECK: %[[VT:.*]] = tp.transpose %[[V]]
// CHECK: %[[GE:.*]] = tp.matmul %[[VD]], %[[VT]]
//   triangular_solve: the right-hand side's gradient solves with the
//   other transpose; the coefficient's is -db X^T, transposed back, in
//   the lower triangle, plus the cloned coefficient's
// CHECK: %[[GB:.*]], %{{.*}} = tp.triangular_solve %{{.*}}, %[[I]] {upper = false}
// CHECK: %[[ST:.*]] = tp.transpose %[[S]]
// CHECK: %[[P:.*]] = tp.matmul %[[GB]], %[[ST]]
// CHECK: %[[N:.*]] = tp.neg %[[P]]
// CHECK: %[[NT:.*]] = tp.transpose %[[N]]
// CHECK: %[[M:.*]] = tp.mul %[[NT]], %[[LOWER]]
// CHECK: %[[GI:.*]] = tp.add %[[M]], %[[GE]]
//   linalg_inv: -Y^T g Y^T
// CHECK: %[[IT:.*]] = tp.transpose %[[I]]
// CHECK: %[[L1:.*]] = tp.matmul %[[IT]], %[[GI]]
// CHECK: %[[L2:.*]] = tp.matmul %[[L1]], %[[IT]]
// CHECK: %[[GR:.*]] = tp.neg %[[L2]]
//   linalg_qr (tall): (Q copyltu(R gR^T)) R^-T, a solve with R
// CHECK: tp.matmul %[[R]], %{{.*}}
// CHECK: tp.matmul %[[Q]], %{{.*}}
// CHECK: tp.triangular_solve %{{.*}}, %[[R]] : (tensor<3x4xf32>, tensor<3x3xf32>)
// CHECK: tp.mm
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %[[GB]] : tensor<f32>, tensor<4x3xf32>, tensor<3x3xf32>, tensor<3x2xf32>

// BF16-LABEL: func.func @solve_loss_grad(
// BF16: tp.mm %{{.*}}, %{{.*}} : (tensor<4x3xbf16>, tensor<3x3xbf16>) -> tensor<4x3xbf16>
// BF16: tp.linalg_qr %{{.*}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>)
// BF16: tp.triangular_solve %{{.*}} : (tensor<3x2xf32>, tensor<3x3xf32>) -> (tensor<3x2xf32>, tensor<3x3xf32>)
// BF16: %[[GH:.*]] = tp.transpose %{{.*}} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// BF16: %[[GHB:.*]] = tp.cast %[[GH]] : tensor<4x3xf32> to tensor<4x3xbf16>
// BF16: tp.mm %[[GHB]], %{{.*}} : (tensor<4x3xbf16>, tensor<3x3xbf16>) -> tensor<4x3xbf16>
func.func @solve_loss(%x: tensor<4x3xf32>, %a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<f32> {
  %h = tp.mm %x, %a : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  %q, %r = tp.linalg_qr %h : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>)
  %i = tp.linalg_inv %r : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %s, %c = tp.triangular_solve %b, %i {upper = false, transpose = true} : (tensor<3x2xf32>, tensor<3x3xf32>) -> (tensor<3x2xf32>, tensor<3x3xf32>)
  %e, %v = tp.linalg_eigh %c : (tensor<3x3xf32>) -> (tensor<3xf32>, tensor<3x3xf32>)
  %l1 = tp.sum %s : (tensor<3x2xf32>) -> tensor<f32>
  %l2 = tp.sum %e : (tensor<3xf32>) -> tensor<f32>
  %l = tp.add %l1, %l2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// The SVD's values alone: U diag(g) Vh from the saved factors. svdvals
// recomputes the factors (reduced) in the backward; the LU's gradient
// ends with the pivots' permutation, P^T being lu_solve(I, I, pivots).
// CHECK-LABEL: func.func @factor_loss_grad(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x3xf32>, %[[B:[^:]*]]: tensor<3x3xf32>)
// CHECK-DAG: %[[EYE:.*]] = tp.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<3x3xf32>
// CHECK: %[[U:.*]], %[[S:.*]], %[[VH:.*]] = tp.linalg_svd %[[A]] : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)
// CHECK: tp.linalg_svdvals %[[B]]
// CHECK: %[[LU:.*]], %[[PIV:.*]], %{{.*}} = tp.lu_with_info %[[B]]
// CHECK: tp.triangular_solve %{{.*}}, %[[LU]] : (tensor<3x3xf32>, tensor<3x3xf32>)
// CHECK: tp.triangular_solve %{{.*}}, %[[LU]] {transpose = true, unitriangular = true, upper = false}
// CHECK: %[[PT:.*]] = tp.lu_solve %[[EYE]], %[[EYE]], %[[PIV]]
// CHECK: %[[P:.*]] = tp.transpose %[[PT]]
// CHECK: %[[GLU:.*]] = tp.matmul %[[P]], %{{.*}}
// CHECK: %[[U2:.*]], %[[S2:.*]], %[[V2:.*]] = tp.linalg_svd %[[B]] {full_matrices = false}
// CHECK: %[[U1:.*]] = tp.slice %[[U]] {dim = 1 : i64, end = 3 : i64, start = 0 : i64} : (tensor<4x4xf32>) -> tensor<4x3xf32>
// CHECK: tp.matmul %[[U1]], %{{.*}} : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK: return
func.func @factor_loss(%a: tensor<4x3xf32>, %b: tensor<3x3xf32>) -> tensor<f32> {
  %u, %s, %vh = tp.linalg_svd %a : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)
  %sv = tp.linalg_svdvals %b : (tensor<3x3xf32>) -> tensor<3xf32>
  %lu, %p, %i = tp.lu_with_info %b : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>)
  %l1 = tp.sum %s : (tensor<3xf32>) -> tensor<f32>
  %l2 = tp.sum %sv : (tensor<3xf32>) -> tensor<f32>
  %l3 = tp.sum %lu : (tensor<3x3xf32>) -> tensor<f32>
  %l4 = tp.add %l1, %l2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %l = tp.add %l4, %l3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}
