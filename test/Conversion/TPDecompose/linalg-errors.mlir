// linalg_cond's norms other than +-2 need square matrices, and p is one of
// 2, -2, 1, -1, inf, -inf (as tensorplay's).
// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file -verify-diagnostics

func.func @cond_p(%a: tensor<3x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{linalg.cond got an invalid norm type: 3.000000e+00 (p must be 2, -2, 1, -1, inf or -inf)}}
  %r = tp.linalg_cond %a {p = 3.0 : f64} : (tensor<3x3xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @cond_square(%a: tensor<3x4xf32>) -> tensor<f32> {
  // expected-error @+1 {{linalg.cond(ord=1.000000e+00): A must be batches of square matrices, but they are 3 by 4 matrices}}
  %r = tp.linalg_cond %a {p = 1.0 : f64} : (tensor<3x4xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
