// What LAPACK (and PyTorch's CPU kernels) cannot compute is an error at the
// op, before anything is rewritten.
// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file -verify-diagnostics

func.func @bf16(%a: tensor<3x3xbf16>) -> tensor<3x3xbf16> {
  // expected-error @+1 {{'tp.linalg_inv' op runs through LAPACK on f32 and f64 tensors, got 'tensor<3x3xbf16>' (tensorplay has no such kernel either; under autocast these ops run in f32)}}
  %r = tp.linalg_inv %a : (tensor<3x3xbf16>) -> tensor<3x3xbf16>
  return %r : tensor<3x3xbf16>
}

// -----

func.func @driver(%a: tensor<3x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend (as tensorplay's); the CPU computes with gesdd, got driver 'gesvd'}}
  %r = tp.linalg_svdvals %a {driver = "gesvd"} : (tensor<3x3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @no_pivot(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>) {
  // expected-error @+1 {{LU without pivoting is not implemented on the CPU (as tensorplay's)}}
  %lu, %p, %i = tp.lu_with_info %a {pivot = false} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>)
  return %lu, %p, %i : tensor<3x3xf32>, tensor<3xi32>, tensor<i32>
}

// -----

func.func @gelsy_residuals(%a: tensor<5x3xf32>, %b: tensor<5x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{tensorplay computes no residuals for the gelsy driver: their type must have shape 0}}
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b : (tensor<5x3xf32>, tensor<5x2xf32>) -> (tensor<3x2xf32>, tensor<2xf32>, tensor<i64>, tensor<0xf32>)
  return %r : tensor<2xf32>
}

// -----

func.func @wide_residuals(%a: tensor<3x5xf32>, %b: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{tensorplay computes no residuals for matrices with m <= n: their type must have shape 0}}
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gelsd"} : (tensor<3x5xf32>, tensor<3x2xf32>) -> (tensor<5x2xf32>, tensor<2xf32>, tensor<i64>, tensor<3xf32>)
  return %r : tensor<2xf32>
}

// -----

func.func @residual_shape(%a: tensor<5x3xf32>, %b: tensor<5x2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{residuals must have shape 0 or 2, got 3}}
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gels"} : (tensor<5x3xf32>, tensor<5x2xf32>) -> (tensor<3x2xf32>, tensor<3xf32>, tensor<0xi64>, tensor<0xf32>)
  return %r : tensor<3xf32>
}
