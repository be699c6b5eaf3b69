// The product roof of the MLP train step (issue 46, goal 3): its twelve
// bf16 products alone, per layer X W^T (forward), dY W (input gradient) and
// dY^T X (weight gradient) at batch 256, through the oneDNN calls the
// compiled step makes (each layer its own operands, so that nothing is
// shared). bench/cpu/compare-bf16-f32.sh times it with tp-run --repeat.
func.func @mlp_step_products(%x0: tensor<256x1024xbf16>,
    %dy0: tensor<256x1024xbf16>,
    %w0: tensor<1024x1024xbf16>,
    %x1: tensor<256x1024xbf16>,
    %dy1: tensor<256x1024xbf16>,
    %w1: tensor<1024x1024xbf16>,
    %x2: tensor<256x1024xbf16>,
    %dy2: tensor<256x1024xbf16>,
    %w2: tensor<1024x1024xbf16>,
    %x3: tensor<256x1024xbf16>,
    %dy3: tensor<256x1024xbf16>,
    %w3: tensor<1024x1024xbf16>)
    -> (tensor<256x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<1024x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<1024x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<1024x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<256x1024xbf16>,
        tensor<1024x1024xbf16>) {
  %f0 = tp.linear %x0, %w0 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %g0 = tp.mm %dy0, %w0 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %t0 = tp.transpose %dy0 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<256x1024xbf16>) -> tensor<1024x256xbf16>
  %d0 = tp.mm %t0, %x0 : (tensor<1024x256xbf16>, tensor<256x1024xbf16>) -> tensor<1024x1024xbf16>
  %f1 = tp.linear %x1, %w1 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %g1 = tp.mm %dy1, %w1 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %t1 = tp.transpose %dy1 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<256x1024xbf16>) -> tensor<1024x256xbf16>
  %d1 = tp.mm %t1, %x1 : (tensor<1024x256xbf16>, tensor<256x1024xbf16>) -> tensor<1024x1024xbf16>
  %f2 = tp.linear %x2, %w2 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %g2 = tp.mm %dy2, %w2 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %t2 = tp.transpose %dy2 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<256x1024xbf16>) -> tensor<1024x256xbf16>
  %d2 = tp.mm %t2, %x2 : (tensor<1024x256xbf16>, tensor<256x1024xbf16>) -> tensor<1024x1024xbf16>
  %f3 = tp.linear %x3, %w3 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %g3 = tp.mm %dy3, %w3 : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
  %t3 = tp.transpose %dy3 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<256x1024xbf16>) -> tensor<1024x256xbf16>
  %d3 = tp.mm %t3, %x3 : (tensor<1024x256xbf16>, tensor<256x1024xbf16>) -> tensor<1024x1024xbf16>
  return %f0, %g0, %d0, %f1, %g1, %d1, %f2, %g2, %d2, %f3, %g3, %d3 :
      tensor<256x1024xbf16>, tensor<256x1024xbf16>, tensor<1024x1024xbf16>, tensor<256x1024xbf16>, tensor<256x1024xbf16>, tensor<1024x1024xbf16>, tensor<256x1024xbf16>, tensor<256x1024xbf16>, tensor<1024x1024xbf16>, tensor<256x1024xbf16>, tensor<256x1024xbf16>, tensor<1024x1024xbf16>
}
