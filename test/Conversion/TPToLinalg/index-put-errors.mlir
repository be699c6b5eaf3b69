// index_put forms the CPU lowering refuses, at the op.
// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file -verify-diagnostics

// Values of two rows for a mask whose count of true entries is data (the
// decomposition, tp-decompose-composite-ops, leaves this form).
func.func @bool_mask(%x: tensor<5x3xf32>, %m: tensor<5xi1>, %v: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'tp.index_put' op has no CPU lowering for a boolean mask beside other indices or with values of more than one row (the count of the mask's true entries is data); values that broadcast to one selected row lower (self[mask] = v, as where)}}
  %r = tp.index_put %x[%m], %v : (tensor<5x3xf32>, tensor<5xi1>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

func.func @values_shape(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %v: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'tp.index_put' op has values of shape 4x3 that do not broadcast to 2x3}}
  %r = tp.index_put %x[%i], %v : (tensor<5x3xf32>, tensor<2xi64>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

func.func @indices_shape(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %j: tensor<3xi64>, %v: tensor<f32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'tp.index_put' op has index tensors that do not broadcast together}}
  %r = tp.index_put %x[%i, %j], %v : (tensor<5x3xf32>, tensor<2xi64>, tensor<3xi64>, tensor<f32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
