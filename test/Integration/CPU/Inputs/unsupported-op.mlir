// An op without a CPU lowering (used by tp-run-errors.mlir).
func.func @g(%m: tensor<4x5xf32>, %a: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %y = tp.relu %m : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %z = tp.polar %y, %a : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xcomplex<f32>>
  %r = tp.fft_irfft %z : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
