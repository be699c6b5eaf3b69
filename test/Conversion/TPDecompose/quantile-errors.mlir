// What tensorplay's quantile refuses: inputs other than float and double,
// a q of another dtype, a constant q outside [0, 1].
// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file -verify-diagnostics

func.func @bf16(%x: tensor<8xbf16>, %q: tensor<bf16>) -> tensor<bf16> {
  // expected-error @+1 {{input tensor must be either float or double dtype (as tensorplay's quantile), got 'tensor<8xbf16>'}}
  %r = tp.quantile %x, %q : (tensor<8xbf16>, tensor<bf16>) -> tensor<bf16>
  return %r : tensor<bf16>
}

// -----

func.func @q_dtype(%x: tensor<8xf32>, %q: tensor<f64>) -> tensor<f32> {
  // expected-error @+1 {{q tensor must be same dtype as the input tensor (as tensorplay's quantile), got 'tensor<f64>' and 'tensor<8xf32>'}}
  %r = tp.nanquantile %x, %q : (tensor<8xf32>, tensor<f64>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @q_range(%x: tensor<8xf32>) -> tensor<2xf32> {
  %q = tp.constant dense<[0.5, 1.5]> : tensor<2xf32>
  // expected-error @+1 {{q values must be in the range [0, 1], got 1.500000e+00}}
  %r = tp.quantile %x, %q : (tensor<8xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
