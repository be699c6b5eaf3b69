// A small CNN for scikit-learn's handwritten digits (the 64 features of
// each 8x8 image, as in digits_mlp.mlir, seen as one 8x8 plane), with its
// loss: Conv2d(1, 8, 3, padding 1) + ReLU, Conv2d(8, 16, 3, stride 2,
// padding 1) + ReLU, flatten, Linear(256, 10), cross entropy against the
// labels. Batch 64. The batch comes first (images, labels), the parameters
// after it, as tp-train expects.
// Train: tp-train examples/digits_cnn.mlir --data=x_train.npy
//        --data=y_train.npy (docs/Training.md).
func.func @digits_cnn_loss(%x: tensor<64x64xf32>, %labels: tensor<64xi64>,
                           %w0: tensor<8x1x3x3xf32>, %b0: tensor<8xf32>,
                           %w1: tensor<16x8x3x3xf32>, %b1: tensor<16xf32>,
                           %w2: tensor<10x256xf32>, %b2: tensor<10xf32>)
    -> (tensor<f32>, tensor<64x10xf32>) {
  %img = tp.reshape %x {shape = array<i64: 64, 1, 8, 8>} : (tensor<64x64xf32>) -> tensor<64x1x8x8xf32>
  %c0 = tp.conv2d %img, %w0 bias(%b0) {padding = array<i64: 1>} : (tensor<64x1x8x8xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<64x8x8x8xf32>
  %a0 = tp.relu %c0 : (tensor<64x8x8x8xf32>) -> tensor<64x8x8x8xf32>
  %c1 = tp.conv2d %a0, %w1 bias(%b1) {padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<64x8x8x8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<64x16x4x4xf32>
  %a1 = tp.relu %c1 : (tensor<64x16x4x4xf32>) -> tensor<64x16x4x4xf32>
  %f = tp.reshape %a1 {shape = array<i64: 64, 256>} : (tensor<64x16x4x4xf32>) -> tensor<64x256xf32>
  %logits = tp.linear %f, %w2 bias(%b2) : (tensor<64x256xf32>, tensor<10x256xf32>, tensor<10xf32>) -> tensor<64x10xf32>
  %loss = tp.cross_entropy %logits, %labels : (tensor<64x10xf32>, tensor<64xi64>) -> tensor<f32>
  return %loss, %logits : tensor<f32>, tensor<64x10xf32>
}
