// tp-autodiff's errors: each names the op or option at fault.
// RUN: tp-opt %s --split-input-file --tp-autodiff -verify-diagnostics

// A backward op is not differentiated again (no second derivatives).
func.func @no_rule(%g: tensor<3x8xf32>, %x: tensor<3x8xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.gelu_backward' op tp-autodiff: no backward rule for 'tp.gelu_backward' yet (it is on the path from a differentiated argument to the loss)}}
  %y = tp.gelu_backward %g, %x : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %l = tp.sum %y : (tensor<3x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A complex value reaching an op whose real rule would be wrong for it.
func.func @no_complex_rule(%x: tensor<3x8xf32>) -> tensor<f32> {
  %c = tp.fft_rfft %x : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  // expected-error @+1 {{'tp.asin' op tp-autodiff: no backward rule for complex tensors in 'tp.asin' yet (complex gradients go through add, sub, neg, mul, div, abs, exp, expm1, log, log1p, log2, log10, sqrt, rsqrt, sin, cos, tan, tanh, sinh, cosh, reciprocal, sigmoid, pow with a scalar exponent, sum, mean, the FFTs, stft, polar, gather, view_as_real / view_as_complex and the shape ops)}}
  %e = tp.asin %c : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  %y = tp.fft_irfft %e {n = 8 : i64} : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  %l = tp.sum %y : (tensor<3x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @class_weights(%x: tensor<4x10xf32>, %t: tensor<4xi64>, %w: tensor<10xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.cross_entropy' op tp-autodiff: the gradient with respect to the class weights of 'tp.cross_entropy' is not implemented (nor is it in PyTorch); pass them as a value no differentiated argument reaches}}
  %l = tp.cross_entropy %x, %t weight(%w) : (tensor<4x10xf32>, tensor<4xi64>, tensor<10xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @while_loop(%x: tensor<4xf32>) -> tensor<f32> {
  %t = arith.constant true
  // expected-error @+1 {{'scf.while' op tp-autodiff: 'scf.while' is not differentiated; tp.autocast, tp.custom_function, scf.if, scf.for and calls are}}
  %r = scf.while (%h = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    scf.condition(%t) %h : tensor<4xf32>
  } do {
  ^bb0(%h: tensor<4xf32>):
    %e = tp.exp %h : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  %l = tp.sum %r : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @external_call(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'func.call' op tp-autodiff: cannot differentiate through a call of @external, which has no body}}
  %e = func.call @external(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %e : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func private @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op tp-autodiff: calls nest more than 64 deep from @recursion_grad (a recursion?); recursive calls are not differentiated}}
  %e = func.call @recursive(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}

func.func @recursion(%x: tensor<4xf32>) -> tensor<f32> {
  %e = func.call @recursive(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %e : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @inplace(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.exp' op tp-autodiff: in-place and out= forms are not differentiated; use the plain form}}
  %e = tp.exp %x {inplace} : (tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %e : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @rpow_base(%a: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.rpow' op tp-autodiff: the backward of tp.rpow is implemented for a positive base only, got -2}}
  %p = tp.rpow %a {base = -2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %p : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @probability_weights(%x: tensor<4x10xf32>, %p: tensor<4x10xf32>, %w: tensor<10xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.cross_entropy' op tp-autodiff: the gradient with respect to the class weights of 'tp.cross_entropy' is not implemented (nor is it in PyTorch); pass them as a value no differentiated argument reaches}}
  %l = tp.cross_entropy %x, %p weight(%w) : (tensor<4x10xf32>, tensor<4x10xf32>, tensor<10xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{'func.func' op tp-autodiff: control flow between blocks is not differentiated yet; @blocks has 2 blocks}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<f32> {
  cf.br ^bb1
^bb1:
  %l = tp.sum %x : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{'func.func' op tp-autodiff: @taken_grad exists already}}
func.func @taken(%x: tensor<4xf32>) -> tensor<f32> {
  %l = tp.sum %x : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func private @taken_grad(%x: tensor<4xf32>) -> tensor<f32>

// -----

func.func @qr_complete(%x: tensor<4x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.linalg_qr' op tp-autodiff: the backward of linalg_qr with mode='complete' and more rows than columns is not defined (the extra columns of Q are arbitrary; PyTorch refuses it too); use mode='reduced'}}
  %q, %r = tp.linalg_qr %x {mode = "complete"} : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<4x3xf32>)
  %l = tp.sum %r : (tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @geqrf(%x: tensor<4x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.geqrf' op tp-autodiff: geqrf has no derivative (none in tensorplay either); differentiate linalg_qr instead}}
  %a, %tau = tp.geqrf %x : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  %l = tp.sum %a : (tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The Householder products are differentiated in f32 and f64 (LAPACK's
// types; autocast runs them in f32).
func.func @orgqr_bf16(%a: tensor<4x3xbf16>, %tau: tensor<2xbf16>) -> tensor<bf16> {
  // expected-error @+1 {{'tp.orgqr' op tp-autodiff: 'tp.orgqr' is differentiated for f32 and f64 operands of one element type and static shapes only, got 'tensor<4x3xbf16>', 'tensor<2xbf16>'}}
  %q = tp.orgqr %a, %tau : (tensor<4x3xbf16>, tensor<2xbf16>) -> tensor<4x3xbf16>
  %l = tp.sum %q : (tensor<4x3xbf16>) -> tensor<bf16>
  return %l : tensor<bf16>
}

// -----

// A boolean mask with values of several rows is no where (its count of
// true entries is data).
func.func @index_put_mask_rows(%x: tensor<5x3xf32>, %m: tensor<5xi1>, %v: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.index_put' op tp-autodiff: index_put with a boolean mask is differentiated only alone and with values of one selected row (self[mask] = v, decomposed as where); the count of the mask's true entries is data}}
  %r = tp.index_put %x[%m], %v : (tensor<5x3xf32>, tensor<5xi1>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %l = tp.sum %r : (tensor<5x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @lstsq_residuals(%a: tensor<5x3xf32>, %b: tensor<5x2xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.linalg_lstsq' op tp-autodiff: the gradient through result #1 of 'tp.linalg_lstsq' is not implemented (PyTorch does not differentiate linalg_lstsq's residuals and singular values either)}}
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gelsd"} : (tensor<5x3xf32>, tensor<5x2xf32>) -> (tensor<3x2xf32>, tensor<2xf32>, tensor<i64>, tensor<3xf32>)
  %l = tp.sum %r : (tensor<2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @svd_no_uv(%a: tensor<4x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.svd' op tp-autodiff: the gradient through result #0 of 'tp.svd' is not implemented (compute_uv = false returns zeros for U and V)}}
  %u, %s, %v = tp.svd %a {compute_uv = false} : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)
  %l = tp.sum %u : (tensor<4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @solve_vector_batch(%a: tensor<2x3x3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.linalg_solve' op tp-autodiff: the backward of linalg_solve with a 1-D right-hand side and a batch of matrices is not implemented}}
  %x = tp.linalg_solve %a, %b : (tensor<2x3x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = tp.sum %x : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @bicubic(%x: tensor<1x1x4x4x4xf32>, %g: tensor<1x2x2x2x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.grid_sample' op tp-autodiff: bicubic grid sampling takes 4-D inputs, got 'tensor<1x1x4x4x4xf32>'}}
  %n = tp.grid_sample %x, %g {mode = "bicubic"} : (tensor<1x1x4x4x4xf32>, tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf32>
  %l = tp.sum %n : (tensor<1x1x2x2x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
