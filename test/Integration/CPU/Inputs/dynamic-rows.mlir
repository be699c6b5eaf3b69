// A function of a dynamic batch (used by tp-run-errors.mlir).
func.func @rows(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %r = tp.mul %x, %x : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
