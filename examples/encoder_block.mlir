// One transformer encoder block (post-norm, as nn.TransformerEncoderLayer):
//   x + MHA(x) -> layer_norm -> + FFN (Linear 2048, GELU, Linear 512) ->
//   layer_norm. Batch 8, sequence 128, d_model 512, 8 heads of 64.
// Run: tp-opt --autocast=cuda:fp16 examples/encoder_block.mlir
func.func @encoder_block(%x: tensor<8x128x512xf32>,
                         %wq: tensor<512x512xf32>, %bq: tensor<512xf32>,
                         %wk: tensor<512x512xf32>, %bk: tensor<512xf32>,
                         %wv: tensor<512x512xf32>, %bv: tensor<512xf32>,
                         %wo: tensor<512x512xf32>, %bo: tensor<512xf32>,
                         %g1: tensor<512xf32>, %be1: tensor<512xf32>,
                         %w1: tensor<2048x512xf32>, %b1: tensor<2048xf32>,
                         %w2: tensor<512x2048xf32>, %b2: tensor<512xf32>,
                         %g2: tensor<512xf32>, %be2: tensor<512xf32>)
    -> tensor<8x128x512xf32> {
  // Attention projections, split into heads: (8, 128, 512) -> (8, 8, 128, 64).
  %q0 = tp.linear %x, %wq bias(%bq) : (tensor<8x128x512xf32>, tensor<512x512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %k0 = tp.linear %x, %wk bias(%bk) : (tensor<8x128x512xf32>, tensor<512x512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %v0 = tp.linear %x, %wv bias(%bv) : (tensor<8x128x512xf32>, tensor<512x512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %q1 = tp.reshape %q0 {shape = array<i64: 8, 128, 8, 64>} : (tensor<8x128x512xf32>) -> tensor<8x128x8x64xf32>
  %k1 = tp.reshape %k0 {shape = array<i64: 8, 128, 8, 64>} : (tensor<8x128x512xf32>) -> tensor<8x128x8x64xf32>
  %v1 = tp.reshape %v0 {shape = array<i64: 8, 128, 8, 64>} : (tensor<8x128x512xf32>) -> tensor<8x128x8x64xf32>
  %q = tp.permute %q1 {dims = array<i64: 0, 2, 1, 3>} : (tensor<8x128x8x64xf32>) -> tensor<8x8x128x64xf32>
  %kt = tp.permute %k1 {dims = array<i64: 0, 2, 3, 1>} : (tensor<8x128x8x64xf32>) -> tensor<8x8x64x128xf32>
  %v = tp.permute %v1 {dims = array<i64: 0, 2, 1, 3>} : (tensor<8x128x8x64xf32>) -> tensor<8x8x128x64xf32>
  // softmax(Q K^T / sqrt(64)) V
  %s0 = tp.matmul %q, %kt : (tensor<8x8x128x64xf32>, tensor<8x8x64x128xf32>) -> tensor<8x8x128x128xf32>
  %scale = tp.constant dense<1.250000e-01> : tensor<f32>
  %s1 = tp.mul %s0, %scale : (tensor<8x8x128x128xf32>, tensor<f32>) -> tensor<8x8x128x128xf32>
  %p = tp.softmax %s1 {dim = -1 : i64} : (tensor<8x8x128x128xf32>) -> tensor<8x8x128x128xf32>
  %o0 = tp.matmul %p, %v : (tensor<8x8x128x128xf32>, tensor<8x8x128x64xf32>) -> tensor<8x8x128x64xf32>
  %o1 = tp.permute %o0 {dims = array<i64: 0, 2, 1, 3>} : (tensor<8x8x128x64xf32>) -> tensor<8x128x8x64xf32>
  %o2 = tp.reshape %o1 {shape = array<i64: 8, 128, 512>} : (tensor<8x128x8x64xf32>) -> tensor<8x128x512xf32>
  %attn = tp.linear %o2, %wo bias(%bo) : (tensor<8x128x512xf32>, tensor<512x512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  // Residual and norm.
  %r1 = tp.add %x, %attn : (tensor<8x128x512xf32>, tensor<8x128x512xf32>) -> tensor<8x128x512xf32>
  %n1 = tp.layer_norm %r1 weight(%g1) bias(%be1) {normalized_shape = array<i64: 512>} : (tensor<8x128x512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  // Feed-forward.
  %f1 = tp.linear %n1, %w1 bias(%b1) : (tensor<8x128x512xf32>, tensor<2048x512xf32>, tensor<2048xf32>) -> tensor<8x128x2048xf32>
  %f2 = tp.gelu %f1 : (tensor<8x128x2048xf32>) -> tensor<8x128x2048xf32>
  %f3 = tp.linear %f2, %w2 bias(%b2) : (tensor<8x128x2048xf32>, tensor<512x2048xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %r2 = tp.add %n1, %f3 : (tensor<8x128x512xf32>, tensor<8x128x512xf32>) -> tensor<8x128x512xf32>
  %n2 = tp.layer_norm %r2 weight(%g2) bias(%be2) {normalized_shape = array<i64: 512>} : (tensor<8x128x512xf32>, tensor<512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  return %n2 : tensor<8x128x512xf32>
}
