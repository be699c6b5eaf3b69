// The losses of bench/train/compare-norm-backward.sh: a layer_norm (8 x 128
// x 512 over the last dim, with weight and bias), a group_norm (8 x 64 x 28
// x 28 in 8 groups, with weight and bias) and a softmax (8 x 8 x 128 x 128
// attention scores along the last dim), each weighted by a
// constant-like argument %c so the gradient is not trivially zero. The
// script makes the bf16 twin by replacing f32.
func.func @layer_norm_loss(%x: tensor<8x128x512xf32>, %w: tensor<512xf32>, %b: tensor<512xf32>, %c: tensor<8x128x512xf32>) -> tensor<f32> {
  %y = tp.layer_norm %x weight(%w) bias(%b) {normalized_shape = array<i64: 512>} : (tensor<8x128x512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %m = tp.mul %y, %c : (tensor<8x128x512xf32>, tensor<8x128x512xf32>) -> tensor<8x128x512xf32>
  %l = tp.sum %m : (tensor<8x128x512xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @softmax_loss(%s: tensor<8x8x128x128xf32>, %c: tensor<8x8x128x128xf32>) -> tensor<f32> {
  %p = tp.softmax %s {dim = -1 : i64} : (tensor<8x8x128x128xf32>) -> tensor<8x8x128x128xf32>
  %m = tp.mul %p, %c : (tensor<8x8x128x128xf32>, tensor<8x8x128x128xf32>) -> tensor<8x8x128x128xf32>
  %l = tp.sum %m : (tensor<8x8x128x128xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @group_norm_loss(%x: tensor<8x64x28x28xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<8x64x28x28xf32>) -> tensor<f32> {
  %y = tp.group_norm %x weight(%w) bias(%b) {num_groups = 8 : i64} : (tensor<8x64x28x28xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<8x64x28x28xf32>
  %m = tp.mul %y, %c : (tensor<8x64x28x28xf32>, tensor<8x64x28x28xf32>) -> tensor<8x64x28x28xf32>
  %l = tp.sum %m : (tensor<8x64x28x28xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
