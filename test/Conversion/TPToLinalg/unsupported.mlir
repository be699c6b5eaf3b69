// An op without a CPU lowering is an error at its location naming the op.
// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file -verify-diagnostics

func.func @fft(%x: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  // expected-error @+1 {{'tp.fft_rfft' op has no CPU lowering}}
  %r = tp.fft_rfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return %r : tensor<5xcomplex<f32>>
}

// -----

func.func @two_ops(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{'tp.inverse' op has no CPU lowering}}
  %a = tp.inverse %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = tp.relu %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{'tp.linalg_inv' op has no CPU lowering}}
  %c = tp.linalg_inv %b : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a, %c : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

func.func @complex_exp(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'tp.exp' op has no CPU lowering for complex tensors}}
  %r = tp.exp %x : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}
