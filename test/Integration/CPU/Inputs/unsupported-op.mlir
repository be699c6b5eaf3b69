// An op without a CPU lowering (used by tp-run-errors.mlir).
func.func @g(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %v: tensor<2x3xf32>) -> tensor<5x3xf32> {
  %y = tp.relu %x : (tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = tp.index_put %y[%i], %v : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
