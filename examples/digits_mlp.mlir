// A small MLP for scikit-learn's handwritten digits (8x8 images flattened to
// 64 features, 10 classes), with its loss: Linear(64, 128) + ReLU,
// Linear(128, 128) + ReLU, Linear(128, 10), cross entropy against the
// labels. Batch 64. The batch comes first (images, labels), the parameters
// after it, as tp-train expects.
// Train: tools/scripts/run-example.sh (or tp-train, docs/Training.md).
func.func @digits_loss(%x: tensor<64x64xf32>, %labels: tensor<64xi64>,
                       %w0: tensor<128x64xf32>, %b0: tensor<128xf32>,
                       %w1: tensor<128x128xf32>, %b1: tensor<128xf32>,
                       %w2: tensor<10x128xf32>, %b2: tensor<10xf32>)
    -> (tensor<f32>, tensor<64x10xf32>) {
  %h0 = tp.linear %x, %w0 bias(%b0) : (tensor<64x64xf32>, tensor<128x64xf32>, tensor<128xf32>) -> tensor<64x128xf32>
  %a0 = tp.relu %h0 : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %h1 = tp.linear %a0, %w1 bias(%b1) : (tensor<64x128xf32>, tensor<128x128xf32>, tensor<128xf32>) -> tensor<64x128xf32>
  %a1 = tp.relu %h1 : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %logits = tp.linear %a1, %w2 bias(%b2) : (tensor<64x128xf32>, tensor<10x128xf32>, tensor<10xf32>) -> tensor<64x10xf32>
  %loss = tp.cross_entropy %logits, %labels : (tensor<64x10xf32>, tensor<64xi64>) -> tensor<f32>
  return %loss, %logits : tensor<f32>, tensor<64x10xf32>
}
