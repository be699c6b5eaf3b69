// An op without a CPU lowering (used by tp-run-errors.mlir).
func.func @g(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = tp.relu %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tp.inverse %y : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
