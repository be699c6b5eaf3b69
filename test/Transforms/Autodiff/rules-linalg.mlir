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

// The general eigendecomposition of a real batch, in real arithmetic on the
// parts of the complex factors: W = V^H gV less its projection, divided by
// the conjugate eigenvalue gaps off the diagonal (the mask), then solved
// with V^H as the real system [[Re, -Im], [Im, Re]] of twice the size; the
// gradient is the real part, the solution's first rows.
// CHECK-LABEL: func.func @eig_loss_grad(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3x3xf64>)
// CHECK-DAG: %[[OFF:.*]] = tp.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 0.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<3x3xf64>
// CHECK: %[[L:.*]], %[[V:.*]] = tp.linalg_eig %[[A]]
// CHECK: %[[VP:.*]] = tp.view_as_real %[[V]] : (tensor<2x3x3xcomplex<f64>>) -> tensor<2x3x3x2xf64>
// CHECK: %[[VRE:.*]] = tp.transpose %{{.*}} {dim0 = 1 : i64, dim1 = 2 : i64}
// CHECK: %[[VIM:.*]] = tp.transpose %{{.*}} {dim0 = 1 : i64, dim1 = 2 : i64}
// CHECK: %[[VHIM:.*]] = tp.neg %[[VIM]]
// CHECK: tp.view_as_real %[[L]] : (tensor<2x3xcomplex<f64>>) -> tensor<2x3x2xf64>
// CHECK: %[[DRE:.*]] = tp.sub %{{.*}}, %{{.*}} : (tensor<2x1x3xf64>, tensor<2x3x1xf64>) -> tensor<2x3x3xf64>
// CHECK: %[[GRE:.*]] = tp.add %[[DRE]], %[[EYE:.*]] : (tensor<2x3x3xf64>, tensor<3x3xf64>)
// CHECK: %[[GIM:.*]] = tp.sub %{{.*}}, %{{.*}} : (tensor<2x3x1xf64>, tensor<2x1x3xf64>) -> tensor<2x3x3xf64>
// CHECK: %[[RE2:.*]] = tp.mul %[[GRE]], %[[GRE]]
// CHECK: %[[IM2:.*]] = tp.mul %[[GIM]], %[[GIM]]
// CHECK: %[[NORM:.*]] = tp.add %[[RE2]], %[[IM2]]
// CHECK: %[[QRE:.*]] = tp.div %{{.*}}, %[[NORM]]
// CHECK: %[[QIM:.*]] = tp.div %{{.*}}, %[[NORM]]
// CHECK: tp.mul %[[QRE]], %[[OFF]]
// CHECK: tp.mul %[[QIM]], %[[OFF]]
// CHECK: %[[NEGIM:.*]] = tp.neg %[[VHIM]]
// CHECK: %[[TOP:.*]] = tp.cat [%[[VRE]], %[[NEGIM]]] {dim = 2 : i64}
// CHECK: %[[BOTTOM:.*]] = tp.cat [%[[VHIM]], %[[VRE]]] {dim = 2 : i64}
// CHECK: %[[BIG:.*]] = tp.cat [%[[TOP]], %[[BOTTOM]]] {dim = 1 : i64} : (tensor<2x3x6xf64>, tensor<2x3x6xf64>) -> tensor<2x6x6xf64>
// CHECK: %[[X:.*]] = tp.linalg_solve %[[BIG]], %{{.*}} : (tensor<2x6x6xf64>, tensor<2x6x3xf64>) -> tensor<2x6x3xf64>
// CHECK: %[[GA:.*]] = tp.slice %[[X]] {dim = 1 : i64, end = 3 : i64, start = 0 : i64}
// CHECK: return %{{.*}}, %[[GA]] : tensor<f64>, tensor<2x3x3xf64>
func.func @eig_loss(%a: tensor<2x3x3xf64>) -> tensor<f64> {
  %l, %v = tp.linalg_eig %a : (tensor<2x3x3xf64>) -> (tensor<2x3xcomplex<f64>>, tensor<2x3x3xcomplex<f64>>)
  %m = tp.abs %v : (tensor<2x3x3xcomplex<f64>>) -> tensor<2x3x3xf64>
  %s = tp.sum %m : (tensor<2x3x3xf64>) -> tensor<f64>
  return %s : tensor<f64>
}

// eigvals recomputes the decomposition; its gradient alone is
// V^-H diag(gL) V^H, with no eigenvalue gaps.
// CHECK-LABEL: func.func @eigvals_loss_grad(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x3xf32>)
// CHECK: tp.linalg_eigvals %[[A]]
// CHECK: %{{.*}}, %[[V:.*]] = tp.linalg_eig %[[A]] : (tensor<3x3xf32>) -> (tensor<3xcomplex<f32>>, tensor<3x3xcomplex<f32>>)
// CHECK-NOT: tp.div
// CHECK: tp.linalg_solve %{{.*}}, %{{.*}} : (tensor<6x6xf32>, tensor<6x3xf32>) -> tensor<6x3xf32>
// CHECK: return
func.func @eigvals_loss(%a: tensor<3x3xf32>) -> tensor<f32> {
  %l = tp.linalg_eigvals %a : (tensor<3x3xf32>) -> tensor<3xcomplex<f32>>
  %r = tp.view_as_real %l : (tensor<3xcomplex<f32>>) -> tensor<3x2xf32>
  %s = tp.sum %r : (tensor<3x2xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// orgqr and ormqr are differentiated as their reflectors' products
// (DecomposeHouseholder.cpp): v_i is column i below row i with a 1 on row
// i (a select of constant masks), each H_i X = X - tau_i v_i (v_i^T X) two
// products, the last reflector applied first for orgqr (Q = H_0 H_1 I),
// the first first for C Q (right, not transposed). The forward function
// keeps the LAPACK ops.
// CHECK-LABEL: func.func @householder_loss(
// CHECK: tp.orgqr
// CHECK: tp.ormqr
// CHECK-LABEL: func.func @householder_loss_grad(
// CHECK-SAME: %[[A:[^:]*]]: tensor<4x3xf32>, %[[TAU:[^:]*]]: tensor<2xf32>, %[[C:[^:]*]]: tensor<2x4xf32>)
// CHECK-NOT: tp.orgqr
// CHECK-NOT: tp.ormqr
// CHECK-DAG: %[[E0:.*]] = tp.constant dense<{{\[\[}}1.000000e+00], [0.000000e+00], [0.000000e+00], [0.000000e+00]]> : tensor<4x1xf32>
// CHECK-DAG: %[[B0:.*]] = tp.constant dense<{{\[\[}}false], [true], [true], [true]]> : tensor<4x1xi1>
// CHECK-DAG: %[[B1:.*]] = tp.constant dense<{{\[\[}}false], [false], [true], [true]]> : tensor<4x1xi1>
// CHECK-DAG: %[[I:.*]] = tp.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x3xf32>
// CHECK: %[[COL1:.*]] = tp.slice %[[A]] {dim = 1 : i64, end = 2 : i64, start = 1 : i64}
// CHECK: %[[V1:.*]] = tp.where %[[B1]], %[[COL1]], %{{.*}}
// CHECK: %[[V1T:.*]] = tp.transpose %[[V1]]
// CHECK: %[[W1:.*]] = tp.matmul %[[V1T]], %[[I]] : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[P1:.*]] = tp.matmul %[[V1]], %[[W1]] : (tensor<4x1xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[T1:.*]] = tp.slice %[[TAU]] {end = 2 : i64, start = 1 : i64}
// CHECK: %[[S1:.*]] = tp.reshape %[[T1]] {shape = array<i64: 1, 1>}
// CHECK: %[[H1:.*]] = tp.mul %[[S1]], %[[P1]]
// CHECK: %[[Q1:.*]] = tp.sub %[[I]], %[[H1]]
// CHECK: %[[COL0:.*]] = tp.slice %[[A]] {dim = 1 : i64, end = 1 : i64, start = 0 : i64}
// CHECK: %[[V0:.*]] = tp.where %[[B0]], %[[COL0]], %[[E0]]
// CHECK: tp.matmul %{{.*}}, %[[Q1]] : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[CV0:.*]] = tp.matmul %[[C]], %[[V0]] : (tensor<2x4xf32>, tensor<4x1xf32>) -> tensor<2x1xf32>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<4x3xf32>, tensor<2xf32>, tensor<2x4xf32>
func.func @householder_loss(%a: tensor<4x3xf32>, %tau: tensor<2xf32>, %c: tensor<2x4xf32>) -> tensor<f32> {
  %q = tp.orgqr %a, %tau : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  %m = tp.ormqr %a, %tau, %c {left = false} : (tensor<4x3xf32>, tensor<2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %l1 = tp.sum %q : (tensor<4x3xf32>) -> tensor<f32>
  %l2 = tp.sum %m : (tensor<2x4xf32>) -> tensor<f32>
  %l = tp.add %l1, %l2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}
