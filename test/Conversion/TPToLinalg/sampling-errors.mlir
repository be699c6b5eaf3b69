// What grid sampling and fractional max pooling refuse, at the op, in
// tensorplay's terms (modes: the verifier; mixed dtypes: the pass).
// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file -verify-diagnostics

func.func @bicubic_3d(%x: tensor<1x2x3x4x5xf32>, %g: tensor<1x2x2x2x3xf32>) -> tensor<1x2x2x2x2xf32> {
  // expected-error @+1 {{bicubic interpolation is supported only for 4-D input (as tensorplay's)}}
  %r = tp.grid_sample %x, %g {mode = "bicubic"} : (tensor<1x2x3x4x5xf32>, tensor<1x2x2x2x3xf32>) -> tensor<1x2x2x2x2xf32>
  return %r : tensor<1x2x2x2x2xf32>
}

// -----

func.func @grid_mode(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{mode must be bilinear, nearest or bicubic}}
  %r = tp.grid_sample %x, %g {mode = "linear"} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// -----

func.func @grid_dtype(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf64>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{has operands of dtypes 'f32' and 'f64', which only autocast resolves}}
  %r = tp.grid_sampler_2d %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf64>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// -----

func.func @sampler_mode(%x: tensor<1x2x4x4xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+1 {{interpolation_mode and padding_mode must be 0, 1 or 2}}
  %r = tp.grid_sampler_2d %x, %g {align_corners = false, interpolation_mode = 3 : i64, padding_mode = 0 : i64} : (tensor<1x2x4x4xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// -----

func.func @pool_too_big(%x: tensor<1x2x5x5xf32>, %s: tensor<1x2x2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi64>) {
  // expected-error @+1 {{needs pool size + output size - 1 <= input size along each spatial dimension (as tensorplay's), got 3 + 4 - 1 > 5 along dimension 2}}
  %r, %i = tp.fractional_max_pool2d %x, %s {kernel_size = array<i64: 3, 2>, output_size = array<i64: 4, 4>} : (tensor<1x2x5x5xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi64>)
  return %r, %i : tensor<1x2x4x4xf32>, tensor<1x2x4x4xi64>
}

// -----

func.func @samples_shape(%x: tensor<1x2x5x5xf32>, %s: tensor<1x2x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>) {
  // expected-error @+1 {{expects random_samples of type 'tensor<1x2x2xf32>', got 'tensor<1x2x3xf32>'}}
  %r, %i = tp.fractional_max_pool2d %x, %s {kernel_size = array<i64: 2, 2>, output_size = array<i64: 3, 3>} : (tensor<1x2x5x5xf32>, tensor<1x2x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  return %r, %i : tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>
}
