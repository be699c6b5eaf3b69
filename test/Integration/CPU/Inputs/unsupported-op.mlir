// An op without a CPU lowering (used by tp-run-errors.mlir).
func.func @g(%x: tensor<1x3x8x8xf32>, %grid: tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32> {
  %y = tp.relu %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %r = tp.grid_sample %y, %grid : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}
