// An FFT of bf16 values (used by fft-errors.mlir): 1, 2, 3, 4.
func.func @rfft_bf16() -> tensor<3xcomplex<f32>> {
  %x = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xbf16>
  %r = tp.fft_rfft %x : (tensor<4xbf16>) -> tensor<3xcomplex<f32>>
  return %r : tensor<3xcomplex<f32>>
}
