// An MLP classifier with its loss, as tensorplay.compile would hand it over:
//   4 x (Linear(1024, 1024) + GELU), then Linear(1024, 10) and cross entropy
//   against integer class labels. Batch 256. Parameters are arguments.
// Run: tp-opt --autocast=cuda:fp16 examples/mlp.mlir
func.func @mlp_loss(%x: tensor<256x1024xf32>,
                    %labels: tensor<256xi64>,
                    %w0: tensor<1024x1024xf32>, %b0: tensor<1024xf32>,
                    %w1: tensor<1024x1024xf32>, %b1: tensor<1024xf32>,
                    %w2: tensor<1024x1024xf32>, %b2: tensor<1024xf32>,
                    %w3: tensor<1024x1024xf32>, %b3: tensor<1024xf32>,
                    %wc: tensor<10x1024xf32>, %bc: tensor<10xf32>)
    -> (tensor<f32>, tensor<256x10xf32>) {
  %h0 = tp.linear %x, %w0 bias(%b0) : (tensor<256x1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %a0 = tp.gelu %h0 : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %h1 = tp.linear %a0, %w1 bias(%b1) : (tensor<256x1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %a1 = tp.gelu %h1 : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %h2 = tp.linear %a1, %w2 bias(%b2) : (tensor<256x1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %a2 = tp.gelu %h2 : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %h3 = tp.linear %a2, %w3 bias(%b3) : (tensor<256x1024xf32>, tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %a3 = tp.gelu %h3 : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %logits = tp.linear %a3, %wc bias(%bc) : (tensor<256x1024xf32>, tensor<10x1024xf32>, tensor<10xf32>) -> tensor<256x10xf32>
  %loss = tp.cross_entropy %logits, %labels : (tensor<256x10xf32>, tensor<256xi64>) -> tensor<f32>
  return %loss, %logits : tensor<f32>, tensor<256x10xf32>
}
