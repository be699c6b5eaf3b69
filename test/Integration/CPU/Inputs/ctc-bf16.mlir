// ctc_loss on bf16 log-probabilities (used by ctc-errors.mlir).
func.func @ctc_bf16() -> tensor<bf16> {
  %lp = tp.constant dense<[[[-1.0, -0.5, -2.0]], [[-0.7, -1.2, -1.5]], [[-1.1, -1.1, -1.1]]]> : tensor<3x1x3xbf16>
  %t = tp.constant dense<[[1, 2]]> : tensor<1x2xi64>
  %il = tp.constant dense<[3]> : tensor<1xi64>
  %tl = tp.constant dense<[2]> : tensor<1xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<3x1x3xbf16>, tensor<1x2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<bf16>
  return %l : tensor<bf16>
}
