// A form without a CPU lowering (used by tp-run-errors.mlir): every op
// lowers, but the inverse trigonometric functions of complex tensors do not.
func.func @g(%m: tensor<4x5xf32>, %a: tensor<4x5xf32>) -> tensor<4x5xcomplex<f32>> {
  %z = tp.polar %m, %a : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xcomplex<f32>>
  %s = tp.asin %z : (tensor<4x5xcomplex<f32>>) -> tensor<4x5xcomplex<f32>>
  return %s : tensor<4x5xcomplex<f32>>
}
