// A convolution layer's loss for bench/train/compare-conv-backward.sh:
// conv2d (32 x 64 x 28 x 28, 3 x 3, padding 1) with a bias, summed.
func.func @conv_loss(%x: tensor<32x64x28x28xf32>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<f32> {
  %y = tp.conv2d %x, %w bias(%b) {padding = array<i64: 1>} : (tensor<32x64x28x28xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<32x64x28x28xf32>
  %s = tp.sum %y : (tensor<32x64x28x28xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
