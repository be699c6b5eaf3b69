// The failures PyTorch reports in its linear algebra are run-time errors of
// the compiled function, in PyTorch's words, with the batch element: tp-run
// prints them and exits non-zero.
// RUN: not tp-run %s --entry=singular_inverse 2>&1 | FileCheck %s --check-prefix=INV
// RUN: not tp-run %s --entry=not_definite 2>&1 | FileCheck %s --check-prefix=CHOL
// RUN: not tp-run %s --entry=singular_solve 2>&1 | FileCheck %s --check-prefix=SOLVE
// The _ex forms report through info instead.
// RUN: tp-run %s --entry=inverse_ex --print | FileCheck %s --check-prefix=EX

// INV: runtime error in @singular_inverse: linalg.inv: (Batch element 1): The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular.
func.func @singular_inverse() -> tensor<2x2x2xf32> {
  %a = tp.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]> : tensor<2x2x2xf32>
  %r = tp.linalg_inv %a : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

// CHOL: runtime error in @not_definite: linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).
func.func @not_definite() -> tensor<3x3xf64> {
  %a = tp.constant dense<[[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]> : tensor<3x3xf64>
  %r = tp.linalg_cholesky %a : (tensor<3x3xf64>) -> tensor<3x3xf64>
  return %r : tensor<3x3xf64>
}

// SOLVE: runtime error in @singular_solve: linalg.solve: The solver failed because the input matrix is singular.
func.func @singular_solve() -> tensor<2xf32> {
  %a = tp.constant dense<[[1.0, 2.0], [2.0, 4.0]]> : tensor<2x2xf32>
  %b = tp.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %r = tp.linalg_solve %a, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// EX: @inverse_ex result #1: [0, 2]
func.func @inverse_ex() -> (tensor<2x2x2xf32>, tensor<2xi32>) {
  %a = tp.constant dense<[[[2.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]]> : tensor<2x2x2xf32>
  %r, %i = tp.linalg_inv_ex %a : (tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xi32>)
  return %r, %i : tensor<2x2x2xf32>, tensor<2xi32>
}

// Residuals were asked for (gelsd, m > n), but the matrix has rank 1 < 2:
// tensorplay would return none.
// RUN: not tp-run %s --entry=rank_deficient_residuals 2>&1 | FileCheck %s --check-prefix=RESID
// RESID: runtime error in @rank_deficient_residuals: linalg.lstsq: the matrix has rank 1 < 2: tensorplay returns no residuals then, but the residuals' type holds them
func.func @rank_deficient_residuals() -> tensor<1xf32> {
  %a = tp.constant dense<[[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]> : tensor<3x2xf32>
  %b = tp.constant dense<[[1.0], [0.0], [1.0]]> : tensor<3x1xf32>
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gelsd"} : (tensor<3x2xf32>, tensor<3x1xf32>) -> (tensor<2x1xf32>, tensor<1xf32>, tensor<i64>, tensor<2xf32>)
  return %r : tensor<1xf32>
}

// gels on a rank-deficient matrix fails, in tensorplay's words.
// RUN: not tp-run %s --entry=gels_rank_deficient 2>&1 | FileCheck %s --check-prefix=GELS
// GELS: runtime error in @gels_rank_deficient: linalg.lstsq: The least squares solution could not be computed because the input matrix does not have full rank (error code: 2).
func.func @gels_rank_deficient() -> tensor<2x1xf32> {
  %a = tp.constant dense<[[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]> : tensor<3x2xf32>
  %b = tp.constant dense<[[1.0], [0.0], [1.0]]> : tensor<3x1xf32>
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gels"} : (tensor<3x2xf32>, tensor<3x1xf32>) -> (tensor<2x1xf32>, tensor<1xf32>, tensor<0xi64>, tensor<0xf32>)
  return %x : tensor<2x1xf32>
}
