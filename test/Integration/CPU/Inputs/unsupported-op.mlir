// An op without a CPU lowering (used by tp-run-errors.mlir).
func.func @g(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) -> tensor<f32> {
  %y = tp.relu %lp : (tensor<50x4x20xf32>) -> tensor<50x4x20xf32>
  %l = tp.ctc_loss %y, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return %l : tensor<f32>
}
