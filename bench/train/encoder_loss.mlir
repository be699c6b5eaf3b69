// A regression loss on examples/encoder_block.mlir, for its train step:
// mse_loss(encoder_block(x, params), y). Not a module on its own: append it
// to the block,
//   cat examples/encoder_block.mlir bench/train/encoder_loss.mlir > m.mlir
//   tp-train m.mlir --data=x.npy --data=y.npy ...
// (tp-autodiff inlines the call). Batch 8, sequence 128, d_model 512.
func.func @encoder_loss(%x: tensor<8x128x512xf32>, %y: tensor<8x128x512xf32>,
                        %wq: tensor<512x512xf32>, %bq: tensor<512xf32>,
                        %wk: tensor<512x512xf32>, %bk: tensor<512xf32>,
                        %wv: tensor<512x512xf32>, %bv: tensor<512xf32>,
                        %wo: tensor<512x512xf32>, %bo: tensor<512xf32>,
                        %g1: tensor<512xf32>, %be1: tensor<512xf32>,
                        %w1: tensor<2048x512xf32>, %b1: tensor<2048xf32>,
                        %w2: tensor<512x2048xf32>, %b2: tensor<512xf32>,
                        %g2: tensor<512xf32>, %be2: tensor<512xf32>)
    -> tensor<f32> {
  %o = func.call @encoder_block(%x, %wq, %bq, %wk, %bk, %wv, %bv, %wo, %bo,
                                %g1, %be1, %w1, %b1, %w2, %b2, %g2, %be2)
      : (tensor<8x128x512xf32>, tensor<512x512xf32>, tensor<512xf32>,
         tensor<512x512xf32>, tensor<512xf32>, tensor<512x512xf32>,
         tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
         tensor<512xf32>, tensor<512xf32>, tensor<2048x512xf32>,
         tensor<2048xf32>, tensor<512x2048xf32>, tensor<512xf32>,
         tensor<512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %l = tp.mse_loss %o, %y : (tensor<8x128x512xf32>, tensor<8x128x512xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
